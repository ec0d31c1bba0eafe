/**
 * /step-up?id=<kept form>&back=<its page> (issue 38, decision 0039): "confirm it's you" before a protected action.
 * The authenticator's code or a recovery code, or, for an account with neither, a code sent for this action to its
 * e-mail or phone. The grant is stored with the kept form on the server and the user goes back to finish.
 */
import { getFormProps, useForm } from '@conform-to/react';
import { getZodConstraint, parseWithZod } from '@conform-to/zod/v3';
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { redirect } from '@remix-run/node';
import { Form, Link, useActionData, useLoaderData, useLocation } from '@remix-run/react';
import { z } from 'zod';
import { FactorCodeFormSchema } from '~/components/factor-code-schema';
import { FactorCodeField } from '~/components/factor-code';
import { CsrfInput, FormError, SubmitButton } from '~/components/form-parts';
import { lateValidation, useLateSchemaCheck } from '~/components/late-checks';
import { PageHeader } from '~/components/page-header';
import { translator } from '~/i18n/i18next.server';
import { useTranslation } from '~/i18n/react';
import { loaderFailure, upstreamApi } from '~/upstream/api.server';
import { PasskeyButton } from '~/components/passkey-button';
import { stepUpWithPasskey } from '~/upstream/passkeys.server';
import { securityStatus, sendStepUpCode, stepUp } from '~/upstream/security.server';
import { invalid, readForm, replyWithFailure } from '~/utils/form-action.server';
import { requireRealAccount } from '~/utils/guards.server';
import { pageTitle } from '~/utils/page-title';
import { safeRedirectPath } from '~/utils/safe-redirect';
import { redirectWithToast } from '~/utils/session.server';
import { finishUrl, keptForm, saveKeptForm } from '~/utils/step-up.server';
import authCss from '~/styles/auth.css?inline';
import { maskedDestination } from './mask';

export { DemoBlockedBoundary as ErrorBoundary } from '~/components/demo-blocked';

export const meta: MetaFunction<typeof loader> = (args) => pageTitle(args, args.data?.title);

const loadSchemas = () => import('~/components/factor-code-schema');

/** The kept form of this page's `id`, or a redirect to its page saying the confirmation expired. */
async function keptOrExpired(request: Request) {
  const url = new URL(request.url);
  const id = url.searchParams.get('id') ?? '';
  const kept = await keptForm(request, id);
  if (kept) return { id, kept };
  const { t } = await translator(request, 'security');
  throw await redirectWithToast(request, safeRedirectPath(url.searchParams.get('back'), '/mine'), {
    kind: 'error',
    message: t('stepUp.expired'),
  });
}

export async function loader({ request, context }: LoaderFunctionArgs) {
  const { user } = await requireRealAccount(request);
  const { id, kept } = await keptOrExpired(request);
  // Back from the form's page, or a reload after the code: the confirmation is there already.
  if (kept.grant) throw redirect(finishUrl(kept.back, id));
  const api = await upstreamApi(request, context);
  const status = await securityStatus(api).catch((error: unknown) => loaderFailure(request, error));
  if (!status) throw redirect(kept.back);
  const { t } = await translator(request, 'security');
  return {
    title: t('stepUp.title'),
    id,
    passkeys: status.passkeys > 0,
    action: kept.action,
    by: status.stepUpBy,
    sentTo: kept.sentTo ?? null,
    destination: maskedDestination(status.stepUpBy === 'sms' ? user.mobile : (user.email ?? user.mobile)),
    back: kept.back,
    constraint: getZodConstraint(FactorCodeFormSchema),
  };
}

export async function action({ request, context }: ActionFunctionArgs) {
  await requireRealAccount(request);
  const { id, kept } = await keptOrExpired(request);
  const { formData, submission } = await readForm(request, FactorCodeFormSchema);
  const api = await upstreamApi(request, context);
  const { t } = await translator(request, 'security');
  if (formData.get('intent') === 'send') {
    const sent = parseWithZod(formData, { schema: z.object({}) });
    try {
      const to = await sendStepUpCode(api, kept.action);
      await saveKeptForm(id, { ...kept, sentTo: to });
      return await redirectWithToast(request, `/step-up?${new URLSearchParams({ id, back: kept.back })}`, {
        kind: 'success',
        message: t('stepUp.sent', { to }),
      });
    } catch (error) {
      return replyWithFailure(request, sent, error);
    }
  }
  if (formData.get('intent') === 'passkey') {
    const answer = formData.get('answer');
    try {
      const { grant } = await stepUpWithPasskey(api, kept.action, typeof answer === 'string' ? answer : '');
      await saveKeptForm(id, { ...kept, grant });
      return redirect(finishUrl(kept.back, id));
    } catch (error) {
      return replyWithFailure(request, parseWithZod(formData, { schema: z.object({}) }), error);
    }
  }
  if (submission.status !== 'success') return invalid(submission);
  try {
    const { grant } = await stepUp(api, kept.action, submission.value.code);
    await saveKeptForm(id, { ...kept, grant });
    return redirect(finishUrl(kept.back, id));
  } catch (error) {
    return replyWithFailure(request, submission, error);
  }
}

export default function StepUpPage() {
  const { id, passkeys, action: what, by, sentTo, destination, back, constraint } = useLoaderData<typeof loader>();
  const location = useLocation();
  const actionData = useActionData<typeof action>();
  const { t } = useTranslation('security');
  const late = useLateSchemaCheck(loadSchemas, (m) => m.FactorCodeFormSchema);
  const [form, fields] = useForm({
    id: 'step-up',
    constraint,
    lastResult: actionData && 'result' in actionData ? actionData.result : undefined,
    ...lateValidation(late?.check),
  });
  const byCode = by !== 'totp';
  return (
    <main className="page">
      {/* The screen's stylesheet comes with its markup (decision 0020). */}
      <style dangerouslySetInnerHTML={{ __html: authCss }} />
      <PageHeader title={t('stepUp.title')} back={back} />
      <p className="notice">{t('stepUp.why', { action: t(`actions.${what}`) })}</p>
      {passkeys ? (
        <PasskeyButton
          ceremony="step-up"
          id={id}
          action={`${location.pathname}${location.search}`}
          intent="passkey"
          label={t('passkey.use')}
          withoutScript={t('passkey.needsScript')}
        />
      ) : null}
      {byCode ? (
        // Sending is a form of its own: the code field's checks are not this button's business.
        <Form method="post" className="form">
          <CsrfInput />
          <p>{sentTo ? t('stepUp.sentTo', { to: sentTo }) : t(by === 'sms' ? 'stepUp.bySms' : 'stepUp.byEmail')}</p>
          <SubmitButton name="intent" value="send" className="button secondary block">
            {sentTo ? t('stepUp.sendAgain') : t('stepUp.send', { to: destination })}
          </SubmitButton>
        </Form>
      ) : null}
      <Form method="post" {...getFormProps(form)} className="form">
        <CsrfInput />
        <FormError id={form.errorId} errors={form.errors} />
        <FactorCodeField
          meta={fields.code}
          label={byCode ? t('stepUp.sentCode') : t('code.label')}
          hint={byCode ? undefined : t('code.hint')}
        />
        <SubmitButton name="intent" value="confirm">
          {t('stepUp.confirm')}
        </SubmitButton>
      </Form>
      <p className="link-row">
        <Link to={back}>{t('stepUp.cancel')}</Link>
      </p>
    </main>
  );
}
