/**
 * The withdrawal: a currency, a bound address or account to receive it, the amount with the fee and the amount
 * received (live with JavaScript, by "Calculate" without it: the same contract arithmetic), a memo, and the notes.
 * No method bound: a link asks to bind one first.
 */
import { getFormProps, type SubmissionResult } from '@conform-to/react';
import { Form, Link } from '@remix-run/react';
import { useState } from 'react';
import { useTranslation } from '~/i18n/react';
import { WITHDRAW_VOLUME_PERCENT } from '#contract/arithmetic';
import { WithdrawType } from '#contract/enums';
import { Field } from '~/components/field';
import { CsrfInput, ErrorList, FormError, SubmitButton } from '~/components/form-parts';
import { useLateSchemaForm, type Constraint } from '~/components/late-checks';
import { maskedAccount, shortAddress } from '~/components/withdraw-method-list';
import type { WithdrawCurrency, WithdrawMethod } from '~/upstream/funds.server';
import { formatMoney } from '~/utils/format';
import { formatMoment } from '~/utils/format-date';
import { KeptGrantInput } from '~/components/step-up-finish';
import { useLocale } from '~/utils/locale';
import { quoteWithdrawal } from './quote';
import { withdrawUrl, type TypedWithdrawal } from './withdraw-url';

/** The form's checks come after the page, with zod (decision 0028); until then the action checks every post. */
const loadSchemas = () => import('./schema');

/** The bound methods that can receive a currency: a coin address of its network, or any bank account. */
function methodsFor(currency: WithdrawCurrency | undefined, methods: WithdrawMethod[]): WithdrawMethod[] {
  if (!currency) return [];
  return methods.filter((m) => m.type === WithdrawType.Bank || (m.currency === currency.code && m.network === currency.network));
}

