/**
 * The chart's order lines follow the trader's positions: when the stream says a position closed, or the
 * live account lists other positions than the page was loaded with (one opened, filled or closed
 * elsewhere), the trade screen's loader runs again.
 */
import { useNavigation, useRevalidator } from '@remix-run/react';
import { useCallback, useEffect, useRef } from 'react';
import { useLiveAccount, useLiveClosed } from '~/live/state';

const signature = (ids: readonly number[]) => [...ids].sort((a, b) => a - b).join(',');

export function useChartOrdersRefresh(holdingIds: readonly number[], lines: readonly { orderId: number }[]) {
  const revalidator = useRevalidator();
  const navigation = useNavigation();
  const account = useLiveAccount();
  const loaded = signature(holdingIds);
  // Each new set of positions asks once, so a list the loader cannot match (more than it reads) does not loop.
  const asked = useRef(loaded);
  const latest = useRef({ lines, holdingIds });
  latest.current = { lines, holdingIds };
  const busy = revalidator.state !== 'idle' || navigation.state !== 'idle';

  const live = account ? signature(account.positions.map((o) => o.id)) : null;
  useEffect(() => {
    if (live === null || busy || live === loaded || live === asked.current) return;
    asked.current = live;
    revalidator.revalidate();
  }, [live, loaded, busy, revalidator]);

  const onClosed = useCallback(
    (ids: number[]) => {
      const known = new Set([...latest.current.lines.map((l) => l.orderId), ...latest.current.holdingIds]);
      if (ids.some((id) => known.has(id))) revalidator.revalidate();
    },
    [revalidator],
  );
  useLiveClosed(onClosed);
}
