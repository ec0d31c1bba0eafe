/**
 * The trader's lines on the canvas chart, loaded with the canvas: draws them (and names each one drawn
 * for screen readers), follows the trader's positions, and handles a dragged take profit or stop loss.
 * Letting one go asks first; the new price is then saved through the orders screen's own take-profit /
 * stop-loss action (its fields, CSRF token and intent), so the upstream's checks and messages are the
 * popup's. A refusal puts the line back and says why.
 */
import { useFetcher, useLocation } from '@remix-run/react';
import { useCallback, useEffect, useId, useRef, useState } from 'react';
import { useTranslation } from '~/i18n/react';
import { useAuthenticityToken } from 'remix-utils/csrf/react';
import { OrderTab } from '#contract/enums';
import { useDialog } from '../use-dialog';
import { useChartOrdersRefresh } from './chart-refresh';
import type { LiveChart } from './live-chart.client';
import type { ChartLine, ChartOrders } from './order-lines';

/** Where the order popup's take-profit / stop-loss form posts: /order (holding tab). */
const STOPS_ACTION = `/order?type=${OrderTab.Holding}`;

interface StopsReply {
  result?: { error?: Record<string, string[] | null> | null };
}

/** A take profit or stop loss let go at a new price. */
interface Drop {
  line: ChartLine;
  price: number;
}

export default function CanvasLines({ chart, orders }: { chart: LiveChart; orders: ChartOrders }) {
  const { t, i18n } = useTranslation('trade');
  const dir = i18n.dir();
  const id = useId();
  const csrf = useAuthenticityToken();
  const location = useLocation();
  const fetcher = useFetcher<StopsReply>();
  const { lines, holdingIds } = orders;
  // The lines as the canvas drew them: what the list names is what is on the chart.
  const [drawn, setDrawn] = useState<readonly string[]>([]);
  const [asked, setAsked] = useState<Drop | null>(null);
  const [message, setMessage] = useState<string[]>([]);
  const sending = useRef<Drop | null>(null);

  useChartOrdersRefresh(holdingIds, lines);

  // New lines (a revalidation after an order changed): drawn again, a dragged one at its own price.
  useEffect(() => {
    setDrawn(chart.setLines(lines));
    setAsked(null);
  }, [chart, lines]);

  useEffect(() => {
    chart.onLineDrop((line, price) => {
      setMessage([]);
      setAsked({ line, price });
    });
    return () => chart.onLineDrop(null);
  }, [chart]);

  const cancel = useCallback(() => {
    setAsked((drop) => {
      if (drop) chart.moveLine(drop.line.key, null);
      return null;
    });
  }, [chart]);

  const moveButton = useDialog<HTMLButtonElement>(cancel, asked !== null);

  // The answer: a refusal comes back as the form's errors; a save redirects here and the loader draws anew.
  useEffect(() => {
    const drop = sending.current;
    if (fetcher.state !== 'idle' || !drop) return;
    sending.current = null;
    const errors = Object.values(fetcher.data?.result?.error ?? {})
      .flat()
      .filter((e): e is string => Boolean(e));
    if (errors.length > 0) {
      setMessage(errors);
      chart.moveLine(drop.line.key, null);
    }
  }, [fetcher.state, fetcher.data, chart]);

  const confirm = () => {
    if (!asked) return;
    const { line, price } = asked;
    const digits = Math.max(chart.options().precision, 0);
    // The form saves both: the other one of this position is sent as it is.
    const other = (kind: ChartLine['kind']) =>
      lines.find((l) => l.orderId === line.orderId && l.kind === kind)?.price.toFixed(digits) ?? '';
    const here = new URLSearchParams(location.search);
    here.delete('placed');
    here.delete('drawer');
    const query = here.toString();
    const form = new FormData();
    if (csrf) form.set('csrf', csrf);
    form.set('intent', 'stops');
    form.set('id', String(line.orderId));
    form.set('take_profit', line.kind === 'takeProfit' ? price.toFixed(digits) : other('takeProfit'));
    form.set('stop_loss', line.kind === 'stopLoss' ? price.toFixed(digits) : other('stopLoss'));
    // Without it the save would turn a trailing stop off.
    form.set('trail_distance', line.trail > 0 ? line.trail.toFixed(digits) : '');
    form.set('redirect_to', `${location.pathname}${query ? `?${query}` : ''}`);
    sending.current = asked;
    setAsked(null);
    // The line stays where it was let go while the answer is awaited.
    chart.moveLine(line.key, price);
    fetcher.submit(form, { method: 'post', action: STOPS_ACTION });
  };

  const listed = lines.filter((l) => drawn.includes(l.key));
  const stopLoss = asked?.line.kind === 'stopLoss';
  return (
    <>
      {listed.length > 0 ? (
        <ul className="visually-hidden" aria-label={orders.label}>
          {listed.map((l) => (
            <li key={l.key}>{l.spoken}</li>
          ))}
        </ul>
      ) : null}
      {message.length > 0 ? (
        <div role="alert" className="form-error chart-line-message" dir={dir}>
          {message.map((m) => (
            <p key={m}>{t(m)}</p>
          ))}
        </div>
      ) : fetcher.state !== 'idle' ? (
        <p role="status" className="muted chart-line-message" dir={dir}>
          {t('chart.lines.saving')}
        </p>
      ) : null}
      {asked ? (
        <div className="dialog-backdrop" dir={dir}>
          <section
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
                price: chart.options().formatPrice(asked.price),
              })}
            </p>
            <div className="dialog-actions">
              <button type="button" className="button secondary" onClick={cancel}>
                {t('common:actions.cancel')}
              </button>
              <button ref={moveButton} type="button" className="button" value="move" onClick={confirm}>
                {t('chart.lines.move')}
              </button>
            </div>
          </section>
        </div>
      ) : null}
    </>
  );
}
