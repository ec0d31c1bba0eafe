/**
 * /mine/system ("Other", spec §2): the app version, the "Low data mode" switch (issue 12) and, for a
 * signed-in user, "Log out". Logging out asks first: `?confirm=logout` renders the confirmation, whose
 * button posts to /logout.
 *
 * Low data mode is a plain POST (with its CSRF token) that sets or clears a cookie; the live stream then
 * sends prices at most once a second. The form reloads the document even with JavaScript, so the page's
 * stream reopens with the new choice at once.
 *
 * One-tap trading (issue 13) is the same kind of switch: a cookie of this device; on, the order ticket places
 * an order with one tap instead of asking to confirm it first (docs/decisions/0014-one-tap-trading.md).
 */
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { Link, useLoaderData, useSearchParams } from '@remix-run/react';
import { useTranslation } from '~/i18n/react';
import { ConfirmDialog } from '~/components/confirm-dialog';
import { PageHeader } from '~/components/page-header';
import { translator } from '~/i18n/i18next.server';
import { readBoundedForm } from '~/utils/bounded-form.server';
import { validateCsrf } from '~/utils/csrf.server';
import { lowDataChosen, lowDataCookieHeader, saveDataRequested } from '~/utils/low-data.server';
import { oneTapChosen, oneTapCookieHeader } from '~/utils/one-tap.server';
import { getSignedIn, redirectWithToast } from '~/utils/session.server';
import mineCss from '~/styles/mine.css?inline';
import { APP_VERSION } from './app-version';
import { CookieSwitch } from './cookie-switch';
import { namedPageTitle } from '~/utils/page-title';

export const meta: MetaFunction = (args) => namedPageTitle(args, 'system');

export async function loader({ request }: LoaderFunctionArgs) {
  return {
    signedIn: (await getSignedIn(request)) !== null,
    version: APP_VERSION,
    lowData: lowDataChosen(request),
    saveData: saveDataRequested(request),
    oneTap: oneTapChosen(request),
  };
}

export async function action({ request }: ActionFunctionArgs) {
  const formData = await readBoundedForm(request);
  await validateCsrf(formData, request.headers);
  const { t } = await translator(request, 'mine');
  if (formData.get('intent') === 'one-tap') {
    const oneTap = formData.get('oneTap');
    if (oneTap !== 'on' && oneTap !== 'off') throw new Response('Bad request', { status: 400 });
    return redirectWithToast(
      request,
      '/mine/system',
      { kind: 'success', message: t(oneTap === 'on' ? 'system.oneTapTurnedOn' : 'system.oneTapTurnedOff') },
      { headers: { 'Set-Cookie': oneTapCookieHeader(oneTap === 'on') } },
    );
  }
  const choice = formData.get('lowData');
  if (formData.get('intent') !== 'low-data' || (choice !== 'on' && choice !== 'off')) throw new Response('Bad request', { status: 400 });
  const on = choice === 'on';
  return redirectWithToast(
    request,
    '/mine/system',
    { kind: 'success', message: t(on ? 'system.lowDataTurnedOn' : 'system.lowDataTurnedOff') },
    { headers: { 'Set-Cookie': lowDataCookieHeader(on) } },
  );
}

export default function SystemPage() {
  const { signedIn, version, lowData, saveData, oneTap } = useLoaderData<typeof loader>();
  const { t } = useTranslation('mine');
  const [searchParams] = useSearchParams();
  return (
    <main className="page">
      {/* The screen's stylesheet comes with its markup (decision 0020). */}
      <style dangerouslySetInnerHTML={{ __html: mineCss }} />
      <PageHeader title={t('system.title')} back="/mine" />
      <dl className="mine-details">
        <dt>{t('system.version')}</dt>
        <dd className="mine-number">{version}</dd>
      </dl>
      <CookieSwitch
        intent="low-data"
        name="lowData"
        on={lowData}
        label={t('system.lowData')}
        hintId="low-data-hint"
        hint={
          <>
            {t('system.lowDataHint')}
            {saveData && !lowData ? ` ${t('system.lowDataSaver')}` : null}
          </>
        }
        className="low-data"
        reloadDocument
      />
      <CookieSwitch
        intent="one-tap"
        name="oneTap"
        on={oneTap}
        label={t('system.oneTap')}
        hintId="one-tap-hint"
        hint={t('system.oneTapHint')}
        className="low-data one-tap"
      />
      {signedIn ? (
        <ul className="list mine-entries">
          <li>
            <Link to="/mine/system?confirm=logout" className="list-item" preventScrollReset>
              <span className="grow danger">{t('common:actions.logout')}</span>
            </Link>
          </li>
        </ul>
      ) : null}
      {signedIn && searchParams.get('confirm') === 'logout' ? (
        <ConfirmDialog
          title={t('logout.title')}
          message={t('logout.message')}
          confirmLabel={t('common:actions.logout')}
          action="/logout"
          cancelTo="/mine/system"
          danger
        />
      ) : null}
    </main>
  );
}
