/**
 * After a `resync` (the stream lost events it cannot replay) the page's loaders run again, but never while
 * a navigation or a form's submission is under way: revalidating restarts the router's pending load, which
 * loses that answer's one-time toast (the same trap as issue 12's close on a slow phone), and that load
 * brings fresh data anyway. The resync waits until the router is idle.
 */
import { useFetchers, useNavigation, useRevalidator } from '@remix-run/react';
import { useEffect, useState } from 'react';
import { RESYNC_EVENT } from './events';

export function LiveResync() {
  const revalidator = useRevalidator();
  const navigating = useNavigation().state !== 'idle';
  const fetching = useFetchers().some((f) => f.state !== 'idle');
  const [due, setDue] = useState(false);
  useEffect(() => {
    const onResync = () => setDue(true);
    window.addEventListener(RESYNC_EVENT, onResync);
    return () => window.removeEventListener(RESYNC_EVENT, onResync);
  }, []);
  useEffect(() => {
    if (!due || navigating || fetching || revalidator.state !== 'idle') return;
    setDue(false);
    revalidator.revalidate();
  }, [due, navigating, fetching, revalidator]);
  return null;
}
