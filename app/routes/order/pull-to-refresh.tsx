/**
 * Pull to refresh (spec §2 "Orders"): a downward drag that starts at the top of the page refreshes the
 * list; the indicator stays until the data is back, then hides after 500 ms (spec §9). Without
 * JavaScript the page has a plain "Refresh" link instead.
 */
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from '~/i18n/react';

/** Drag distance (after damping) that arms the refresh, and the furthest the indicator follows. */
const THRESHOLD_PX = 56;
const MAX_PX = 96;
/** Spec §9: the refresh indicator hides 500 ms after the refresh. */
export const REFRESH_INDICATOR_MS = 500;

type Phase = 'idle' | 'pulling' | 'ready' | 'refreshing';

export function usePullToRefresh(refresh: () => void, busy: boolean) {
  const [phase, setPhase] = useState<Phase>('idle');
  const [distance, setDistance] = useState(0);
  const phaseRef = useRef<Phase>('idle');
  const refreshRef = useRef(refresh);
  refreshRef.current = refresh;

  useEffect(() => {
    const go = (next: Phase) => {
      phaseRef.current = next;
      setPhase(next);
    };
    let startY: number | null = null;
    const start = (e: TouchEvent) => {
      const touch = e.touches[0];
      startY = e.touches.length === 1 && touch && window.scrollY <= 0 && phaseRef.current !== 'refreshing' ? touch.clientY : null;
    };
    const move = (e: TouchEvent) => {
      const touch = e.touches[0];
      if (startY === null || !touch) return;
      // Halved so the indicator trails the finger, as native lists do.
      const pulled = Math.min(Math.max(0, (touch.clientY - startY) / 2), MAX_PX);
      setDistance(pulled);
      go(pulled >= THRESHOLD_PX ? 'ready' : pulled > 0 ? 'pulling' : 'idle');
    };
    const end = () => {
      if (startY === null) return;
      startY = null;
      setDistance(0);
      if (phaseRef.current === 'ready') {
        go('refreshing');
        refreshRef.current();
      } else go('idle');
    };
    window.addEventListener('touchstart', start, { passive: true });
    window.addEventListener('touchmove', move, { passive: true });
    window.addEventListener('touchend', end);
    window.addEventListener('touchcancel', end);
    return () => {
      window.removeEventListener('touchstart', start);
      window.removeEventListener('touchmove', move);
      window.removeEventListener('touchend', end);
      window.removeEventListener('touchcancel', end);
    };
  }, []);

  useEffect(() => {
    if (phase !== 'refreshing' || busy) return;
    const timer = setTimeout(() => {
      phaseRef.current = 'idle';
      setPhase('idle');
    }, REFRESH_INDICATOR_MS);
    return () => clearTimeout(timer);
  }, [phase, busy]);

  return { phase, distance };
}

export function PullIndicator({ phase, distance }: { phase: Phase; distance: number }) {
  const { t } = useTranslation('orders');
  if (phase === 'idle') return null;
  const text = phase === 'refreshing' ? t('refresh.refreshing') : phase === 'ready' ? t('refresh.release') : t('refresh.pull');
  return (
    <div className={`pull-indicator ${phase}`} role="status" style={{ height: phase === 'refreshing' ? THRESHOLD_PX : distance }}>
      <span className="pull-spinner" aria-hidden="true" />
      <span>{text}</span>
    </div>
  );
}
