/**
 * The detail popup of one order (`?detail=ID`): every figure in the trader's words, and for an open order
 * the take-profit / stop-loss form and "Close position" or "Cancel order". Rendered by the server, so it
 * works without JavaScript; its "Close" is a link back to the list.
 */
import type { SubmissionResult } from '@conform-to/react';
import { Link } from '@remix-run/react';
import { useTranslation } from '~/i18n/react';
import type { Position } from '#contract/views';
import { CloseReason, OrderStatus } from '#contract/enums';
import type { Constraint } from '~/components/late-checks';
import { useDialog } from '~/components/use-dialog';
import { formatInteger, formatLots, formatMargin, formatPrice, formatProfit, trendOf } from '~/utils/format';
import { formatDateTime } from '~/utils/format-date';
import { useLocale } from '~/utils/locale';
import type { Conversion } from '~/routes/trade/estimates';
import { CancelForm } from './cancel-form';
import { CloseForm } from './close-form';
import { isBuy, statusKey, type LiveOrder } from './order-list';
import type { LotRule } from './queries.server';
import { StopsForm } from './stops-form';
import { shownStopLoss } from './trailing';

const CLOSE_REASON_KEYS: Record<number, string> = {
  [CloseReason.User]: 'closeReason.user',
  [CloseReason.StopOut]: 'closeReason.stopOut',
  [CloseReason.TakeProfit]: 'closeReason.takeProfit',
  [CloseReason.StopLoss]: 'closeReason.stopLoss',
  [CloseReason.Admin]: 'closeReason.admin',
};

/** One figure of the order: a row whose header names it, so it reads (and is found) as "Take profit, 1.10200". */
function Fact({ label, children, className }: { label: string; children: React.ReactNode; className?: string }) {
  return (
    <tr>
      <th scope="row">{label}</th>
      <td className={className}>{children}</td>
    </tr>
  );
}

