/**
 * Take profit, stop loss and the trailing stop's distance of an open or pending order; empty or 0 removes one.
 * `stopLoss` is the stop as shown (a trailing one where the live price has carried it), so that saving does not pull
 * it back. Under take profit and stop loss, the money the order makes there (live with JavaScript; without it "Show
 * profit and loss" draws them for the prices typed, carried in the URL as `tp`, `sl` and `trail`).
 */
import { getFormProps, type SubmissionResult } from '@conform-to/react';
import { Form, useSearchParams } from '@remix-run/react';
import { useTranslation } from '~/i18n/react';
import type { Position } from '#contract/views';
import { CsrfInput, FormError, SubmitButton } from '~/components/form-parts';
import { useLateSchemaForm, type Constraint } from '~/components/late-checks';
import { StopFields, stopMoneyIds } from '~/components/stop-fields';
import type { Conversion } from '~/routes/trade/estimates';
import { loadSchemas, sentProps } from './popup-forms';
import { StopsMoney } from './stops-money';

/** A price as the input shows it: the instrument's decimals, empty when not set (0). */
const priceInput = (value: number, precision: number) => (value > 0 ? value.toFixed(precision) : '');

export function StopsForm({
  order,
  stopLoss,
  unitsPerLot,
  conversion,
  constraint,
  lastResult,
  onSend,
}: {
  order: Position;
  stopLoss: number;
  unitsPerLot?: number;
  conversion: Conversion | null;
  constraint: Constraint;
  lastResult?: SubmissionResult<string[]>;
  onSend: () => void;
}) {
  const { t } = useTranslation('orders');
  const [searchParams] = useSearchParams();
  const precision = order.instrument.digits;
  const [form, fields] = useLateSchemaForm(loadSchemas, (m) => m.StopsFormSchema, {
    id: `order-stops-${order.id}`,
    constraint,
    lastResult,
    defaultValue: {
      take_profit: searchParams.get('tp') ?? priceInput(order.takeProfit, precision),
      stop_loss: searchParams.get('sl') ?? priceInput(stopLoss, precision),
      trail_distance: searchParams.get('trail') ?? priceInput(order.trailDistance, precision),
    },
  });
  const text = (value: unknown) => (typeof value === 'string' ? value : undefined);
  return (
    <Form method="post" {...sentProps(getFormProps(form), onSend)} className="form stops-form" preventScrollReset>
      <CsrfInput />
      <input type="hidden" name="id" value={order.id} />
      <FormError id={form.errorId} errors={form.errors} />
      <StopFields
        formId={form.id}
        fields={fields}
        words={{ namespace: 'orders', group: 'detail' }}
        pairClassName="stops-fields"
        autoComplete="off"
        money={
          <StopsMoney
            ids={stopMoneyIds(form.id)}
            order={order}
            unitsPerLot={unitsPerLot}
            conversion={conversion}
            takeProfit={text(fields.take_profit.value)}
            stopLoss={text(fields.stop_loss.value)}
          />
        }
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
