/**
 * The detail popup of one order (`?detail=ID`): every figure in the trader's words, and for an open order
 * the take-profit / stop-loss form and "Close position" or "Cancel order". Rendered by the server, so it
 * works without JavaScript; its "Close" is a link back to the list.
 */
import { getFormProps, getInputProps, useForm, type SubmissionResult } from '@conform-to/react';
import { Form, Link, useSearchParams } from '@remix-run/react';
import { useState } from 'react';
import { useTranslation } from '~/i18n/react';
import type { Order } from '#contract/calls/trade';
import { CloseReason, OrderStatus } from '#contract/enums';
import { Field } from '~/components/field';
import { lateValidation, useLateSchemaCheck, useLateSchemaForm, type Constraint } from '~/components/late-checks';
import { CsrfInput, ErrorList, FormError, SubmitButton } from '~/components/form-parts';
import { useDialog } from '~/components/use-dialog';
import { formatInteger, formatLots, formatMargin, formatPrice, formatProfit, trendOf } from '~/utils/format';
import { formatDateTime } from '~/utils/format-date';
import { useLocale } from '~/utils/locale';
import { isBuy, statusKey, type LiveOrder } from './order-list';
import { realisedByLots } from './close-lots';
import type { LotRule } from './queries.server';
import { StopsMoney } from './stops-money';
import type { Conversion } from '~/routes/trade/estimates';
import { shownStopLoss } from './trailing';

/** The forms' checks come after the page, with zod (decision 0028); the action checks every post. */
const loadSchemas = () => import('./schema');

const CLOSE_REASON_KEYS: Record<number, string> = {
  [CloseReason.User]: 'closeReason.user',
  [CloseReason.StopOut]: 'closeReason.stopOut',
  [CloseReason.TakeProfit]: 'closeReason.takeProfit',
  [CloseReason.StopLoss]: 'closeReason.stopLoss',
  [CloseReason.Admin]: 'closeReason.admin',
};

/** A price as the input shows it: the instrument's decimals, empty when not set (0). */
const priceInput = (value: number, precision: number) => (value > 0 ? value.toFixed(precision) : '');

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
  order: Order;
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
  const precision = order.ForexTradeLists.PricePrecision;
  const price = (value: number) => (value > 0 ? formatPrice(value, precision, locale) : t('detail.notSet'));
  const buy = isBuy(order);
  const holding = order.Status === OrderStatus.Holding;
  const pending = order.Status === OrderStatus.Pending;
  const profit = live?.profit ?? order.FactProfits;
  const current = live?.mark ?? order.UpdatePrice;
  // A trailing stop as the live price has carried it (the upstream's rule, from the same mark).
  const stopLoss = shownStopLoss(order, live?.mark);
  const intent = lastResult?.initialValue?.intent;
  const resultFor = (name: string) =>
    intent === name && String(lastResult?.initialValue?.id) === String(order.Id) ? lastResult : undefined;

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
          {order.ForexTradeLists.ShowCode}{' '}
          <span className={`order-side ${buy ? 'buy' : 'sell'}`}>{buy ? t('side.buy') : t('side.sell')}</span>
        </h2>
        <p className="muted order-number">{t('detail.number', { id: order.Id })}</p>
        <table className="order-facts">
          <caption className="visually-hidden">{t('detail.facts')}</caption>
          <tbody>
            <Fact label={t('detail.status')}>{t(statusKey(order.Status))}</Fact>
            <Fact label={t('detail.lots')}>{formatLots(order.Quantity, locale)}</Fact>
            <Fact label={t('detail.unitPerLot')}>{unitsPerLot !== undefined ? formatInteger(unitsPerLot, locale) : '—'}</Fact>
            <Fact label={t('detail.multiple')}>{`1:${order.Multiple}`}</Fact>
            <Fact label={t('detail.margin')}>{formatMargin(order.CautionMoney, locale)}</Fact>
            <Fact label={t('detail.fee')}>{formatMargin(order.TradeFee, locale)}</Fact>
            <Fact label={pending ? t('detail.targetPrice') : t('detail.openPrice')} className="price">
              {formatPrice(order.Price, precision, locale)}
            </Fact>
            {pending ? (
              <Fact label={t('detail.marketPrice')} className="price">
                {formatPrice(order.OriginPrice, precision, locale)}
              </Fact>
            ) : null}
            {order.Status !== OrderStatus.Cancelled ? (
              <Fact label={order.Status === OrderStatus.Closed ? t('detail.closePrice') : t('detail.currentPrice')} className="price">
                {formatPrice(current, precision, locale)}
              </Fact>
            ) : null}
            <Fact label={t('detail.takeProfit')} className="price">
              {price(order.TargetProfitPrice)}
            </Fact>
            <Fact label={t('detail.stopLoss')} className="price">
              {price(stopLoss)}
            </Fact>
            {order.TrailDistance > 0 ? (
              <Fact label={t('trailing.label')}>
                {t('trailing.distance', { distance: formatPrice(order.TrailDistance, precision, locale) })}
              </Fact>
            ) : null}
            <Fact label={holding ? t('detail.floatingProfit') : t('detail.profit')} className={`order-profit ${trendOf(profit)}`}>
              {formatProfit(profit, locale)}
            </Fact>
            <Fact label={t('detail.createdAt')}>
              <time dateTime={order.CreateTimeHandler}>{formatDateTime(order.CreateTimeHandler, locale)}</time>
            </Fact>
            {order.CompleteTimeHandler && !holding && !pending ? (
              <Fact label={order.Status === OrderStatus.Cancelled ? t('detail.cancelledAt') : t('detail.closedAt')}>
                <time dateTime={order.CompleteTimeHandler}>{formatDateTime(order.CompleteTimeHandler, locale)}</time>
              </Fact>
            ) : null}
            {order.ParentId ? <Fact label={t('detail.partOf')}>{`#${order.ParentId}`}</Fact> : null}
            {order.Status === OrderStatus.Closed && order.CloseReason ? (
              <Fact label={t('detail.closeReason')}>{t(CLOSE_REASON_KEYS[order.CloseReason] ?? 'closeReason.user')}</Fact>
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
        {pending ? <OrderCommand order={order} intent="cancel" lastResult={resultFor('cancel')} onSend={onSend} /> : null}
        <Link to={closeTo} className="button secondary block dialog-close" preventScrollReset>
          {t('detail.close')}
        </Link>
      </section>
    </div>
  );
}

