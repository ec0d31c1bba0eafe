/**
 * The order ticket (spec §2 "Trade", §5 "Order"): one POST form with "Buy up" and "Buy down" submit
 * buttons. Without JavaScript the lot buttons and "Update estimates" re-render the page through a GET, so
 * the server shows the estimates for the values on screen; with JavaScript they change in place and the
 * estimates follow every keystroke and every price. Under the take profit and stop loss, the money made there and
 * the distance in pips. Unless one-tap trading is on, "Buy up" and "Buy low" open a confirmation first
 * (order-confirm.tsx), which sends the same form with the same one-time key.
 */
import { FormProvider, getFormProps, useForm, type SubmissionResult } from '@conform-to/react';
import { Form, Link, useNavigation } from '@remix-run/react';
import { memo, useMemo } from 'react';
import { useTranslation } from '~/i18n/react';
import { Side, type ChartPeriod } from '#contract/enums';
import { lateValidation, useCheckOnLeave, useLateSchemaCheck } from '~/components/late-checks';
import { CsrfInput, ErrorList, FormError } from '~/components/form-parts';
import { StopFields, stopMoneyIds } from '~/components/stop-fields';
import type { Conversion, TicketInstrument } from './estimates';
import { OrderConfirmSlot } from './order-confirm-slot';
import { orderConstraint, orderRulesOf } from './order-rules';
import type { OrderFormValues } from './schema';
import { LiveEstimates, LiveStopMoney, LiveSummary, SeenPrice, type TicketPricing } from './ticket-live';
import { BlockNotice, EntryModeFields, LeverageField, LotsField, SideButtons, WithBlock } from './ticket-parts';
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
  useCheckOnLeave(form, late?.check ?? null);

  // What the live parts share; they read the fields they show themselves (ticket-live.tsx), the form reads none.
  const ticket = useMemo<TicketPricing>(
    () => ({ formId: form.id, instrument, conversion, feeType, fallbackPrice, defaultEntry: defaults.entry }),
    [form.id, instrument, conversion, feeType, fallbackPrice, defaults.entry],
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

  const inPlace = (event: React.MouseEvent) => event.preventDefault();

  const submitting = navigation.state === 'submitting' && navigation.formMethod?.toUpperCase() === 'POST';

  return (
    <FormProvider context={form.context}>
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
        <SeenPrice ticket={ticket} />
        <FormError id={form.errorId} errors={form.errors} />
        {outcomeUnknown ? (
          <p className="form-hint">
            <Link to="/order?type=1">{t('order.checkOrders')}</Link>
          </p>
        ) : null}

        <EntryModeFields fields={fields} />
        <LotsField formId={form.id} rules={rules} />
        <LeverageField fields={fields} leverages={instrument.leverages} />
        <StopFields
          formId={form.id}
          fields={fields}
          words={{ namespace: 'trade', group: 'order' }}
          pairClassName="field-pair"
          type="number"
          money={<LiveStopMoney ticket={ticket} ids={stopIds} />}
        />
        <LiveEstimates ticket={ticket} />
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
        {asking === Side.Buy || asking === Side.Sell ? (
          <LiveSummary ticket={ticket} side={asking}>
            {(summary) => (
              <WithBlock>
                {(block) => <OrderConfirmSlot summary={summary} disabled={block !== null || submitting} onCancel={confirmation.cancel} />}
              </WithBlock>
            )}
          </LiveSummary>
        ) : null}
      </Form>
    </FormProvider>
  );
});
