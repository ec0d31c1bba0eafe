/**
 * /mine/withdraw-way?type=1 (a coin address) or 2 (a bank account), spec §2 and §5: bind a withdrawal
 * method. The address is checked against its network in the form and again by the upstream. Success goes
 * back to where the trader came from (`from`, same-origin only) or to the list, with a toast.
 */
import { getFormProps } from '@conform-to/react';
import { getZodConstraint, parseWithZod } from '@conform-to/zod/v3';
import { data, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node';
import { Form, Link, useActionData, useLoaderData, useSearchParams } from '@remix-run/react';
import { useTranslation } from '~/i18n/react';
import { WithdrawType } from '#contract/enums';
import { Field } from '~/components/field';
import { useLateSchemaForm } from '~/components/late-checks';
import { CsrfInput, ErrorList, FormError, SubmitButton } from '~/components/form-parts';
import { PageHeader } from '~/components/page-header';
import { translator } from '~/i18n/i18next.server';
import { loaderFailure, upstreamApi, upstreamFallback } from '~/upstream/api.server';
import { bindMethod, withdrawCurrencies } from '~/upstream/funds.server';
import { validateCsrf } from '~/utils/csrf.server';
import { replyWithFailure } from '~/utils/form-action.server';
import { requireRealAccount } from '~/utils/guards.server';
import { safeRedirectPath } from '~/utils/safe-redirect';
import { redirectWithToast } from '~/utils/session.server';
import { askStepUp, forgetKeptForm, needsStepUp, readyToFinish, resumeStepUp } from '~/utils/step-up.server';
import { KeptGrantInput, StepUpFinish } from '~/components/step-up-finish';
import fundsCss from '~/styles/funds.css?inline';
import { bindFormSchema } from './schema';
import { readBoundedForm } from '~/utils/bounded-form.server';
import { pageTitle } from '~/utils/page-title';

export { DemoBlockedBoundary as ErrorBoundary } from '~/components/demo-blocked';

export const meta: MetaFunction<typeof loader> = (args) => pageTitle(args, args.data?.title);

const typeOf = (value: unknown) => (Number(value) === WithdrawType.Bank ? WithdrawType.Bank : WithdrawType.Crypto);
export const listOf = (type: WithdrawType) => (type === WithdrawType.Bank ? '/mine/bank-card-list' : '/mine/coin-address-list');
const bindPageOf = (type: WithdrawType, from: string | undefined) =>
  `/mine/withdraw-way?${new URLSearchParams({ type: String(type), from: safeRedirectPath(from, listOf(type)) })}`;

/** The form's checks come after the page, with zod (decision 0028); until then the action checks every post. */
const loadSchemas = () => import('./schema');

export async function loader({ request, context }: LoaderFunctionArgs) {
  await requireRealAccount(request);
  const url = new URL(request.url);
  const type = typeOf(url.searchParams.get('type'));
  const api = await upstreamApi(request, context);
  const { t } = await translator(request, 'withdraw');
  try {
    const currencies = await withdrawCurrencies(api, type);
    return {
      title: t(type === WithdrawType.Bank ? 'bind.bankTitle' : 'bind.coinTitle'),
      type,
      currencies,
      from: safeRedirectPath(url.searchParams.get('from'), listOf(type)),
      finishing: await readyToFinish(request, 'bind_method'),
      constraint: getZodConstraint(bindFormSchema(type, () => undefined)),
    };
  } catch (error) {
    return loaderFailure(request, error);
  }
}

export async function action({ request, context }: ActionFunctionArgs) {
  await requireRealAccount(request);
  const api = await upstreamApi(request, context);
  const posted = await readBoundedForm(request);
  await validateCsrf(posted, request.headers);
  // Back from a step-up: the kept form (or what was posted again) with its grant (decision 0039).
  const { formData, grant, keptId } = await resumeStepUp(request, posted, 'bind_method');
  const type = typeOf(formData.get('type'));
  // The networks decide which addresses are good; without them the upstream still checks.
  const currencies = await withdrawCurrencies(api, type).catch(upstreamFallback([], 'withdrawal networks'));
  const submission = parseWithZod(formData, { schema: bindFormSchema(type, (id) => currencies.find((c) => c.id === id)?.network) });
  if (submission.status !== 'success') return data({ result: submission.reply() }, { status: 400 });
  const f = submission.value;
  try {
    const bound = await bindMethod(api, {
      type,
      draw_id: f.currency,
      dc_address: f.address,
      bank_name: f.bank_name,
      bank_address: f.bank_address,
      bank_swift: f.bank_swift,
      payee_name: f.payee_name,
      payee_account: f.payee_account,
      branch_name: f.branch_name,
      remark: f.remark,
      grant,
    });
    await forgetKeptForm(keptId);
    const { t } = await translator(request, 'withdraw');
    const done = t(bound.usableAt && bound.usableAt > Date.now() ? 'bind.doneHeld' : 'bind.done');
    return await redirectWithToast(request, safeRedirectPath(f.from, listOf(type)), { kind: 'success', message: done });
  } catch (error) {
    if (needsStepUp(error)) return askStepUp(request, 'bind_method', formData, bindPageOf(type, f.from));
    return replyWithFailure(request, submission, error);
  }
}

export default function BindMethodPage() {
  const { type, currencies, from, finishing, constraint } = useLoaderData<typeof loader>();
  const [searchParams] = useSearchParams();
  const actionData = useActionData<typeof action>();
  const { t } = useTranslation('withdraw');
  const networkOf = (id: number) => currencies.find((c) => c.id === id)?.network;
  const [form, fields] = useLateSchemaForm(loadSchemas, (m) => m.bindFormSchema(type, networkOf), {
    id: `bind-${type}`,
    constraint,
    lastResult: actionData?.result,
  });
  const bank = type === WithdrawType.Bank;
  return (
    <main className="page funds-page">
      {/* The screen's stylesheet comes with its markup (decision 0020). */}
      <style dangerouslySetInnerHTML={{ __html: fundsCss }} />
      <PageHeader title={t(bank ? 'bind.bankTitle' : 'bind.coinTitle')} back={from} />
      <nav className="segmented" aria-label={t('bind.kind')}>
        <Link to={`/mine/withdraw-way?type=1&from=${encodeURIComponent(from)}`} aria-current={!bank ? 'page' : undefined} replace>
          {t('kind.coin')}
        </Link>
        <Link to={`/mine/withdraw-way?type=2&from=${encodeURIComponent(from)}`} aria-current={bank ? 'page' : undefined} replace>
          {t('kind.bank')}
        </Link>
      </nav>
      {/* A refusal of a finished step-up brings the kept values: a new form shows them (decision 0039). */}
      <Form
        key={searchParams.has('resume') && actionData ? 'kept' : 'typed'}
        method="post"
        {...getFormProps(form)}
        className="form funds-card"
      >
        <CsrfInput />
        <KeptGrantInput />
        <input type="hidden" name="type" value={type} />
        <input type="hidden" name="from" value={from} />
        <FormError id={form.errorId} errors={form.errors} />
        <fieldset className="field">
          <legend>{t(bank ? 'bind.receivingCurrency' : 'bind.currency')}</legend>
          <div className="chips">
            {currencies.map((c, i) => (
              <label key={c.id} className="chip">
                <input
                  type="radio"
                  name={fields.currency.name}
                  value={c.id}
                  defaultChecked={String(fields.currency.initialValue ?? '') === String(c.id) || (!fields.currency.initialValue && i === 0)}
                />{' '}
                {bank ? c.code : t('currencyOption', { code: c.code, network: c.network })}
              </label>
            ))}
          </div>
          <ErrorList id={fields.currency.errorId} errors={fields.currency.errors} />
        </fieldset>
        {bank ? (
          <>
            <Field meta={fields.bank_name} label={t('bank.name')} autoComplete="off" />
            <Field meta={fields.bank_address} label={t('bank.address')} autoComplete="off" />
            <Field meta={fields.bank_swift} label={t('bank.swift')} autoComplete="off" />
            <Field meta={fields.payee_name} label={t('bank.payeeName')} autoComplete="name" />
            <Field meta={fields.payee_account} label={t('bank.payeeAccount')} autoComplete="off" inputMode="text" />
            <Field meta={fields.branch_name} label={t('bank.branch')} autoComplete="off" />
            <Field meta={fields.remark} label={t('bank.remark')} autoComplete="off" />
          </>
        ) : (
          <Field meta={fields.address} label={t('bind.address')} autoComplete="off" placeholder={t('bind.addressHint')} />
        )}
        <SubmitButton>{t('bind.submit')}</SubmitButton>
      </Form>
      {finishing && !actionData ? <StepUpFinish id={finishing} label={t('bind.submit')} cancelTo={bindPageOf(type, from)} /> : null}
    </main>
  );
}