/**
 * The form's props with `onSend` told when the form really goes out: Remix sends it right after this
 * handler unless the checks prevented it. This is synchronous, unlike the navigation state React renders later.
 */
function sentProps<P extends { onSubmit: (event: React.FormEvent<HTMLFormElement>) => void }>(props: P, onSend: () => void): P {
  return {
    ...props,
    onSubmit: (event: React.FormEvent<HTMLFormElement>) => {
      props.onSubmit(event);
      if (!event.defaultPrevented) onSend();
    },
  };
}

/**
 * Take profit, stop loss and the trailing stop's distance; empty or 0 removes one. `stopLoss` is the stop as shown
 * (a trailing one where the live price has carried it), so that saving does not pull it back. Under take profit and
 * stop loss, the money the order makes there (live with JavaScript; without it "Show profit and loss" draws them for
 * the prices typed, carried in the URL as `tp`, `sl` and `trail`).
 */
function StopsForm({
  order,
  stopLoss,
  unitsPerLot,
  conversion,
  constraint,
  lastResult,
  onSend,
}: {
  order: Order;
  stopLoss: number;
  unitsPerLot?: number;
  conversion: Conversion | null;
  constraint: Constraint;
  lastResult?: SubmissionResult<string[]>;
  onSend: () => void;
}) {
  const { t } = useTranslation('orders');
  const [searchParams] = useSearchParams();
  const precision = order.ForexTradeLists.PricePrecision;
  const [form, fields] = useLateSchemaForm(loadSchemas, (m) => m.StopsFormSchema, {
    id: `order-stops-${order.Id}`,
    constraint,
    lastResult,
    defaultValue: {
      take_profit: searchParams.get('tp') ?? priceInput(order.TargetProfitPrice, precision),
      stop_loss: searchParams.get('sl') ?? priceInput(stopLoss, precision),
      trail_distance: searchParams.get('trail') ?? priceInput(order.TrailDistance, precision),
    },
  });
  const text = (value: unknown) => (typeof value === 'string' ? value : undefined);
  const moneyIds = { takeProfit: `${form.id}-take-profit-money`, stopLoss: `${form.id}-stop-loss-money` };
  return (
    <Form method="post" {...sentProps(getFormProps(form), onSend)} className="form stops-form" preventScrollReset>
      <CsrfInput />
      <input type="hidden" name="id" value={order.Id} />
      <FormError id={form.errorId} errors={form.errors} />
      <div className="stops-fields">
        <Field
          meta={fields.take_profit}
          label={t('detail.takeProfit')}
          inputMode="decimal"
          autoComplete="off"
          placeholder={t('detail.notSet')}
          describedBy={moneyIds.takeProfit}
        />
        <Field
          meta={fields.stop_loss}
          label={t('detail.stopLoss')}
          inputMode="decimal"
          autoComplete="off"
          placeholder={t('detail.notSet')}
          describedBy={moneyIds.stopLoss}
        />
      </div>
      <StopsMoney
        ids={moneyIds}
        order={order}
        unitsPerLot={unitsPerLot}
        conversion={conversion}
        takeProfit={text(fields.take_profit.value)}
        stopLoss={text(fields.stop_loss.value)}
      />
      <Field
        meta={fields.trail_distance}
        label={t('trailing.label')}
        inputMode="decimal"
        autoComplete="off"
        placeholder={t('trailing.off')}
        hint={t('trailing.hint')}
      />
      <p className="muted stops-hint">{t('detail.stopsHint')}</p>
      <SubmitButton name="intent" value="stops" className="button secondary block">
        {t('detail.saveStops')}
      </SubmitButton>
      {/* With JavaScript the amounts follow the fields; without it this (after Save, so Enter still saves) draws them for the prices typed. */}
      <noscript>
        <button type="submit" name="intent" value="stops-preview" className="button secondary block">
          {t('detail.showStopsMoney')}
        </button>
      </noscript>
    </Form>
  );
}

