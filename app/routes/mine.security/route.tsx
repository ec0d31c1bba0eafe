/**
 * /mine/security (issue 38): the authenticator app as a second factor. Set up with a QR code drawn on the server
 * and the secret as text, confirmed by a first code; the ten recovery codes shown once; turning it off asks for a
 * step-up (decision 0039). Real accounts only; an upstream without security calls (404) has no such page.
 */
import { getZodConstraint, parseWithZod } from '@conform-to/zod/v3';
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { redirect } from '@remix-run/node';
import { useActionData, useLoaderData, type ShouldRevalidateFunction } from '@remix-run/react';
import QRCode from 'qrcode';
import { z } from 'zod';
import { PASSKEY_ANSWER_MAX, PASSKEY_NAME_MAX } from '#contract/calls/passkeys';
import { FactorCodeFormSchema } from '~/components/factor-code-schema';
import { PageHeader } from '~/components/page-header';
import { StepUpFinish } from '~/components/step-up-finish';
import { translator } from '~/i18n/i18next.server';
import { useTranslation } from '~/i18n/react';
import { loaderFailure, upstreamApi, UpstreamError, UpstreamUnavailable } from '~/upstream/api.server';
import { addPasskey, listPasskeys, removePasskey, renamePasskey } from '~/upstream/passkeys.server';
import { confirmAuthenticator, securityStatus, startAuthenticator, turnOffAuthenticator } from '~/upstream/security.server';
import { deviceName } from '~/utils/device-name';
import { invalid, readForm, replyWithFailure } from '~/utils/form-action.server';
import { requireRealAccount } from '~/utils/guards.server';
import { pageTitle } from '~/utils/page-title';
import { endOtherSessions, redirectWithToast } from '~/utils/session.server';
import { askStepUp, forgetKeptForm, keptForm, needsStepUp, readyToFinish, resumeStepUp } from '~/utils/step-up.server';
import mineCss from '~/styles/mine.css?inline';
import { dropSetup, keepRecoveryCodes, keepSetup, pendingSetup, takeRecoveryCodes } from './kept.server';
import { AuthenticatorSetup, RecoveryCodes, SecurityStatusCard } from './parts';
import { PasskeyList } from './passkeys';

export { DemoBlockedBoundary as ErrorBoundary } from '~/components/demo-blocked';

export const meta: MetaFunction<typeof loader> = (args) => pageTitle(args, args.data?.title);

const PATH = '/mine/security';

/** A passkey's fields (the upstream checks them again): its id, a name, the browser's answer when adding one. */
const PasskeyFields = z.object({
  id: z.string().max(512).optional(),
  name: z.string().trim().min(1).max(PASSKEY_NAME_MAX).optional(),
  answer: z.string().max(PASSKEY_ANSWER_MAX).optional(),
});

/**
 * The loader hands out the recovery codes once: a revalidation the live stream asks for (another device signed out,
 * the feed reconnected) must not take them off the page. A navigation or a post still loads anew.
 */
export const shouldRevalidate: ShouldRevalidateFunction = ({ formMethod, currentUrl, nextUrl, defaultShouldRevalidate }) =>
  formMethod !== undefined || currentUrl.href !== nextUrl.href ? defaultShouldRevalidate : false;

export async function loader({ request, context }: LoaderFunctionArgs) {
  await requireRealAccount(request);
  const api = await upstreamApi(request, context);
  const status = await securityStatus(api).catch((error: unknown) => loaderFailure(request, error));
  if (!status) throw new Response('Not found', { status: 404 });
  const { t } = await translator(request, 'security');
  const [setup, codes, finishing, passkeys] = await Promise.all([
    status.authenticatorOn ? null : pendingSetup(request),
    takeRecoveryCodes(request),
    readyToFinish(request, 'factor_off'),
    listPasskeys(api).catch((error: unknown) => loaderFailure(request, error)),
  ]);
  // What the confirmed step-up finishes: removing a passkey, or turning the authenticator off.
  const kept = finishing ? await keptForm(request, finishing) : null;
  const removing = kept?.fields.some(([name, value]) => name === 'intent' && value === 'passkey-remove');
  const { browser, os } = deviceName(request.headers.get('user-agent') ?? '');
  // Drawn here, so the page needs no script for it and the CSP no exception.
  const qr = setup ? await QRCode.toString(setup.uri, { type: 'svg', margin: 1, errorCorrectionLevel: 'M' }) : null;
  return {
    title: t('title'),
    status,
    setup: setup ? { secret: setup.secret, qr: qr! } : null,
    codes,
    finishing:
      finishing && (removing || status.authenticatorOn) ? { id: finishing, label: removing ? t('passkey.remove') : t('off.submit') } : null,
    passkeys: passkeys ?? [],
    suggestedName: os ?? browser ?? t('passkey.title'),
    nameMax: PASSKEY_NAME_MAX,
    constraint: getZodConstraint(FactorCodeFormSchema),
  };
}

