/**
 * /mine/devices, "Signed-in devices" (issue 38): every session of the account with its device in plain words, its
 * masked address, when it signed in and was last seen; "Sign out" for each other device and "Sign out everywhere
 * else". Plain POST forms (CSRF, Post/Redirect/Get), so it works without JavaScript. Ending a device revokes its
 * token upstream and deletes the web session that holds it, so its next page, `/` too, is a visitor's
 * (docs/decisions/0040-ending-sessions.md). A 404 when the upstream does not offer the calls (a broker's backend).
 */
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { useLoaderData } from '@remix-run/react';
import { PageHeader } from '~/components/page-header';
import { translator } from '~/i18n/i18next.server';
import { useTranslation } from '~/i18n/react';
import { failureMessage, loaderFailure, upstreamApi, UpstreamError, UpstreamUnavailable } from '~/upstream/api.server';
import { endDevice, endOtherDevices, signedInDevices, tokenStillWorks } from '~/upstream/devices.server';
import { readBoundedForm } from '~/utils/bounded-form.server';
import { validateCsrf } from '~/utils/csrf.server';
import { pageTitle } from '~/utils/page-title';
import { deleteSessions, endOtherSessions, otherSessions, redirectWithToast, requireSignedIn } from '~/utils/session.server';
import devicesCss from './devices.css?inline';
import { DeviceList, EndOthersForm } from './device-list';

const PATH = '/mine/devices';

export const meta: MetaFunction<typeof loader> = (args) => pageTitle(args, args.data?.title);

export async function loader({ request, context }: LoaderFunctionArgs) {
  await requireSignedIn(request);
  const api = await upstreamApi(request, context);
  const { t } = await translator(request, 'devices');
  const devices = await signedInDevices(api).catch((error: unknown) => loaderFailure(request, error));
  if (!devices) throw new Response('Not found', { status: 404 });
  return { title: t('title'), devices };
}

export async function action({ request, context }: ActionFunctionArgs) {
  await requireSignedIn(request);
  const formData = await readBoundedForm(request);
  await validateCsrf(formData, request.headers);
  const { t } = await translator(request, 'devices');
  const api = await upstreamApi(request, context);
  const intent = formData.get('intent');
  try {
    if (intent === 'end-others') {
      await endOtherDevices(api);
      // Every other token of the account is revoked: every other web session of it goes.
      await endOtherSessions(request);
      return await redirectWithToast(request, PATH, { kind: 'success', message: t('endedOthers') });
    }
    const id = formData.get('id');
    if (intent !== 'end' || typeof id !== 'string' || id === '' || id.length > 128) throw new Response('Bad request', { status: 400 });
    const devices = await signedInDevices(api);
    const device = devices?.find((d) => d.id === id);
    // Gone already, or this very device (its own way out is "Log out").
    if (!device || device.current) return await redirectWithToast(request, PATH, { kind: 'info', message: t('gone') });
    await endDevice(api, id);
    // Which web session held that token only the upstream knows: the one whose token it now refuses.
    const others = await otherSessions(request);
    const works = await Promise.all(others.map((s) => tokenStillWorks(api, s.token)));
    await deleteSessions(others.filter((_, i) => !works[i]).map((s) => s.id));
    return await redirectWithToast(request, PATH, { kind: 'success', message: t('ended') });
  } catch (error) {
    if (error instanceof UpstreamError || error instanceof UpstreamUnavailable)
      return redirectWithToast(request, PATH, { kind: 'error', message: await failureMessage(request, error) });
    throw error;
  }
}

export default function DevicesPage() {
  const { title, devices } = useLoaderData<typeof loader>();
  const { t } = useTranslation('devices');
  const others = devices.filter((d) => !d.current).length;
  return (
    <main className="page devices-page">
      {/* The screen's stylesheet comes with its markup (decision 0020). */}
      <style dangerouslySetInnerHTML={{ __html: devicesCss }} />
      <PageHeader title={title} back="/mine/security" />
      <p className="muted devices-intro">{t('intro')}</p>
      <DeviceList devices={devices} />
      {others > 0 ? <EndOthersForm /> : <p className="muted devices-alone">{t('alone')}</p>}
    </main>
  );
}
