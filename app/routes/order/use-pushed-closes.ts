/**
 * The orders screen between page loads, kept in step with the stream's closed orders: a pushed close takes its row off
 * at once, closes an open popup of that order, says so for a while, and the list is re-read once the screen is idle.
 */
import type { Position } from '#contract/views';
import { useNavigate, useNavigation, useRevalidator } from '@remix-run/react';
import { useCallback, useEffect, useRef, useState } from 'react';
import { useTranslation } from '~/i18n/react';
import { useLiveClosed } from '~/live/state';

/** How long the "was closed" notice stays. */
const NOTICE_MS = 8000;

export function usePushedCloses({
  orders,
  detailId,
  listUrl,
  holdingTab,
}: {
  /** The orders read so far (every page shown). */
  orders: Position[];
  /** The order whose popup is open or opening. */
  detailId: number | null;
  /** The list without a popup: where a closed order's popup goes. */
  listUrl: string;
  holdingTab: boolean;
}) {
  const { t } = useTranslation('orders');
  const navigation = useNavigation();
  const navigate = useNavigate();
  const revalidator = useRevalidator();
  const [closedIds, setClosedIds] = useState<ReadonlySet<number>>(() => new Set());
  const rows = holdingTab ? orders.filter((o) => !closedIds.has(o.id)) : orders;
  const [notice, setNotice] = useState<string | null>(null);
  const [refreshWhenIdle, setRefreshWhenIdle] = useState(false);
  // This tab's own close or cancel is on its way: its answer (and its toast) closes the popup, not the push;
  // a navigation of ours now would cancel the answer's page and its toast. The push can arrive before React
  // has rendered the submission, so the popup's forms also say so the moment they are sent.
  const submitting = navigation.formMethod !== undefined;
  const sent = useRef(false);
  const onSend = useCallback(() => {
    sent.current = true;
  }, []);
  useEffect(() => {
    if (navigation.state === 'idle') sent.current = false;
  }, [navigation.state]);
  const latest = useRef({ rows, detailId, listUrl, holdingTab, submitting });
  latest.current = { rows, detailId, listUrl, holdingTab, submitting };
  const onClosed = useCallback(
    (ids: number[]) => {
      const { rows: shownRows, detailId: openId, listUrl: backTo, holdingTab: onHolding, submitting } = latest.current;
      if (submitting || sent.current) return setRefreshWhenIdle(true);
      // Only holding orders are closed by a push; other tabs just re-read their list.
      const shown = onHolding ? ids.filter((id) => id === openId || shownRows.some((o) => o.id === id)) : [];
      setClosedIds((before) => new Set([...before, ...ids]));
      if (shown.length > 0) setNotice(t('live.closed', { count: shown.length, ids: shown.map((id) => `#${id}`).join(', ') }));
      if (onHolding && openId !== null && ids.includes(openId)) navigate(backTo, { replace: true, preventScrollReset: true });
      setRefreshWhenIdle(true);
    },
    [navigate, t],
  );
  useLiveClosed(onClosed);
  useEffect(() => {
    // After the popup's navigation, or the revalidation would be folded into it and skipped; and not while
    // a form of ours is out though React still renders "idle": a revalidation then restarts the answer's
    // page load, and the toast the first load took is lost with it.
    if (!refreshWhenIdle || navigation.state !== 'idle' || sent.current) return;
    setRefreshWhenIdle(false);
    revalidator.revalidate();
  }, [refreshWhenIdle, navigation.state, revalidator]);
  useEffect(() => {
    if (!notice) return;
    const timer = setTimeout(() => setNotice(null), NOTICE_MS);
    return () => clearTimeout(timer);
  }, [notice]);
  const refreshSoon = useCallback(() => setRefreshWhenIdle(true), []);

  return {
    /** The orders shown: on the holding tab, without those the stream has closed. */
    rows,
    closedIds,
    notice,
    /** For the popup's forms: one of them has been sent. */
    onSend,
    /** Re-reads the list once the screen is idle (as after a push). */
    refreshSoon,
  };
}