export async function action({ request, context }: ActionFunctionArgs) {
  await requireRealAccount(request);
  const { formData: posted, submission } = await readForm(request, FactorCodeFormSchema);
  const api = await upstreamApi(request, context);
  const { t } = await translator(request, 'security');
  const { formData, grant, keptId } = await resumeStepUp(request, posted, 'factor_off');
  const intent = formData.get('intent');
  const plain = parseWithZod(formData, { schema: z.object({}) });
  try {
    if (intent === 'setup') {
      await keepSetup(request, await startAuthenticator(api));
      return redirect(`${PATH}#setup`);
    }
    if (intent === 'cancel-setup') {
      await dropSetup(request);
      return redirect(PATH);
    }
    if (intent === 'confirm') {
      if (submission.status !== 'success') return invalid(submission);
      const codes = await confirmAuthenticator(api, submission.value.code);
      // The upstream ended the user's other sessions (a factor now guards the account): their rows go too.
      await Promise.all([keepRecoveryCodes(request, codes), dropSetup(request), endOtherSessions(request)]);
      return await redirectWithToast(request, `${PATH}#codes`, { kind: 'success', message: t('setup.done') });
    }
    if (intent === 'off') {
      await turnOffAuthenticator(api, grant);
      await forgetKeptForm(keptId);
      return await redirectWithToast(request, PATH, { kind: 'success', message: t('off.done') });
    }
    const passkey = PasskeyFields.safeParse(Object.fromEntries(formData));
    if (intent === 'passkey-add' && passkey.success) {
      const before = await securityStatus(api);
      await addPasskey(api, passkey.data.name ?? '', passkey.data.answer ?? '');
      // The account's first factor: the upstream ended its other sessions, so their rows go too.
      if (before && !before.authenticatorOn && before.passkeys === 0) await endOtherSessions(request);
      return await redirectWithToast(request, `${PATH}#passkeys`, { kind: 'success', message: t('passkey.addedDone') });
    }
    if (intent === 'passkey-rename' && passkey.success) {
      await renamePasskey(api, passkey.data.id ?? '', passkey.data.name ?? '');
      return await redirectWithToast(request, `${PATH}#passkeys`, { kind: 'success', message: t('passkey.renamed') });
    }
    if (intent === 'passkey-remove' && passkey.success) {
      await removePasskey(api, passkey.data.id ?? '', grant);
      await forgetKeptForm(keptId);
      return await redirectWithToast(request, `${PATH}#passkeys`, { kind: 'success', message: t('passkey.removed') });
    }
    throw new Response('Bad request', { status: 400 });
  } catch (error) {
    if ((intent === 'off' || intent === 'passkey-remove') && needsStepUp(error)) return askStepUp(request, 'factor_off', formData, PATH);
    if (intent === 'confirm' && (error instanceof UpstreamError || error instanceof UpstreamUnavailable))
      return replyWithFailure(request, submission, error);
    if (error instanceof UpstreamError || error instanceof UpstreamUnavailable) return replyWithFailure(request, plain, error);
    throw error;
  }
}

export default function SecurityPage() {
  const { status, setup, codes, finishing, passkeys, suggestedName, nameMax, constraint } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const { t } = useTranslation('security');
  const lastResult = actionData && 'result' in actionData ? actionData.result : undefined;
  return (
    <main className="page invite-page">
      {/* The screen's stylesheet comes with its markup (decision 0020). */}
      <style dangerouslySetInnerHTML={{ __html: mineCss }} />
      <PageHeader title={t('title')} back="/mine" />
      {codes ? <RecoveryCodes codes={codes} /> : null}
      {setup ? (
        <AuthenticatorSetup secret={setup.secret} qr={setup.qr} constraint={constraint} lastResult={lastResult} />
      ) : (
        <SecurityStatusCard status={status} lastResult={lastResult} />
      )}
      {setup ? null : <PasskeyList passkeys={passkeys} suggestedName={suggestedName} nameMax={nameMax} />}
      {finishing && !actionData ? <StepUpFinish id={finishing.id} label={finishing.label} cancelTo={PATH} danger /> : null}
    </main>
  );
}