export function WithdrawForm({
  page,
  answer,
  bindUrl,
}: {
  page: {
    type: WithdrawType;
    currencies: WithdrawCurrency[];
    methods: WithdrawMethod[];
    /** What may leave now (USD). */
    available: number;
    idempotencyKey: string;
    /** The server's clock when the page was made (held methods are judged by it, the same on both sides). */
    now: number;
    constraint: Constraint;
    /** The values "Calculate" brought back (without JavaScript). */
    typed: TypedWithdrawal;
  };
  /** The action's answer: the form's errors and the key it was sent with. */
  answer: { result: SubmissionResult<string[]>; key: string } | undefined;
  bindUrl: string;
}) {
  const { t } = useTranslation('withdraw');
  const locale = useLocale();
  const [form, fields] = useLateSchemaForm(loadSchemas, (m) => m.WithdrawFormSchema, {
    id: `withdraw-${page.type}`,
    constraint: page.constraint,
    lastResult: answer?.result,
    defaultValue: page.typed,
  });
  const initialCurrency = Number(fields.currency.initialValue) || page.currencies[0]?.id;
  const [currencyId, setCurrencyId] = useState(initialCurrency);
  const [amount, setAmount] = useState<string | null>(null);
  const currency = page.currencies.find((c) => c.id === currencyId) ?? page.currencies[0];
  const usable = methodsFor(currency, page.methods);
  const typedAmount = amount ?? String(fields.amount.initialValue ?? '');
  // Live with JavaScript; without it, the figures of the amount "Calculate" brought back.
  const quote = quoteWithdrawal(currency, typedAmount);
  const bank = page.type === WithdrawType.Bank;
  // A newly bound method is held for a while (issue 38); the upstream refuses it until then (MethodHeld).
  const held = (m: WithdrawMethod) => m.usableAt !== null && m.usableAt > page.now;
  return (
    <Form method="post" {...getFormProps(form)} className="form funds-card" replace>
      <CsrfInput />
      <KeptGrantInput />
      <input type="hidden" name="type" value={page.type} />
      <input type="hidden" name="idempotency_key" value={answer?.key || page.idempotencyKey} />
      <FormError id={form.errorId} errors={form.errors} />
      <p className="available">
        {t('available')} <strong>{formatMoney(page.available, locale)} USD</strong>
      </p>
      <fieldset className="field">
        <legend>{t('currency')}</legend>
        <div className="chips">
          {page.currencies.map((c) => (
            <label key={c.id} className="chip">
              <input
                type="radio"
                name={fields.currency.name}
                value={c.id}
                defaultChecked={c.id === initialCurrency}
                onChange={() => setCurrencyId(c.id)}
              />{' '}
              {bank ? c.code : t('currencyOption', { code: c.code, network: c.network })}
            </label>
          ))}
        </div>
        <ErrorList id={fields.currency.errorId} errors={fields.currency.errors} />
      </fieldset>
      <div className="field">
        <label htmlFor={fields.method.id}>{t(bank ? 'method.bank' : 'method.coin')}</label>
        {usable.length > 0 ? (
          <select
            id={fields.method.id}
            name={fields.method.name}
            defaultValue={String(fields.method.initialValue ?? usable[0]!.id)}
            aria-invalid={fields.method.errors ? true : undefined}
            aria-describedby={fields.method.errors ? fields.method.errorId : undefined}
          >
            {usable.map((m) => (
              <option key={m.id} value={m.id}>
                {bank ? `${m.bankName} ${maskedAccount(m.payeeAccount ?? '')}` : shortAddress(m.address ?? '')}
                {held(m) ? ` · ${t('method.held', { time: formatMoment(m.usableAt!, 'dateTime', locale) })}` : ''}
              </option>
            ))}
          </select>
        ) : (
          <Link to={withdrawUrl(page.type, { confirm: 'bind' })} className="button secondary block" preventScrollReset replace>
            {t(bank ? 'method.chooseBank' : 'method.chooseCoin')}
          </Link>
        )}
        <ErrorList id={fields.method.errorId} errors={fields.method.errors} />
        {usable.length > 0 ? (
          <Link to={bindUrl} className="link-small">
            {t('method.add')}
          </Link>
        ) : null}
      </div>
      <div className="field">
        <label htmlFor={fields.amount.id}>{t('amount.label')}</label>
        <input
          id={fields.amount.id}
          name={fields.amount.name}
          defaultValue={String(fields.amount.initialValue ?? '')}
          inputMode="decimal"
          autoComplete="off"
          placeholder={
            currency ? t('amount.range', { min: formatMoney(currency.min, locale), max: formatMoney(currency.max, locale) }) : undefined
          }
          aria-invalid={fields.amount.errors ? true : undefined}
          aria-describedby={fields.amount.errors ? fields.amount.errorId : 'withdraw-figures'}
          onChange={(e) => setAmount(e.currentTarget.value)}
        />
        <ErrorList id={fields.amount.errorId} errors={fields.amount.errors} />
      </div>
      <dl className="figures" id="withdraw-figures" aria-live="polite">
        <div>
          <dt>{t('fee')}</dt>
          <dd>{quote ? `${formatMoney(quote.fee, locale)} USD` : '—'}</dd>
        </div>
        <div>
          <dt>{t('received')}</dt>
          <dd>
            {quote ? `${formatMoney(quote.received, locale)} USD` : '—'}
            {quote?.coinAmount ? (
              <span className="muted">
                {' '}
                ≈ {quote.coinAmount.toFixed(8).replace(/\.?0+$/, '')} {currency?.code}
              </span>
            ) : null}
          </dd>
        </div>
      </dl>
      {currency ? (
        <p className="muted field-hint">
          {currency.feeType === 1
            ? t('feeRule.fixed', { fee: formatMoney(currency.feeRate, locale) })
            : t('feeRule.percent', { rate: currency.feeRate })}
        </p>
      ) : null}
      <Field meta={fields.memo} label={t('memo')} autoComplete="off" />
      <div className="form-buttons">
        <SubmitButton name="intent" value="quote" className="button secondary">
          {t('calculate')}
        </SubmitButton>
        <SubmitButton name="intent" value="withdraw">
          {t('submit')}
        </SubmitButton>
      </div>
      <ul className="notes">
        <li>{t('notes.service')}</li>
        <li>{t('notes.volume', { percent: WITHDRAW_VOLUME_PERCENT })}</li>
      </ul>
    </Form>
  );
}
