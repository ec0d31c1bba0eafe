/**
 * A trailing stop the live price has moved is shown moved at once (TrailingLine); the list is re-read now and then
 * for the stop the upstream stored, through the same idle-time re-read as a pushed close.
 */
import { useEffect, useRef } from 'react';

/** At most this often the list is re-read because live prices moved a trailing stop. */
const TRAIL_REREAD_MS = 10_000;

/** `moved`: some shown trailing stop has moved live; `loaded`: the list as read (a new read restarts the wait). */
export function useTrailReread(moved: boolean, loaded: unknown, refreshSoon: () => void) {
  const readAt = useRef(0);
  useEffect(() => {
    if (!moved) return;
    const timer = setTimeout(
      () => {
        readAt.current = Date.now();
        refreshSoon();
      },
      Math.max(0, readAt.current + TRAIL_REREAD_MS - Date.now()),
    );
    return () => clearTimeout(timer);
  }, [moved, loaded, refreshSoon]);
}
