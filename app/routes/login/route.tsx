/**
 * /login (spec §2, §5): e-mail and password, or phone with area code when the settings show phones.
 * A plain form post without JavaScript; conform validates in the browser with the same schema, loaded after the page.
 */
import { getFormProps } from '@conform-to/react';
import { getZodConstraint } from '@conform-to/zod/v3';
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { redirect } from '@remix-run/node';
import { Form, Link, useActionData, useLoaderData } from '@remix-run/react';
import { useTranslation } from '~/i18n/react';
import { ShowMobile } from '#contract/enums';
import { AreaCodeSelect } from '~/components/area-code-select';
import { Field } from '~/components/field';
import { useLateSchemaForm } from '~/components/late-checks';
import { CsrfInput, FormError, SubmitButton } from '~/components/form-parts';
import { PageHeader } from '~/components/page-header';
import { translator } from '~/i18n/i18next.server';
import { areaList, login, showMobileSetting } from '~/upstream/account.server';
import { upstreamApi, upstreamFallback } from '~/upstream/api.server';
import { invalid, readForm, replyWithFailure } from '~/utils/form-action.server';
import { safeRedirectPath } from '~/utils/safe-redirect';
import { getSignedIn, startSession } from '~/utils/session.server';
import { LoginFormSchema } from './schema';
import { PasskeyButton } from '~/components/passkey-button';
import { beginHalfLogin } from '../login_.factor/half-login.server';
import { namedPageTitle } from '~/utils/page-title';

const loadSchemas = () => import('./schema');

export const meta: MetaFunction = (args) => namedPageTitle(args, 'login');

export async function loader({ request, context }: LoaderFunctionArgs) {
  const url = new URL(request.url);
  const from = safeRedirectPath(url.searchParams.get('from'), '/');
  // A demo user may log in to a real account (the demo-blocked pages send them here).
  const signedIn = await getSignedIn(request);
  if (signedIn && !signedIn.user.isDemo) throw redirect(from);
  const api = await upstreamApi(request, context);
  // The phone variant is an extra: if its settings cannot be read, e-mail login still works.
  const showMobile = await showMobileSetting(api).then(
    (r) => r.data.value !== ShowMobile.Hidden,
    upstreamFallback(false, 'the phone login setting'),
  );
  const byMobile = showMobile && url.searchParams.get('type') === 'mobile';
  const areas = byMobile ? await areaList(api).then((r) => r.data, upstreamFallback([], 'area codes')) : [];
  return { from, showMobile, byMobile, areas, constraint: getZodConstraint(LoginFormSchema) };
}

export async function action({ request, context }: ActionFunctionArgs) {
  const { submission } = await readForm(request, LoginFormSchema);
  if (submission.status !== 'success') return invalid(submission, ['password']);
  const { from, ...credentials } = submission.value;
  const api = await upstreamApi(request, context);
  try {
    const answer = await login(api, credentials);
    // An account with a second factor: no session yet, its code is asked on the next page (issue 38).
    if ('factorTicket' in answer) return await beginHalfLogin(answer.factorTicket, answer.factors, safeRedirectPath(from, '/'));
    const { t } = await translator(request, 'auth');
    return await startSession(request, answer.session, safeRedirectPath(from, '/'), { kind: 'success', message: t('login.success') });
  } catch (error) {
    return replyWithFailure(request, submission, error, ['password']);
  }
}

export default function LoginPage() {
  const { from, showMobile, byMobile, areas, constraint } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const { t } = useTranslation('auth');
  const { t: tSecurity } = useTranslation('security');
  const [form, fields] = useLateSchemaForm(loadSchemas, (m) => m.LoginFormSchema, {
    id: 'login',
    constraint,
    lastResult: actionData && 'result' in actionData ? actionData.result : undefined,
  });
  const typeLink = (type: 'email' | 'mobile') => `/login?${new URLSearchParams({ ...(from !== '/' ? { from } : {}), type })}`;
  return (
    <main className="page">
      <PageHeader title={t('login.title')} back="/" />
      {showMobile ? (
        <nav className="segmented" aria-label={t('login.typeLabel')}>
          <Link to={typeLink('email')} aria-current={!byMobile ? 'page' : undefined} replace>
            {t('fields.email')}
          </Link>
          <Link to={typeLink('mobile')} aria-current={byMobile ? 'page' : undefined} replace>
            {t('fields.mobile')}
          </Link>
        </nav>
      ) : null}
      <Form method="post" {...getFormProps(form)} className="form">
        <CsrfInput />
        <input type="hidden" name="from" value={from} />
        <input type="hidden" name="login_type" value={byMobile ? 'mobile' : 'email'} />
        <FormError id={form.errorId} errors={form.errors} />
        {byMobile ? <AreaCodeSelect id="login-area" label={t('fields.areaCode')} areas={areas} /> : null}
        <Field
          meta={fields.account}
          label={byMobile ? t('fields.mobile') : t('fields.email')}
          type={byMobile ? 'tel' : 'email'}
          autoComplete={byMobile ? 'tel-national' : 'username'}
          inputMode={byMobile ? 'tel' : 'email'}
        />
        <Field meta={fields.password} label={t('fields.password')} type="password" autoComplete="current-password" />
        <SubmitButton>{t('login.submit')}</SubmitButton>
      </Form>
      <PasskeyButton
        ceremony="login"
        action="/login/passkey"
        intent="passkey"
        label={tSecurity('passkey.signIn')}
        className="button secondary block"
      >
        <input type="hidden" name="from" value={from} />
      </PasskeyButton>
      <p className="link-row">
        <Link to="/forgot">{t('login.forgot')}</Link>
        <Link to={from !== '/' ? `/register?${new URLSearchParams({ from })}` : '/register'}>{t('login.noAccount')}</Link>
      </p>
      <Form method="post" action="/demo" className="form demo-form">
        <CsrfInput />
        <input type="hidden" name="from" value={from} />
        <p className="notice">{t('demo.explain')}</p>
        <SubmitButton className="button secondary block">{t('demo.open')}</SubmitButton>
      </Form>
    </main>
  );
}
