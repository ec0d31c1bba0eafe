/**
 * The order ticket (spec §2 "Trade", §5 "Order"): one POST form with "Buy up" and "Buy down" submit
 * buttons. Without JavaScript the lot buttons and "Update estimates" re-render the page through a GET, so
 * the server shows the estimates for the values on screen; with JavaScript they change in place and the
 * estimates follow every keystroke and every price. Under the take profit and stop loss, the money made there and
 * the distance in pips. Unless one-tap trading is on, "Buy up" and "Buy low" open a confirmation first
 * (order-confirm.tsx), which sends the same form with the same one-time key.
 */
import { getFormProps, useForm, type SubmissionResult } from '@conform-to/react';
import { Form, Link, useNavigation } from '@remix-run/react';
import { memo, useMemo, type ReactNode } from 'react';
import { useTranslation } from '~/i18n/react';
import { EntryMode, Side, type ChartPeriod } from '#contract/enums';
import { parseUnits } from '#contract/money';
import { lateValidation, useLateSchemaCheck } from '~/components/late-checks';
import { CsrfInput, ErrorList, FormError } from '~/components/form-parts';
import { StopFields, stopMoneyIds } from '~/components/stop-fields';
import { useLiveQuote } from '~/live/state';
import { estimateOrder, priceUnits, stepLots, type Conversion, type TicketInstrument } from './estimates';
import { OrderConfirmSlot } from './order-confirm-slot';
import { orderConstraint, orderRulesOf } from './order-rules';
import type { OrderFormValues } from './schema';
import { TicketStopMoney, ticketStopMoney, type TicketStopsInput } from './ticket-stop-money';
import { BlockNotice, EntryModeFields, LeverageField, LotsField, SideButtons, TicketEstimates, WithBlock } from './ticket-parts';
import { DEFAULT_PERIOD, tradeUrl } from './trade-url';
import { useConfirmation } from './use-confirmation';

export interface TicketDefaults {
  lots: string;
  leverage: string;
  entry: string;
  target_price: string;
  take_profit: string;
  stop_loss: string;
  trail_distance: string;
}

const loadSchemas = () => import('./schema');

/** The prices a tick changes: the instrument's, and the one that converts its money to USD. */
interface Pricing {
  price: number;
  conversionPrice: number | undefined;
}

/**
 * The parts of the ticket that follow the price. A tick re-renders these alone, not the form around them:
 * conform's form and its dozen fields cost a weak phone about 10 ms a tick.
 */
function AtLivePrice({
  instrument,
  conversion,
  fallback,
  children,
}: {
  instrument: TicketInstrument;
  conversion: Conversion | null;
  /** The loader's price, until the stream brings one. */
  fallback: number;
  children: (pricing: Pricing) => ReactNode;
}) {
  const price = useLiveQuote(instrument.id)?.price ?? fallback;
  const conversionPrice = useLiveQuote(conversion?.viaId)?.price;
  return <>{children({ price, conversionPrice: conversion?.viaId ? conversionPrice : undefined })}</>;
}