export function OrderDetail({
  order,
  live,
  unitsPerLot,
  lotRule,
  conversion = null,
  actionKey,
  closeTo,
  stopsConstraint,
  lastResult,
  onSend,
}: {
  order: Position;
  live?: LiveOrder;
  unitsPerLot?: number;
  /** How the instrument's quote currency becomes USD (the money at its take profit and stop loss). */
  conversion?: Conversion | null;
  /** The instrument's minimum and step of lots (the close form's lots field); without it the form closes all. */
  lotRule?: LotRule;
  /** The page's one-time key: a partial close sent twice closes once. */
  actionKey: string;
  closeTo: string;
  /** The stops form's HTML constraints, from the loader (its schema comes after the page). */
  stopsConstraint: Constraint;
  /** Called the moment one of the popup's forms is sent (after its checks pass). */
  onSend: () => void;
  /** The action's answer to a form of this popup (kept values and the upstream's message). */
  lastResult?: SubmissionResult<string[]>;
}) {
  const { t } = useTranslation('orders');
  const locale = useLocale();
  const dialog = useDialog<HTMLElement>({ to: closeTo });
  const precision = order.instrument.digits;
  const price = (value: number) => (value > 0 ? formatPrice(value, precision, locale) : t('detail.notSet'));
  const buy = isBuy(order);
  const holding = order.status === OrderStatus.Holding;
  const pending = order.status === OrderStatus.Pending;
  const profit = live?.profit ?? order.profit;
  const current = live?.mark ?? order.mark;
  // A trailing stop as the live price has carried it (the upstream's rule, from the same mark).
  const stopLoss = shownStopLoss(order, live?.mark);
  const intent = lastResult?.initialValue?.intent;
  const resultFor = (name: string) =>
    intent === name && String(lastResult?.initialValue?.id) === String(order.id) ? lastResult : undefined;

  return (
    <div className="dialog-backdrop">
      <section
        ref={dialog}
        className="dialog order-detail"
        role="dialog"
        aria-modal="true"
        aria-labelledby="order-detail-title"
        tabIndex={-1}
      >
        <h2 id="order-detail-title">
          {order.instrument.symbol} <span className={`order-side ${buy ? 'buy' : 'sell'}`}>{buy ? t('side.buy') : t('side.sell')}</span>
        </h2>
        <p className="muted order-number">{t('detail.number', { id: order.id })}</p>
        <table className="order-facts">
          <caption className="visually-hidden">{t('detail.facts')}</caption>
          <tbody>
            <Fact label={t('detail.status')}>{t(statusKey(order.status))}</Fact>
            <Fact label={t('detail.lots')}>{formatLots(order.lots, locale)}</Fact>
            <Fact label={t('detail.unitPerLot')}>{unitsPerLot !== undefined ? formatInteger(unitsPerLot, locale) : '—'}</Fact>
            <Fact label={t('detail.multiple')}>{`1:${order.leverage}`}</Fact>
            <Fact label={t('detail.margin')}>{formatMargin(order.margin, locale)}</Fact>
            <Fact label={t('detail.fee')}>{formatMargin(order.fee, locale)}</Fact>
            <Fact label={pending ? t('detail.targetPrice') : t('detail.openPrice')} className="price">
              {formatPrice(order.price, precision, locale)}
            </Fact>
            {pending ? (
              <Fact label={t('detail.marketPrice')} className="price">
                {formatPrice(order.originPrice, precision, locale)}
              </Fact>
            ) : null}
            {order.status !== OrderStatus.Cancelled ? (
              <Fact label={order.status === OrderStatus.Closed ? t('detail.closePrice') : t('detail.currentPrice')} className="price">
                {formatPrice(current, precision, locale)}
              </Fact>
            ) : null}
            <Fact label={t('detail.takeProfit')} className="price">
              {price(order.takeProfit)}
            </Fact>
            <Fact label={t('detail.stopLoss')} className="price">
              {price(stopLoss)}
            </Fact>
            {order.trailDistance > 0 ? (
              <Fact label={t('trailing.label')}>
                {t('trailing.distance', { distance: formatPrice(order.trailDistance, precision, locale) })}
              </Fact>
            ) : null}
            <Fact label={holding ? t('detail.floatingProfit') : t('detail.profit')} className={`order-profit ${trendOf(profit)}`}>
              {formatProfit(profit, locale)}
            </Fact>
            <Fact label={t('detail.createdAt')}>
              <time dateTime={order.openedAt}>{formatDateTime(order.openedAt, locale)}</time>
            </Fact>
            {order.closedAt && !holding && !pending ? (
              <Fact label={order.status === OrderStatus.Cancelled ? t('detail.cancelledAt') : t('detail.closedAt')}>
                <time dateTime={order.closedAt}>{formatDateTime(order.closedAt, locale)}</time>
              </Fact>
            ) : null}
            {order.parentId ? <Fact label={t('detail.partOf')}>{`#${order.parentId}`}</Fact> : null}
            {order.status === OrderStatus.Closed && order.closeReason ? (
              <Fact label={t('detail.closeReason')}>{t(CLOSE_REASON_KEYS[order.closeReason] ?? 'closeReason.user')}</Fact>
            ) : null}
          </tbody>
        </table>
        {holding || pending ? (
          <StopsForm
            order={order}
            stopLoss={stopLoss}
            unitsPerLot={unitsPerLot}
            conversion={conversion}
            constraint={stopsConstraint}
            lastResult={resultFor('stops') ?? resultFor('stops-preview')}
            onSend={onSend}
          />
        ) : null}
        {holding ? (
          <CloseForm
            order={order}
            profit={profit}
            lotRule={lotRule}
            actionKey={actionKey}
            lastResult={resultFor('close') ?? resultFor('preview')}
            onSend={onSend}
          />
        ) : null}
        {pending ? <CancelForm order={order} lastResult={resultFor('cancel')} onSend={onSend} /> : null}
        <Link to={closeTo} className="button secondary block dialog-close" preventScrollReset>
          {t('detail.close')}
        </Link>
      </section>
    </div>
  );
}
