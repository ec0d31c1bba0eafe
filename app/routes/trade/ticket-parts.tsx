/**
 * The order ticket's parts beside its stops: the entry mode with the target price, the lots with their steppers,
 * the leverage, the estimates (drawn at the live price by ticket-live.tsx), why ordering is off now, and the buy and sell buttons. Without
 * JavaScript the steppers are GET buttons that re-render the page with the new lots.
 */
import { getInputProps, getSelectProps, useField, type useForm } from '@conform-to/react';
import { useContext, type ReactNode } from 'react';
import { useTranslation } from '~/i18n/react';
import { EntryMode, Side } from '#contract/enums';
import { money } from '#contract/money';
import { Field } from '~/components/field';
import { ErrorList, SubmitButton } from '~/components/form-parts';
import { formatMargin, formatPrice } from '~/utils/format';
import { useLocale } from '~/utils/locale';
import { canStepDown, formatLots, stepLots, type TicketInstrument } from './estimates';
import { OrderBlockContext, type OrderBlock } from './order-block';
import type { OrderRules } from './order-rules';
import type { OrderFormValues } from './schema';

type TicketFields = ReturnType<typeof useForm<OrderFormValues>>[1];

/** The parts of the ticket that follow whether orders can be placed now. */
export function WithBlock({ children }: { children: (block: OrderBlock) => ReactNode }) {
  return <>{children(useContext(OrderBlockContext))}</>;
}

/** Market price or pending at a target price. */
export function EntryModeFields({ fields }: { fields: TicketFields }) {
  const { t } = useTranslation('trade');
  return (
    <>
      <fieldset className="field entry-mode" aria-describedby={fields.entry.errors?.length ? fields.entry.errorId : undefined}>
        <legend>{t('order.entry')}</legend>
        <div className="choice-row">
          <label>
            <input {...getInputProps(fields.entry, { type: 'radio', value: String(EntryMode.Market) })} id={`${fields.entry.id}-market`} />
            {t('order.market')}
          </label>
          <label>
            <input
              {...getInputProps(fields.entry, { type: 'radio', value: String(EntryMode.Pending) })}
              id={`${fields.entry.id}-pending`}
            />
            {t('order.pending')}
          </label>
        </div>
        <ErrorList id={fields.entry.errorId} errors={fields.entry.errors} />
      </fieldset>
      {/* Always rendered, shown by CSS while "Pending" is chosen: the same with and without JavaScript, so
          hydration moves nothing on the screen (a market order ignores it). */}
      <div className="target-price">
        <Field
          meta={fields.target_price}
          label={t('order.targetPrice')}
          type="number"
          inputMode="decimal"
          placeholder={t('order.targetHint')}
        />
      </div>
    </>
  );
}

/**
 * The lots with "−" and "+" (in place with JavaScript) and the instrument's minimum and step under them. It reads
 * its own field, so a keystroke in the lots re-renders this and the live figures, not the whole ticket.
 */
export function LotsField({ formId, rules }: { formId: string; rules: OrderRules }) {
  const { t } = useTranslation('trade');
  const [lots, form] = useField<string>('lots', { formId });
  const lotsText = typeof lots.value === 'string' ? lots.value : undefined;
  // With JavaScript the GET buttons work in place; without it they re-render the page with new values.
  const onStep = (direction: 'up' | 'down') => (event: React.MouseEvent) => {
    event.preventDefault();
    form.update({ name: lots.name, value: stepLots(lotsText, rules, direction) });
  };
  return (
    <div className="lots-field">
      <Field meta={lots} label={t('order.lots')} type="number" inputMode="decimal">
        <button
          type="submit"
          formMethod="get"
          name="lots_step"
          value="down"
          className="button secondary stepper fewer"
          aria-label={t('order.fewerLots')}
          disabled={!canStepDown(lotsText, rules)}
          onClick={onStep('down')}
        >
          −
        </button>
        <button
          type="submit"
          formMethod="get"
          name="lots_step"
          value="up"
          className="button secondary stepper"
          aria-label={t('order.moreLots')}
          onClick={onStep('up')}
        >
          +
        </button>
      </Field>
      <p className="field-hint">{t('order.lotRules', { min: formatLots(rules.smallestMilli), step: formatLots(rules.stepMilli) })}</p>
    </div>
  );
}

/** The instrument's leverages; none listed, no field (and no orders: the block says why). */
export function LeverageField({ fields, leverages }: { fields: TicketFields; leverages: TicketInstrument['leverages'] }) {
  const { t } = useTranslation('trade');
  if (leverages.length === 0) return null;
  return (
    <div className="field">
      <label htmlFor={fields.leverage.id}>{t('order.leverage')}</label>
      <select {...getSelectProps(fields.leverage)} aria-describedby={fields.leverage.errors?.length ? fields.leverage.errorId : undefined}>
        {leverages.map((leverage) => (
          <option key={leverage} value={leverage}>
            1:{leverage}
          </option>
        ))}
      </select>
      <ErrorList id={fields.leverage.errorId} errors={fields.leverage.errors} />
    </div>
  );
}

/** The best price now, and the margin and fee the order would take at it (USD millionths; null: not known). */
export function TicketEstimates({
  price,
  precision,
  margin,
  fee,
}: {
  price: number;
  precision: number;
  margin: number | null;
  fee: number | null;
}) {
  const { t } = useTranslation('trade');
  const locale = useLocale();
  const usd = (micro: number | null) => (micro === null ? '—' : formatMargin(money.toNumber(micro), locale));
  return (
    <dl className="estimates">
      <div>
        <dt>{t('order.bestPrice')}</dt>
        <dd data-testid="best-price">{formatPrice(price, precision, locale)}</dd>
      </div>
      <div>
        <dt>{t('order.margin')}</dt>
        <dd data-testid="estimated-margin">
          {usd(margin)} <small>USD</small>
        </dd>
      </div>
      <div>
        <dt>{t('order.fee')}</dt>
        <dd data-testid="estimated-fee">
          {usd(fee)} <small>USD</small>
        </dd>
      </div>
    </dl>
  );
}

/** Why buy and sell are off now (a closed market, no leverage, prices not live yet or stale). */
export function BlockNotice() {
  const { t } = useTranslation('trade');
  const reason = (block: Exclude<OrderBlock, null>) =>
    ({ closed: t('marketClosed'), noLeverage: t('leverageMissing'), connecting: t('order.connecting'), stale: t('order.stale') })[block];
  return (
    <WithBlock>
      {(block) =>
        block === null ? null : (
          <p id="order-blocked" className="notice warn" role="status">
            {reason(block)}
          </p>
        )
      }
    </WithBlock>
  );
}

/** "Buy up" and "Buy low": each submits the ticket with its side. */
export function SideButtons({ submitting }: { submitting: boolean }) {
  const { t } = useTranslation('trade');
  return (
    <WithBlock>
      {(block) => (
        <div className="order-buttons">
          <SubmitButton className="button buy" name="side" value={String(Side.Buy)} disabled={block !== null || submitting}>
            {t('order.buyUp')}
          </SubmitButton>
          <SubmitButton className="button sell" name="side" value={String(Side.Sell)} disabled={block !== null || submitting}>
            {t('order.buyDown')}
          </SubmitButton>
        </div>
      )}
    </WithBlock>
  );
}
