/**
 * /mine/withdraw (spec §2, §5, §9): a coin currency and a bound address, or the bank currency and a bound
 * account; the amount, with the fee and the amount received computed live with JavaScript and by the
 * "Calculate" button without it (the same contract arithmetic); the 24-hour service and the 80 % volume
 * notes; the records below. No method bound: a confirmation leads to the bind page.
 */
import { getFormProps } from '@conform-to/react';
import { getZodConstraint, parseWithZod } from '@conform-to/zod/v3';
import { data, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node';
import { Form, Link, useActionData, useLoaderData, useSearchParams } from '@remix-run/react';
import { useCallback, useState } from 'react';
import { useTranslation } from '~/i18n/react';
import { WITHDRAW_VOLUME_PERCENT } from '#contract/arithmetic';
import { FUNDS_PAGE_SIZE } from '#contract/calls/funds';
import { WithdrawType } from '#contract/enums';
import { ConfirmDialog } from '~/components/confirm-dialog';
import { NextPageLink, usePagedList, type ListPage } from '~/components/endless-list';
import { Field } from '~/components/field';
import { useLateSchemaForm } from '~/components/late-checks';
import { CsrfInput, ErrorList, FormError, SubmitButton } from '~/components/form-parts';
import { maskedAccount, shortAddress } from '~/components/withdraw-method-list';
import { PageHeader } from '~/components/page-header';
import { translator } from '~/i18n/i18next.server';
import { loaderFailure, upstreamApi } from '~/upstream/api.server';
import {
  requestWithdrawal,
  withdrawCurrencies,
  withdrawMethods,
  withdrawRecords,
  type WithdrawCurrency,
  type WithdrawMethod,
  type WithdrawRecord,
} from '~/upstream/funds.server';
import { accountDetail } from '~/upstream/trade.server';
import { validateCsrf } from '~/utils/csrf.server';
import { replyToFailure } from '~/utils/form-action.server';
import { formatMoney } from '~/utils/format';
import { formatDateTime } from '~/utils/format-date';
import { requireRealAccount } from '~/utils/guards.server';
import { useLocale } from '~/utils/locale';
import { redirectWithToast } from '~/utils/session.server';
import fundsCss from '~/styles/funds.css?inline';
import { quoteWithdrawal, type WithdrawQuote } from './quote';
import { WithdrawFormSchema } from './schema';
import { readBoundedForm } from '~/utils/bounded-form.server';
import { pageTitle } from '~/utils/page-title';

export { DemoBlockedBoundary as ErrorBoundary } from '~/components/demo-blocked';

export const meta: MetaFunction<typeof loader> = (args) => pageTitle(args, args.data?.title);

/** Upstream refusals that belong next to a field. */
const FIELD_OF_CODE: Record<number, 'amount' | 'method' | 'currency'> = {
  4002: 'amount',
  4005: 'amount',
  4006: 'amount',
  4011: 'amount',
  4013: 'amount',
  4014: 'amount',
  4004: 'method',
  4009: 'method',
  4007: 'method',
  4010: 'currency',
};

const typeOf = (v: unknown) => (Number(v) === WithdrawType.Bank ? WithdrawType.Bank : WithdrawType.Crypto);
const withdrawUrl = (type: WithdrawType, extra: Record<string, string> = {}) =>
  `/mine/withdraw?${new URLSearchParams({ type: String(type), ...extra })}`;

/** The bound methods that can receive a currency: a coin address of its network, or any bank account. */
function methodsFor(currency: WithdrawCurrency | undefined, methods: WithdrawMethod[]): WithdrawMethod[] {
  if (!currency) return [];
  return methods.filter((m) => m.type === WithdrawType.Bank || (m.currency === currency.code && m.network === currency.network));
}

/** The form's checks come after the page, with zod (decision 0028); until then the action checks every post. */
const loadSchemas = () => import('./schema');

export async function loader({ request, context }: LoaderFunctionArgs) {
  await requireRealAccount(request);
  const url = new URL(request.url);
  const type = typeOf(url.searchParams.get('type'));
  const page = Math.min(Math.max(Number(url.searchParams.get('page')) || 1, 1), 10_000);
  const api = await upstreamApi(request, context);
  const { t } = await translator(request, 'withdraw');
  try {
    const [currencies, methods, detail, history] = await Promise.all([
      withdrawCurrencies(api, type),
      withdrawMethods(api, type),
      accountDetail(api),
      withdrawRecords(api, page),
    ]);
    const list: ListPage<WithdrawRecord> = {
      list: 'withdrawals',
      page,
      items: history.records,
      hasMore: page * FUNDS_PAGE_SIZE < history.total,
    };
    return {
      title: t('title'),
      type,
      currencies,
      methods,
      // What may leave: free cash, never more than the free margin (the upstream's rule).
      available: Math.max(0, Math.min(detail.data.balance, detail.data.free_margin)),
      ...list,
      idempotencyKey: crypto.randomUUID(),
      constraint: getZodConstraint(WithdrawFormSchema),
    };
  } catch (error) {
    return loaderFailure(request, error);
  }
}

export async function action({ request, context }: ActionFunctionArgs) {
  await requireRealAccount(request);
  const formData = await readBoundedForm(request);
  await validateCsrf(formData, request.headers);
  const submission = parseWithZod(formData, { schema: WithdrawFormSchema });
  const key = String(formData.get('idempotency_key') ?? '');
  const type = typeOf(formData.get('type'));
  const reply = (
    extra: { fieldErrors?: Record<string, string[]>; formErrors?: string[]; quote?: WithdrawQuote | null } = {},
    status = 400,
  ) =>
    data(
      { result: submission.reply({ fieldErrors: extra.fieldErrors, formErrors: extra.formErrors }), key, quote: extra.quote ?? null },
      { status },
    );
  if (submission.status !== 'success') return reply();
  const f = submission.value;
  const api = await upstreamApi(request, context);
  try {
    if (f.intent === 'quote') {
      const currency = (await withdrawCurrencies(api, type)).find((c) => c.id === f.currency);
      return reply({ quote: quoteWithdrawal(currency, f.amount) }, 200);
    }
    if (!f.method) return reply({ fieldErrors: { method: ['withdraw:validation.bindFirst'] } });
    await requestWithdrawal(api, { currencyId: f.currency, amount: f.amount, methodId: f.method, memo: f.memo, key: f.idempotency_key });
    const { t } = await translator(request, 'withdraw');
    return await redirectWithToast(request, withdrawUrl(type), { kind: 'success', message: t('submitted') });
  } catch (error) {
    return replyToFailure(request, error, FIELD_OF_CODE, (fieldErrors, formErrors, status) => reply({ fieldErrors, formErrors }, status));
  }
}

const STATE_CLASS = { pending: 'pending', paid: 'paid', rejected: 'rejected' } as const;

export default function WithdrawPage() {
  const page = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const [searchParams] = useSearchParams();
  const { t } = useTranslation('withdraw');
  const locale = useLocale();
  const [form, fields] = useLateSchemaForm(loadSchemas, (m) => m.WithdrawFormSchema, {
    id: `withdraw-${page.type}`,
    constraint: page.constraint,
    lastResult: actionData?.result,
  });
  const initialCurrency = Number(fields.currency.initialValue) || page.currencies[0]?.id;
  const [currencyId, setCurrencyId] = useState(initialCurrency);
  const [amount, setAmount] = useState<string | null>(null);
  const currency = page.currencies.find((c) => c.id === currencyId) ?? page.currencies[0];
  const usable = methodsFor(currency, page.methods);
  const typedAmount = amount ?? String(fields.amount.initialValue ?? '');
  // Live with JavaScript; the server's figures after "Calculate" without it.
  const quote = amount !== null ? quoteWithdrawal(currency, typedAmount) : (actionData?.quote ?? quoteWithdrawal(currency, typedAmount));
  const history = usePagedList<WithdrawRecord>(
    page,
    (w) => w.id,
    useCallback((n: number) => withdrawUrl(page.type, { page: String(n) }), [page.type]),
  );
  const bindUrl = `/mine/withdraw-way?type=${page.type}&from=${encodeURIComponent(withdrawUrl(page.type))}`;
  const bank = page.type === WithdrawType.Bank;
  return (
    <main className="page funds-page">
      {/* The screen's stylesheet comes with its markup (decision 0020). */}
      <style dangerouslySetInnerHTML={{ __html: fundsCss }} />
      <PageHeader title={t('title')} back="/mine" />
      <nav className="segmented" aria-label={t('kind.label')}>
        <Link to={withdrawUrl(WithdrawType.Crypto)} aria-current={!bank ? 'page' : undefined} replace>
          {t('kind.coin')}
        </Link>
        <Link to={withdrawUrl(WithdrawType.Bank)} aria-current={bank ? 'page' : undefined} replace>
          {t('kind.bank')}
        </Link>
      </nav>
      <Form method="post" {...getFormProps(form)} className="form funds-card" replace>
        <CsrfInput />
        <input type="hidden" name="type" value={page.type} />
        <input type="hidden" name="idempotency_key" value={actionData?.key || page.idempotencyKey} />
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

      <section className="funds-history" aria-labelledby="withdraw-history">
        <h2 id="withdraw-history">{t('history.title')}</h2>
        {history.items.length === 0 ? (
          <p className="empty">{t('history.empty')}</p>
        ) : (
          <ul className="records" aria-labelledby="withdraw-history">
            {history.items.map((w) => (
              <li key={w.id} className="record">
                <span className="record-amount">{formatMoney(w.amount, locale)} USD</span>
                <span className={`record-state ${STATE_CLASS[w.state]}`}>{w.stateName}</span>
                <span className="muted">
                  {t('history.feeReceived', { fee: formatMoney(w.fee, locale), received: formatMoney(w.received, locale) })}
                </span>
                <time className="muted" dateTime={w.time}>
                  {formatDateTime(w.time, locale)}
                </time>
                <span className="muted record-remark">
                  {w.address
                    ? `${w.currency} · ${w.network} → ${shortAddress(w.address)}`
                    : `${w.bankName ?? ''} ${maskedAccount(w.payeeAccount ?? '')}`}
                </span>
                {w.remark ? <span className="record-remark">{t('history.remark', { remark: w.remark })}</span> : null}
              </li>
            ))}
          </ul>
        )}
        {history.hasMore ? <NextPageLink to={history.nextUrl} loading={history.loading} onLoad={history.loadMore} /> : null}
      </section>

      {searchParams.get('confirm') === 'bind' ? (
        <ConfirmDialog
          title={t('bindFirst.title')}
          message={t('bindFirst.message')}
          confirmLabel={t('bindFirst.confirm')}
          confirmTo={bindUrl}
          cancelTo={withdrawUrl(page.type)}
        />
      ) : null}
    </main>
  );
}
