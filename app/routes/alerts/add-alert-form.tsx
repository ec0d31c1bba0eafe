/**
 * The add form: the product (from the trade screen's link, or chosen here with a GET form), the price
 * prefilled with the current one, and the direction preselected by whether the typed price is above or
 * below the current price: by the server without JavaScript (from `?price=`, or at the post when none is
 * chosen), live as the trader types with it.
 */
import { getFormProps, getInputProps, type SubmissionResult } from '@conform-to/react';
import { Form, useSubmit } from '@remix-run/react';
import { useState } from 'react';
import { useTranslation } from '~/i18n/react';
import { ALERT_NOTE_MAX } from '#contract/alert-rules';
import { Field } from '~/components/field';
import { useLateSchemaForm, type Constraint } from '~/components/late-checks';
import { CsrfInput, ErrorList, FormError, SubmitButton } from '~/components/form-parts';
import { useLiveQuote } from '~/live/state';
import { formatPrice } from '~/utils/format';
import { useLocale } from '~/utils/locale';
import type { AlertInstrument } from './queries.server';
import { sideFor, type AlertSide } from './side';

/** The form's checks come after the page, with zod (decision 0028); until then the action checks every post. */
const loadSchemas = () => import('./schema');

export function AddAlertForm({
  instrument,
  instruments,
  price,
  constraint,
  lastResult,
}: {
  instrument: AlertInstrument;
  instruments: { code: string; symbol: string }[];
  price: string;
  /** The form's HTML constraints, from the loader. */
  constraint: Constraint;
  lastResult?: SubmissionResult<string[]> | null;
}) {
  const { t } = useTranslation('alerts');
  const locale = useLocale();
  const submit = useSubmit();
  const { digits } = instrument;
  const current = useLiveQuote(instrument.id)?.price ?? instrument.quote.price;
  const [form, fields] = useLateSchemaForm(loadSchemas, (m) => m.addAlertSchema(digits), {
    id: `alert-${instrument.code}`,
    constraint,
    lastResult,
    defaultValue: { price },
  });
  const typed = String(fields.price.initialValue ?? price);
  const chosen = fields.direction.initialValue;
  const [side, setSide] = useState<AlertSide | null>(
    chosen === 'above' || chosen === 'below' ? chosen : sideFor(typed, instrument.quote.price, digits),
  );
  const directionError = fields.direction.errors?.length ? fields.direction.errorId : undefined;
  return (
    <section className="funds-card" aria-labelledby="alert-add">
      <h2 id="alert-add">{t('add')}</h2>
      <Form method="get" action="/alerts">
        <div className="field">
          <label htmlFor="alert-product">{t('product')}</label>
          <div className="field-row">
            <select
              id="alert-product"
              name="code"
              defaultValue={instrument.code}
              onChange={(e) => submit(e.currentTarget.form, { replace: true, preventScrollReset: true })}
            >
              {instruments.map((i) => (
                <option key={i.code} value={i.code}>
                  {i.symbol}
                </option>
              ))}
            </select>
            <button type="submit" className="button secondary small">
              {t('show')}
            </button>
          </div>
        </div>
      </Form>
      <p className="available">{t('currentPrice', { symbol: instrument.symbol, price: formatPrice(current, digits, locale) })}</p>
      <Form method="post" {...getFormProps(form)} className="form">
        <CsrfInput />
        <input type="hidden" name="intent" value="add" />
        <input type="hidden" name="code" value={instrument.code} />
        <FormError id={form.errorId} errors={form.errors} />
        <div
          onInput={(e) => {
            const next = sideFor((e.target as HTMLInputElement).value, current, digits);
            if (next) setSide(next);
          }}
        >
          <Field meta={fields.price} label={t('price')} inputMode="decimal" autoComplete="off" />
        </div>
        <fieldset className="field" aria-describedby={directionError}>
          <legend>{t('direction')}</legend>
          <div className="chips">
            {(['above', 'below'] as const).map((d) => (
              <label key={d} className="chip">
                <input
                  type="radio"
                  name={fields.direction.name}
                  value={d}
                  checked={side === d}
                  onChange={() => setSide(d)}
                  aria-invalid={directionError ? true : undefined}
                />{' '}
                {t(d === 'above' ? 'above' : 'below')}
              </label>
            ))}
          </div>
          <ErrorList id={directionError} errors={fields.direction.errors} />
        </fieldset>
        <div className="field">
          <label htmlFor={fields.note.id}>{t('note')}</label>
          <input
            {...getInputProps(fields.note, { type: 'text', ariaAttributes: true })}
            maxLength={ALERT_NOTE_MAX}
            autoComplete="off"
            aria-describedby={fields.note.errors?.length ? fields.note.errorId : undefined}
          />
          <ErrorList id={fields.note.errorId} errors={fields.note.errors} />
        </div>
        <SubmitButton>{t('submit')}</SubmitButton>
      </Form>
    </section>
  );
}
