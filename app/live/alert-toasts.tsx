/**
 * Price alerts that fire while the trader has any page open (issue 13): a toast on that page, with a link
 * to the alerts screen. For a signed-in trader the stream is held open on every page; its module loads
 * after hydration, so a page's first-load script stays as it was. On the alerts screen the list reloads.
 */
import { Link } from '@remix-run/react';
import { useCallback, useEffect, useState } from 'react';
import { useTranslation } from '~/i18n/react';
import { formatPrice } from '~/utils/format';
import { useLocale } from '~/utils/locale';
import type { PriceAlert } from '#contract/views';
import { RESYNC_EVENT } from './events';

/** How long an alert's toast stays unless dismissed. */
const ALERT_TOAST_MS = 20_000;
/** Toasts shown at once: a burst of alerts shows the newest. */
const MAX_TOASTS = 3;

export function AlertToasts({ signedIn }: { signedIn: boolean }) {
  const [fired, setFired] = useState<PriceAlert[]>([]);
  const dismiss = useCallback((id: number) => setFired((list) => list.filter((a) => a.id !== id)), []);
  useEffect(() => {
    if (!signedIn) return;
    let stop: (() => void) | null = null;
    let cancelled = false;
    void import('./store').then(({ live }) => {
      if (cancelled || !live) return;
      const release = live.retain();
      const off = live.hear('alert', (alert) => {
        setFired((list) => [...list.filter((a) => a.id !== alert.id), alert].slice(-MAX_TOASTS));
        if (window.location.pathname === '/alerts') window.dispatchEvent(new Event(RESYNC_EVENT));
      });
      stop = () => {
        off();
        release();
      };
    });
    return () => {
      cancelled = true;
      stop?.();
    };
  }, [signedIn]);
  if (fired.length === 0) return null;
  return (
    <div className="alert-toasts">
      {fired.map((a) => (
        <AlertToast key={a.id} alert={a} dismiss={dismiss} />
      ))}
    </div>
  );
}

function AlertToast({ alert, dismiss }: { alert: PriceAlert; dismiss: (id: number) => void }) {
  const { t } = useTranslation('alerts');
  const locale = useLocale();
  useEffect(() => {
    const timer = setTimeout(() => dismiss(alert.id), ALERT_TOAST_MS);
    return () => clearTimeout(timer);
  }, [alert.id, dismiss]);
  const onDismiss = () => dismiss(alert.id);
  const price = (value: number) => formatPrice(value, alert.digits, locale);
  const words = t(alert.direction === 'above' ? 'risesTo' : 'fallsTo', { symbol: alert.symbol, price: price(alert.level) });
  return (
    <div className="toast toast-alert" role="alert">
      <span className="toast-text">
        {t('fired', { alert: words, price: price(alert.triggered?.price ?? alert.level) })}
        {alert.note ? <span className="toast-note">{alert.note}</span> : null}{' '}
        <Link to={`/alerts?code=${encodeURIComponent(alert.code)}`} onClick={onDismiss}>
          {t('view')}
        </Link>
      </span>
      <button type="button" className="toast-close" aria-label={t('common:actions.dismiss')} onClick={onDismiss}>
        ×
      </button>
    </div>
  );
}
