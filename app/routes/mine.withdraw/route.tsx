/**
 * /mine/withdraw (spec §2, §5, §9): a coin currency and a bound address, or the bank currency and a bound
 * account; the amount, with the fee and the amount received computed live with JavaScript and by the
 * "Calculate" button without it (the same contract arithmetic); the 24-hour service and the 80 % volume
 * notes; the records below. No method bound: a confirmation leads to the bind page.
 */
import { getZodConstraint, parseWithZod } from '@conform-to/zod/v3';
import { data, redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node';
import { Link, useActionData, useLoaderData, useSearchParams } from '@remix-run/react';
import { useTranslation } from '~/i18n/react';
import { FUNDS_PAGE_SIZE } from '#contract/calls/funds';
import { WithdrawType } from '#contract/enums';
import { ErrorCode } from '#contract/errors';
import { ConfirmDialog } from '~/components/confirm-dialog';
import type { ListPage } from '~/components/endless-list';
import { PageHeader } from '~/components/page-header';
import { translator } from '~/i18n/i18next.server';
import { loaderFailure, upstreamApi } from '~/upstream/api.server';
import { requestWithdrawal, withdrawCurrencies, withdrawMethods, withdrawRecords, type WithdrawRecord } from '~/upstream/funds.server';
import { account } from '~/upstream/trade.server';
import { validateCsrf } from '~/utils/csrf.server';
import { replyToFailure } from '~/utils/form-action.server';
import { requireRealAccount } from '~/utils/guards.server';
import { redirectWithToast } from '~/utils/session.server';
import { askStepUp, forgetKeptForm, needsStepUp, readyToFinish, RESUME_FIELD, resumeStepUp } from '~/utils/step-up.server';
import { StepUpFinish } from '~/components/step-up-finish';
import fundsCss from '~/styles/funds.css?inline';
import { WithdrawFormSchema } from './schema';
import { WithdrawForm } from './withdraw-form';
import { WithdrawRecords } from './withdraw-records';
import { typedOf, typeOf, withdrawUrl } from './withdraw-url';
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
  [ErrorCode.MethodHeld]: 'method',
};

export async function loader({ request, context }: LoaderFunctionArgs) {
  await requireRealAccount(request);
  const url = new URL(request.url);
  const type = typeOf(url.searchParams.get('type'));
  const typed = typedOf(url.searchParams);
  const page = Math.min(Math.max(Number(url.searchParams.get('page')) || 1, 1), 10_000);
  const api = await upstreamApi(request, context);
  const { t } = await translator(request, 'withdraw');
  try {
    const [currencies, methods, figures, history] = await Promise.all([
      withdrawCurrencies(api, type),
      withdrawMethods(api, type),
      account(api),
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
      available: Math.max(0, Math.min(figures.balance, figures.freeMargin)),
      ...list,
      idempotencyKey: crypto.randomUUID(),
      /** The values "Calculate" carried here (without JavaScript): the form shows them with their figures. */
      typed,
      // After "Calculate" the form is what posts the grant on, not the one-tap finish of the kept (older) values.
      finishing: Object.keys(typed).length > 0 ? null : await readyToFinish(request, 'withdraw'),
      now: Date.now(),
      constraint: getZodConstraint(WithdrawFormSchema),
    };
  } catch (error) {
    return loaderFailure(request, error);
  }
}

export async function action({ request, context }: ActionFunctionArgs) {
  await requireRealAccount(request);
  const posted = await readBoundedForm(request);
  await validateCsrf(posted, request.headers);
  // Back from a step-up: the kept form (or what was posted again) with its grant (decision 0039).
  const { formData, grant, keptId } = await resumeStepUp(request, posted, 'withdraw');
  const submission = parseWithZod(formData, { schema: WithdrawFormSchema });
  const key = String(formData.get('idempotency_key') ?? '');
  const type = typeOf(formData.get('type'));
  const reply = (extra: { fieldErrors?: Record<string, string[]>; formErrors?: string[] } = {}, status = 400) =>
    data({ result: submission.reply({ fieldErrors: extra.fieldErrors, formErrors: extra.formErrors }), key }, { status });
  if (submission.status !== 'success') return reply();
  const f = submission.value;
  const api = await upstreamApi(request, context);
  try {
    // Figures without JavaScript: a page of their own (Post/Redirect/Get) that shows the form's values and their fee,
    // still naming a finished step-up's kept form, whose grant the next post carries (decision 0039).
    if (f.intent === 'quote') {
      const resume = posted.get(RESUME_FIELD);
      return redirect(withdrawUrl(type, { ...typedOf(formData), ...(typeof resume === 'string' && resume ? { resume } : {}) }));
    }
    if (!f.method) return reply({ fieldErrors: { method: ['withdraw:validation.bindFirst'] } });
    await requestWithdrawal(api, {
      currencyId: f.currency,
      amount: f.amount,
      methodId: f.method,
      memo: f.memo,
      key: f.idempotency_key,
      grant,
    });
    await forgetKeptForm(keptId);
    const { t } = await translator(request, 'withdraw');
    return await redirectWithToast(request, withdrawUrl(type), { kind: 'success', message: t('submitted') });
  } catch (error) {
    if (needsStepUp(error)) return askStepUp(request, 'withdraw', formData, withdrawUrl(type));
    return replyToFailure(request, error, FIELD_OF_CODE, (fieldErrors, formErrors, status) => reply({ fieldErrors, formErrors }, status));
  }
}

export default function WithdrawPage() {
  const page = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const [searchParams] = useSearchParams();
  const { t } = useTranslation('withdraw');
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
      {/* A refusal of a finished step-up brings the kept values: a new form shows them (decision 0039). */}
      <WithdrawForm key={searchParams.has('resume') && actionData ? 'kept' : 'typed'} page={page} answer={actionData} bindUrl={bindUrl} />

      <WithdrawRecords first={page} type={page.type} />

      {page.finishing && !actionData ? <StepUpFinish id={page.finishing} label={t('submit')} cancelTo={withdrawUrl(page.type)} /> : null}
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
