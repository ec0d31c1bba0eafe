/**
 * A take-profit or stop-loss line dragged on the canvas chart: a dialog asks first, then the new price is
 * saved through the orders screen's own take-profit / stop-loss action (its fields, CSRF token and
 * intent), so the upstream's checks and messages are the popup's. A refusal puts the line back and says why.
 */
import { useFetcher, useLocation } from '@remix-run/react';
import { useEffect, useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useAuthenticityToken } from 'remix-utils/csrf/react';
import { OrderTab } from '#contract/enums';
import type { LineDrop } from './index';
import type { ChartOrder } from './order-lines';

/** Where the popup's form posts: the holding tab of /order. */
const STOPS_ACTION = `/order?type=${OrderTab.Holding}`;

interface StopsReply {
  result?: { error?: Record<string, string[] | null> | null };
}

export default function LineMove({
  drop,
  orders,
  formatPrice,
  precision,
  onSettle,
}: {
  drop: LineDrop | null;
  orders: readonly ChartOrder[];
  formatPrice: (price: number) => string;
  precision: number;
  onSettle: (outcome: 'back' | 'saving') => void;
}) {
  const { t } = useTranslation('trade');
  const id = useId();
  const csrf = useAuthenticityToken();
  const location = useLocation();
  const fetcher = useFetcher<StopsReply>();
  const [asked, setAsked] = useState<LineDrop | null>(null);
  const [message, setMessage] = useState<string[]>([]);
  const sent = useRef(false);
  const dialog = useRef<HTMLElement>(null);

  // A new drop asks again (and an old message goes).
  useEffect(() => {
    if (!drop) return setAsked(null);
    setAsked(drop);
    setMessage([]);
  }, [drop]);

  useEffect(() => {
    if (!asked) return;
    dialog.current?.querySelector<HTMLButtonElement>('button[value="move"]')?.focus();
    const onKey = (event: KeyboardEvent) => {
      if (event.key === 'Escape') cancel();
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  });

  // The answer: a refusal comes back as the form's errors; a save redirects here and the loader draws anew.
  useEffect(() => {
    if (fetcher.state !== 'idle' || !sent.current) return;
    sent.current = false;
    const errors = Object.values(fetcher.data?.result?.error ?? {})
      .flat()
      .filter((e): e is string => Boolean(e));
    if (errors.length > 0) {
      setMessage(errors);
      onSettle('back');
    }
  }, [fetcher.state, fetcher.data, onSettle]);

  const cancel = () => {
    setAsked(null);
    onSettle('back');
  };

  const confirm = () => {
    if (!asked) return;
    const order = orders.find((o) => o.id === asked.line.orderId);
    const price = asked.price.toFixed(Math.max(precision, 0));
    const kept = (value: number | null | undefined) => (value ? value.toFixed(Math.max(precision, 0)) : '');
    const here = new URLSearchParams(location.search);
    here.delete('placed');
    here.delete('drawer');
    const query = here.toString();
    const form = new FormData();
    if (csrf) form.set('csrf', csrf);
    form.set('intent', 'stops');
    form.set('id', String(asked.line.orderId));
    form.set('take_profit', asked.line.kind === 'takeProfit' ? price : kept(order?.takeProfit));
    form.set('stop_loss', asked.line.kind === 'stopLoss' ? price : kept(order?.stopLoss));
    form.set('redirect_to', `${location.pathname}${query ? `?${query}` : ''}`);
    sent.current = true;
    setAsked(null);
    onSettle('saving');
    fetcher.submit(form, { method: 'post', action: STOPS_ACTION });
  };

  const stopLoss = asked?.line.kind === 'stopLoss';
  return (
    <>
      {message.length > 0 ? (
        <div role="alert" className="form-error chart-line-message">
          {message.map((m) => (
            <p key={m}>{t(m)}</p>
          ))}
        </div>
      ) : null}
      {fetcher.state !== 'idle' ? (
        <p role="status" className="muted chart-line-message">
          {t('chart.lines.saving')}
        </p>
      ) : null}
      {asked ? (
        <div className="dialog-backdrop">
          <section
            ref={dialog}
            className="dialog"
            role="dialog"
            aria-modal="true"
            aria-labelledby={`${id}-title`}
            aria-describedby={`${id}-message`}
            tabIndex={-1}
          >
            <h2 id={`${id}-title`}>{t(stopLoss ? 'chart.lines.moveStopLoss' : 'chart.lines.moveTakeProfit')}</h2>
            <p id={`${id}-message`}>
              {t(stopLoss ? 'chart.lines.askStopLoss' : 'chart.lines.askTakeProfit', {
                id: asked.line.orderId,
                price: formatPrice(asked.price),
              })}
            </p>
            <div className="dialog-actions">
              <button type="button" className="button secondary" onClick={cancel}>
                {t('common:actions.cancel')}
              </button>
              <button type="button" className="button" value="move" onClick={confirm}>
                {t('chart.lines.move')}
              </button>
            </div>
          </section>
        </div>
      ) : null}
    </>
  );
}