/**
 * "Close position" with the lots to close (all by default; min, step and max = held) and what they realise at
 * the current price: computed on the server for the lots in the URL (`cont`, set by "Show amount" without
 * JavaScript) and live as the lots change with it.
 */
function CloseForm({
  order,
  profit,
  lotRule,
  actionKey,
  lastResult,
  onSend,
}: {
  order: Order;
  profit: number;
  lotRule?: LotRule;
  actionKey: string;
  lastResult?: SubmissionResult<string[]>;
  onSend: () => void;
}) {
  const { t } = useTranslation('orders');
  const locale = useLocale();
  const [searchParams] = useSearchParams();
  const held = String(order.Quantity);
  const sentLots = lastResult?.initialValue?.cont;
  const initial = typeof sentLots === 'string' ? sentLots : (searchParams.get('cont') ?? held);
  const [lotsText, setLotsText] = useState(initial);
  const late = useLateSchemaCheck(loadSchemas, (m) => m.CloseFormSchema);
  const [form, fields] = useForm({
    id: `order-close-${order.Id}`,
    lastResult,
    defaultValue: { cont: initial },
    ...lateValidation(late?.check),
    shouldValidate: 'onSubmit',
  });
  const realised = realisedByLots(profit, lotsText, order.Quantity);
  const lotsError = fields.cont.errors?.length ? fields.cont.errorId : undefined;
  return (
    <Form method="post" {...sentProps(getFormProps(form), onSend)} className="form order-command close-form" preventScrollReset>
      <CsrfInput />
      <input type="hidden" name="id" value={order.Id} />
      <input type="hidden" name="idempotency_key" value={actionKey} />
      <FormError id={form.errorId} errors={form.errors} />
      {lotRule ? (
        <div className="field">
          <label htmlFor={fields.cont.id}>{t('detail.closeLots')}</label>
          <input
            {...getInputProps(fields.cont, { type: 'number', ariaAttributes: true })}
            aria-describedby={[lotsError, `${fields.cont.id}-hint`].filter(Boolean).join(' ')}
            min={lotRule.min}
            max={order.Quantity}
            step={lotRule.step}
            inputMode="decimal"
            autoComplete="off"
            onChange={(e) => setLotsText(e.currentTarget.value)}
          />
          <p id={`${fields.cont.id}-hint`} className="muted">
            {t('detail.closeLotsHint', { min: formatLots(lotRule.min, locale), max: formatLots(order.Quantity, locale) })}
          </p>
          <ErrorList id={lotsError} errors={fields.cont.errors} />
        </div>
      ) : null}
      <p className="close-estimate" aria-live="polite">
        {realised !== null ? (
          <>
            {t('detail.realises')}{' '}
            <strong className={`order-profit ${trendOf(realised)}`} data-testid="close-estimate">
              {formatProfit(realised, locale)}
            </strong>
          </>
        ) : null}
      </p>
      {lotRule ? (
        <SubmitButton name="intent" value="preview" className="button secondary block">
          {t('detail.showAmount')}
        </SubmitButton>
      ) : null}
      <SubmitButton name="intent" value="close" className="button danger block">
        {t('detail.closePosition')}
      </SubmitButton>
    </Form>
  );
}

/** "Cancel order" on a pending order: one button, the upstream's refusal above it. */
function OrderCommand({
  order,
  intent,
  lastResult,
  onSend,
}: {
  order: Order;
  intent: 'cancel';
  lastResult?: SubmissionResult<string[]>;
  onSend: () => void;
}) {
  const { t } = useTranslation('orders');
  const late = useLateSchemaCheck(loadSchemas, (m) => m.CancelFormSchema);
  const [form] = useForm({
    id: `order-${intent}-${order.Id}`,
    lastResult,
    ...lateValidation(late?.check),
    shouldValidate: 'onSubmit',
  });
  return (
    <Form method="post" {...sentProps(getFormProps(form), onSend)} className="form order-command" preventScrollReset>
      <CsrfInput />
      <input type="hidden" name="id" value={order.Id} />
      <FormError id={form.errorId} errors={form.errors} />
      <SubmitButton name="intent" value={intent} className="button danger block">
        {t('detail.cancelOrder')}
      </SubmitButton>
    </Form>
  );
}
