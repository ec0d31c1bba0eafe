/**
 * "Close position" with the lots to close (all by default; min, step and max = held) and what they realise at the
 * current price: computed on the server for the lots in the URL (`cont`, set by "Show amount" without JavaScript)
 * and live as the lots change with it.
 */
import { getFormProps, getInputProps, useForm, type SubmissionResult } from '@conform-to/react';
import { Form, useSearchParams } from '@remix-run/react';
import { useState } from 'react';
import { useTranslation } from '~/i18n/react';
import type { Position } from '#contract/views';
import { CsrfInput, ErrorList, FormError, SubmitButton } from '~/components/form-parts';
import { lateValidation, useLateSchemaCheck } from '~/components/late-checks';
import { formatLots, formatProfit, trendOf } from '~/utils/format';
import { useLocale } from '~/utils/locale';
import { realisedByLots } from './close-lots';
import type { LotRule } from './queries.server';
import { loadSchemas, sentProps } from './popup-forms';

export function CloseForm({
  order,
  profit,
  lotRule,
  actionKey,
  lastResult,
  onSend,
}: {
  order: Position;
  profit: number;
  lotRule?: LotRule;
  actionKey: string;
  lastResult?: SubmissionResult<string[]>;
  onSend: () => void;
}) {
  const { t } = useTranslation('orders');
  const locale = useLocale();
  const [searchParams] = useSearchParams();
  const held = String(order.lots);
  const sentLots = lastResult?.initialValue?.cont;
  const initial = typeof sentLots === 'string' ? sentLots : (searchParams.get('cont') ?? held);
  const [lotsText, setLotsText] = useState(initial);
  const late = useLateSchemaCheck(loadSchemas, (m) => m.CloseFormSchema);
  const [form, fields] = useForm({
    id: `order-close-${order.id}`,
    lastResult,
    defaultValue: { cont: initial },
    ...lateValidation(late?.check),
    shouldValidate: 'onSubmit',
  });
  const realised = realisedByLots(profit, lotsText, order.lots);
  const lotsError = fields.cont.errors?.length ? fields.cont.errorId : undefined;
  return (
    <Form method="post" {...sentProps(getFormProps(form), onSend)} className="form order-command close-form" preventScrollReset>
      <CsrfInput />
      <input type="hidden" name="id" value={order.id} />
      <input type="hidden" name="idempotency_key" value={actionKey} />
      <FormError id={form.errorId} errors={form.errors} />
      {lotRule ? (
        <div className="field">
          <label htmlFor={fields.cont.id}>{t('detail.closeLots')}</label>
          <input
            {...getInputProps(fields.cont, { type: 'number', ariaAttributes: true })}
            aria-describedby={[lotsError, `${fields.cont.id}-hint`].filter(Boolean).join(' ')}
            min={lotRule.min}
            max={order.lots}
            step={lotRule.step}
            inputMode="decimal"
            autoComplete="off"
            onChange={(e) => setLotsText(e.currentTarget.value)}
          />
          <p id={`${fields.cont.id}-hint`} className="muted">
            {t('detail.closeLotsHint', { min: formatLots(lotRule.min, locale), max: formatLots(order.lots, locale) })}
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
