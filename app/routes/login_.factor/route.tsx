/**
 * /login/factor (issue 38): the log-in's second step. The password was right; the code from the authenticator app
 * or a recovery code makes the session, exactly as a log-in without a factor does (new session id, welcome toast,
 * back to the page asked for). The half-done log-in lives on the server for five minutes; then it starts again.
 */
import { getFormProps, useForm } from '@conform-to/react';
import { getZodConstraint } from '@conform-to/zod/v3';
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { redirect } from '@remix-run/node';
import { Form, Link, useActionData, useLoaderData } from '@remix-run/react';
import { LOGIN_TICKET_TTL_MS } from '#contract/calls/security';
import { ErrorCode } from '#contract/errors';
import { FactorCodeFormSchema } from '~/components/factor-code-schema';
import { FactorCodeField } from '~/components/factor-code';
import { CsrfInput, FormError, SubmitButton } from '~/components/form-parts';
import { lateValidation, useLateSchemaCheck } from '~/components/late-checks';
import { PageHeader } from '~/components/page-header';
import { translator } from '~/i18n/i18next.server';
import { useTranslation } from '~/i18n/react';
import { failureMessage, upstreamApi, UpstreamError } from '~/upstream/api.server';
import { PasskeyButton } from '~/components/passkey-button';
import { loginWithFactor, sendLoginCode } from '~/upstream/security.server';
import { parseWithZod } from '@conform-to/zod/v3';
import { z } from 'zod';
import { invalid, readForm, replyWithFailure } from '~/utils/form-action.server';
import { pageTitle } from '~/utils/page-title';
import { redirectWithToast, startSession } from '~/utils/session.server';
import authCss from '~/styles/auth.css?inline';
import { endHalfLogin, halfLoginOf, noteLoginCodeSent } from './half-login.server';

export const meta: MetaFunction<typeof loader> = (args) => pageTitle(args, args.data?.title);

const loadSchemas = () => import('~/components/factor-code-schema');

/** Back to log in: with "expired" when this browser had begun a log-in, quietly otherwise. */
async function startAgain(request: Request, id: string | null, started: boolean, message?: string): Promise<Response> {
  const clear = await endHalfLogin(id);
  if (!started) return redirect('/login', { headers: { 'Set-Cookie': clear } });
  const { t } = await translator(request, 'security');
  return redirectWithToast(
    request,
    '/login',
    { kind: 'error', message: message ?? t('login.expired') },
    { headers: { 'Set-Cookie': clear } },
  );
}

export async function loader({ request }: LoaderFunctionArgs) {
  const { login, started } = await halfLoginOf(request);
  if (!login) throw await startAgain(request, null, started);
  const { t } = await translator(request, 'security');
  return {
    // A passkey-only account is not asked for a code first.
    title: t((login.factors ?? ['totp']).includes('totp') ? 'login.title' : 'stepUp.title'),
    minutes: LOGIN_TICKET_TTL_MS / 60_000,
    back: login.from === '/' ? '/login' : `/login?${new URLSearchParams({ from: login.from })}`,
    // Records kept before passkeys existed name no factors: the authenticator was the only one.
    factors: login.factors ?? ['totp'],
    sentTo: login.sentTo ?? null,
    constraint: getZodConstraint(FactorCodeFormSchema),
  };
}

export async function action({ request, context }: ActionFunctionArgs) {
  const { formData, submission } = await readForm(request, FactorCodeFormSchema);
  const { login, started } = await halfLoginOf(request);
  if (!login) return startAgain(request, null, started);
  const api = await upstreamApi(request, context);
  if (formData.get('intent') === 'send') {
    // A passkey-only account on a browser without JavaScript: a code for this log-in instead.
    try {
      const to = await sendLoginCode(api, login.ticket);
      await noteLoginCodeSent(login, to);
      const { t } = await translator(request, 'security');
      return await redirectWithToast(request, '/login/factor', { kind: 'success', message: t('stepUp.sent', { to }) });
    } catch (error) {
      if (error instanceof UpstreamError && error.code === ErrorCode.LoginTicketInvalid)
        return startAgain(request, login.id, true, await failureMessage(request, error));
      return replyWithFailure(request, parseWithZod(formData, { schema: z.object({}) }), error);
    }
  }
  if (submission.status !== 'success') return invalid(submission);
  try {
    const session = await loginWithFactor(api, login.ticket, submission.value.code);
    const { t } = await translator(request, 'auth');
    const response = await startSession(request, session, login.from, { kind: 'success', message: t('login.success') });
    response.headers.append('Set-Cookie', await endHalfLogin(login.id));
    return response;
  } catch (error) {
    // The ticket is spent or too old: the whole log-in starts again, saying why.
    if (error instanceof UpstreamError && error.code === ErrorCode.LoginTicketInvalid)
      return startAgain(request, login.id, true, await failureMessage(request, error));
    return replyWithFailure(request, submission, error);
  }
}

export default function LoginFactorPage() {
  const { minutes, back, factors, sentTo, constraint } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const { t } = useTranslation('security');
  const late = useLateSchemaCheck(loadSchemas, (m) => m.FactorCodeFormSchema);
  const [form, fields] = useForm({
    id: 'login-factor',
    constraint,
    lastResult: actionData && 'result' in actionData ? actionData.result : undefined,
    ...lateValidation(late?.check),
  });
  const byAuthenticator = factors.includes('totp');
  const sentBy = factors.find((f) => f === 'email' || f === 'sms');
  return (
    <main className="page">
      {/* The screen's stylesheet comes with its markup (decision 0020). */}
      <style dangerouslySetInnerHTML={{ __html: authCss }} />
      <PageHeader title={t(byAuthenticator ? 'login.title' : 'stepUp.title')} back={back} />
      <p className="notice">{t(byAuthenticator ? 'login.explain' : 'login.explainPasskey', { minutes })}</p>
      {factors.includes('passkey') ? (
        <PasskeyButton
          ceremony="login"
          action="/login/passkey"
          intent="passkey"
          label={t('passkey.use')}
          withoutScript={t(byAuthenticator ? 'passkey.needsScript' : 'passkey.needsScriptSend')}
        />
      ) : null}
      {sentBy ? (
        // Sending is a form of its own: the code field's checks are not this button's business.
        <Form method="post" className="form">
          <CsrfInput />
          {sentTo ? <p>{t('stepUp.sentTo', { to: sentTo })}</p> : null}
          <SubmitButton name="intent" value="send" className="button secondary block">
            {sentTo ? t('stepUp.sendAgain') : t(sentBy === 'sms' ? 'login.sendSms' : 'login.sendEmail')}
          </SubmitButton>
        </Form>
      ) : null}
      {byAuthenticator || sentTo ? (
        <Form method="post" {...getFormProps(form)} className="form">
          <CsrfInput />
          <FormError id={form.errorId} errors={form.errors} />
          <FactorCodeField
            meta={fields.code}
            label={byAuthenticator ? t('code.label') : t('stepUp.sentCode')}
            hint={byAuthenticator ? t('code.hint') : undefined}
          />
          <SubmitButton>{t('login.submit')}</SubmitButton>
        </Form>
      ) : null}
      <p className="link-row">
        <Link to={back}>{t('login.cancel')}</Link>
      </p>
    </main>
  );
}
