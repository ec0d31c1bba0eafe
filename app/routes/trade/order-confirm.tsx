/**
 * The order's confirmation (one-tap trading off, the default): what "Buy up" or "Buy low" would place, with
 * the money at its take profit and stop loss for that side, before it is placed. It lives inside the ticket's
 * form, so "Confirm" sends the same fields and the same one-time key (a double tap still places one order).
 * Without JavaScript an unconfirmed order redirects to its confirmation page (`?confirm=`, kept-ticket.server.ts), drawn
 * with this dialog open and the kept one-time key; "Cancel" is the ticket's GET recalculation, back to the ticket. With JavaScript it opens in place and Escape cancels.
 */
import { Link } from '@remix-run/react';
import { useTranslation } from '~/i18n/react';
import { Side } from '#contract/enums';
import { money, parseUnits } from '#contract/money';
import { StopMoneyNote } from '~/components/stop-money';
import { SubmitButton } from '~/components/form-parts';
import { useDialog } from '~/components/use-dialog';
import { formatMargin, formatPrice } from '~/utils/format';
import { useLocale } from '~/utils/locale';
import type { TicketInstrument } from './estimates';
import type { StopKind, StopMoney } from '~/utils/stop-money';

export interface OrderSummary {
  side: Side;
  instrument: TicketInstrument;
  lots: string;
  leverage: string;
  pending: boolean;
  /** The current price (market) or the target (pending), as the instrument's price. */
  price: number | null;
  takeProfit: string;
  stopLoss: string;
  /** The trailing stop's distance as typed (empty or 0: off). */
  trail: string;
  stops: { takeProfit: StopMoney | null; stopLoss: StopMoney | null };
  margin: number | null;
  fee: number | null;
}

/** The two stops' rows, each with the id of its money note. */
const STOP_ROWS: readonly { kind: StopKind; moneyId: string }[] = [
  { kind: 'takeProfit', moneyId: 'order-confirm-tp-money' },
  { kind: 'stopLoss', moneyId: 'order-confirm-sl-money' },
];

export function OrderConfirm({
  summary,
  disabled,
  onCancel,
}: {
  summary: OrderSummary;
  /** Buy and sell cannot be pressed right now (a closed market, prices not live). */
  disabled: boolean;
  /** With JavaScript: close the dialog in place. */
  onCancel: () => void;
}) {
  const { t } = useTranslation('trade');
  const locale = useLocale();
  const heading = useDialog<HTMLHeadingElement>(onCancel);
  const { instrument, side } = summary;
  const precision = instrument.digits;
  const buy = side === Side.Buy;
  const usd = (micro: number | null) => (micro === null ? '—' : `${formatMargin(money.toNumber(micro), locale)} USD`);
  const stopPrice = (text: string) => {
    const units = parseUnits(text.trim(), precision);
    return units !== null && units > 0 ? formatPrice(units / 10 ** precision, precision, locale) : t('order.notSet');
  };

  return (
    <div className="dialog-backdrop">
      <section className="dialog order-confirm" role="dialog" aria-modal="true" aria-labelledby="order-confirm-title">
        <h2 id="order-confirm-title" ref={heading} tabIndex={-1}>
          {t('confirm.title')}
        </h2>
        <p className={`order-confirm-side ${buy ? 'buy' : 'sell'}`}>
          {buy ? t('order.buyUp') : t('order.buyDown')} · {instrument.symbol}
        </p>
        <dl className="estimates order-confirm-facts">
          <div>
            <dt>{t('order.lots')}</dt>
            <dd>{summary.lots}</dd>
          </div>
          {summary.leverage ? (
            <div>
              <dt>{t('order.leverage')}</dt>
              <dd>1:{summary.leverage}</dd>
            </div>
          ) : null}
          <div>
            <dt>{summary.pending ? t('order.targetPrice') : t('confirm.marketPrice')}</dt>
            <dd data-testid="confirm-price">{summary.price === null ? '—' : formatPrice(summary.price, precision, locale)}</dd>
          </div>
          {STOP_ROWS.map(({ kind, moneyId }) => (
            <div key={kind}>
              <dt>{t(`order.${kind}`)}</dt>
              <dd>
                {stopPrice(summary[kind])}
                {summary.stops[kind] ? <StopMoneyNote id={moneyId} kind={kind} figure={summary.stops[kind]} precision={precision} /> : null}
              </dd>
            </div>
          ))}
          <div>
            <dt>{t('trailing.label')}</dt>
            <dd>{/^0*\.?0*$/.test(summary.trail.trim()) ? t('trailing.off') : summary.trail.trim()}</dd>
          </div>
          <div>
            <dt>{t('order.margin')}</dt>
            <dd>{usd(summary.margin)}</dd>
          </div>
          <div>
            <dt>{t('order.fee')}</dt>
            <dd>{usd(summary.fee)}</dd>
          </div>
        </dl>
        {/* Sent with the ticket's fields by "Confirm" only. */}
        <input type="hidden" name="confirmed" value="1" />
        <div className="dialog-actions">
          <button
            type="submit"
            formMethod="get"
            name="recalc"
            value="1"
            className="button secondary"
            onClick={(event) => {
              event.preventDefault();
              onCancel();
            }}
          >
            {t('confirm.cancel')}
          </button>
          <SubmitButton className={`button ${buy ? 'buy' : 'sell'}`} name="side" value={String(side)} disabled={disabled}>
            {t('confirm.place')}
          </SubmitButton>
        </div>
        <p className="muted order-confirm-hint">
          {t('confirm.oneTapHint')} <Link to="/mine/system">{t('oneTap.settings')}</Link>
        </p>
      </section>
    </div>
  );
}