/** Memoised: the trade page re-renders on every tick of its instrument, the ticket's fields need not. */
export const OrderForm = /* @__PURE__ */ memo(function OrderForm({
  instrument,
  period,
  fallbackPrice,
  conversion,
  feeType,
  defaults,
  idempotencyKey,
  lastResult,
  outcomeUnknown = false,
  askFirst,
  confirmSide,
  oneTap,
}: {
  instrument: TicketInstrument;
  period: ChartPeriod;
  /** The loader's price: the ticket follows the live one once the stream is up. */
  fallbackPrice: number;
  conversion: Conversion | null;
  feeType: number | null;
  defaults: TicketDefaults;
  idempotencyKey: string;
  lastResult: SubmissionResult<string[]> | undefined;
  /** The last order got no answer: it may exist, and the orders list will show it. */
  outcomeUnknown?: boolean;
  /** Buy and sell open a confirmation first (one-tap trading off, signed in). */
  askFirst: boolean;
  /** The confirmation page asks about this side (an unconfirmed order without JavaScript). */
  confirmSide: number | null;
  /** One-tap trading is on for this device: the ticket says so. */
  oneTap: boolean;
}) {
  const { t } = useTranslation('trade');
  const navigation = useNavigation();
  const rules = useMemo(() => orderRulesOf(instrument), [instrument]);
  const constraint = useMemo(() => orderConstraint(rules), [rules]);
  // The checks (zod) load once the page is up; until then the ticket posts as it is and the action checks it.
  const late = useLateSchemaCheck(loadSchemas, (m) => m.orderSchemaFor(instrument.id, rules));
  const validation = lateValidation<OrderFormValues>(late?.check);
  const [form, fields] = useForm<OrderFormValues>({
    id: `order-${instrument.code}`,
    lastResult,
    defaultValue: defaults,
    constraint,
    ...validation,
  });

  // A posted form may carry a field twice or as name[0]: what comes back is then no text, and no estimate.
  const text = (value: unknown) => (typeof value === 'string' ? value : undefined);
  const pending = (text(fields.entry.value) ?? defaults.entry) === String(EntryMode.Pending);
  const lotsText = text(fields.lots.value);
  /** What the fields as typed come to at these prices: the open price, the estimates, the stops' money. */
  const computeAtPrices = ({ price, conversionPrice }: Pricing) => {
    const openPrice = pending ? parseUnits(text(fields.target_price.value) ?? '', instrument.digits) : priceUnits(price, instrument.digits);
    const reference = openPrice !== null && openPrice > 0 ? openPrice : null;
    const estimate = estimateOrder({
      instrument,
      feeType,
      lots: lotsText,
      leverage: text(fields.leverage.value),
      price: reference,
      conversion,
      conversionPrice,
    });
    const stopsInput: TicketStopsInput = {
      instrument,
      lots: lotsText,
      reference,
      conversion,
      conversionPrice,
      takeProfit: text(fields.take_profit.value),
      stopLoss: text(fields.stop_loss.value),
    };
    return { price, openPrice, estimate, stopsInput };
  };
  // The ticket's live parts (three; four with the confirmation) each follow the price on their own: a tick works
  // the figures out once for all of them. Kept per render of the form, since they depend on its fields.
  let last: (Pricing & { at: ReturnType<typeof computeAtPrices> }) | null = null;
  const atPrices = (pricing: Pricing) => {
    if (last?.price !== pricing.price || last.conversionPrice !== pricing.conversionPrice)
      last = { ...pricing, at: computeAtPrices(pricing) };
    return last.at;
  };
  const live = (render: (at: ReturnType<typeof atPrices>) => ReactNode) => (
    <AtLivePrice instrument={instrument} conversion={conversion} fallback={fallbackPrice}>
      {(pricing) => render(atPrices(pricing))}
    </AtLivePrice>
  );
  const stopIds = stopMoneyIds(form.id);

  // The confirmation: opened in place by buy or sell (with JavaScript), or by the action's answer.
  const confirmation = useConfirmation({
    askFirst,
    confirmSide,
    isValid: (formData) => validation.onValidate({ formData }).status === 'success',
  });
  const asking = confirmation.asking;
  const formProps = getFormProps(form);
  const onSubmit = (event: React.FormEvent<HTMLFormElement>) => {
    if (!confirmation.holdToConfirm(event)) formProps.onSubmit(event);
  };

  // With JavaScript the GET buttons work in place; without it they re-render the page with new values.
  const stepTo = (direction: 'up' | 'down') => (event: React.MouseEvent) => {
    event.preventDefault();
    form.update({ name: fields.lots.name, value: stepLots(lotsText, rules, direction) });
  };
  const inPlace = (event: React.MouseEvent) => event.preventDefault();

  const submitting = navigation.state === 'submitting' && navigation.formMethod?.toUpperCase() === 'POST';

  return (
    <Form
      method="post"
      action={tradeUrl(instrument.code, period)}
      {...formProps}
      onSubmit={onSubmit}
      className="form order-form"
      aria-label={t('order.label')}
      // The ticket's own code is here (not the server's markup kept until it comes: route.tsx), and "checked" once
      // its checks are too (until then an order with absurd lots asks to be confirmed, and the action refuses it):
      // what a test waits for.
      data-live={import.meta.env.SSR ? undefined : late ? 'checked' : ''}
    >
      {/* The first submit button is the one Enter presses: it only recalculates, it never places an order. */}
      <button
        type="submit"
        formMethod="get"
        name="recalc"
        value="1"
        className="visually-hidden"
        tabIndex={-1}
        aria-hidden="true"
        onClick={inPlace}
      >
        {t('order.recalculate')}
      </button>
      <CsrfInput />
      {/* The upstream call's own name for the instrument: the action reads it as such (schema.ts). */}
      <input type="hidden" name="forex_id" value={instrument.id} />
      <input type="hidden" name="code" value={instrument.code} />
      {period !== DEFAULT_PERIOD ? <input type="hidden" name="period" value={period} /> : null}
      <input type="hidden" name="idempotency_key" value={idempotencyKey} />
      {live(({ price }) => (
        <input type="hidden" name="seen_price" value={price.toFixed(instrument.digits)} />
      ))}
      <FormError id={form.errorId} errors={form.errors} />
      {outcomeUnknown ? (
        <p className="form-hint">
          <Link to="/order?type=1">{t('order.checkOrders')}</Link>
        </p>
      ) : null}

      <EntryModeFields fields={fields} />
      <LotsField fields={fields} lotsText={lotsText} rules={rules} onStep={stepTo} />
      <LeverageField fields={fields} leverages={instrument.leverages} />
      <StopFields
        formId={form.id}
        fields={fields}
        words={{ namespace: 'trade', group: 'order' }}
        pairClassName="field-pair"
        type="number"
        money={live(({ stopsInput }) => (
          <TicketStopMoney ids={stopIds} {...stopsInput} />
        ))}
      />
      {live(({ price, estimate }) => (
        <TicketEstimates price={price} precision={instrument.digits} margin={estimate.margin} fee={estimate.fee} />
      ))}
      {/* With JavaScript the estimates follow the fields; a browser that runs it never lays this out, so
          hydration does not move the order buttons. */}
      <noscript>
        <button type="submit" formMethod="get" name="recalc" value="1" className="button secondary block">
          {t('order.recalculate')}
        </button>
      </noscript>

      <BlockNotice />
      {oneTap ? (
        <p className="one-tap-on" data-testid="one-tap-on">
          {t('oneTap.on')} <Link to="/mine/system">{t('oneTap.settings')}</Link>
        </p>
      ) : null}
      <SideButtons submitting={submitting} />
      <ErrorList id={fields.side.errorId} errors={fields.side.errors} />
      {asking === Side.Buy || asking === Side.Sell
        ? live(({ price, openPrice, estimate, stopsInput }) => (
            <WithBlock>
              {(block) => (
                <OrderConfirmSlot
                  summary={{
                    side: asking,
                    instrument,
                    lots: lotsText ?? '',
                    leverage: text(fields.leverage.value) ?? '',
                    pending,
                    price: pending ? (openPrice !== null ? openPrice / 10 ** instrument.digits : null) : price,
                    takeProfit: stopsInput.takeProfit ?? '',
                    stopLoss: stopsInput.stopLoss ?? '',
                    trail: text(fields.trail_distance.value) ?? '',
                    stops: ticketStopMoney({ ...stopsInput, side: asking }),
                    margin: estimate.margin,
                    fee: estimate.fee,
                  }}
                  disabled={block !== null || submitting}
                  onCancel={confirmation.cancel}
                />
              )}
            </WithBlock>
          ))
        : null}
    </Form>
  );
});
