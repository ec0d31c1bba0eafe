/**
 * What a demo account sees on the pages it may not open (spec §4, §6): the message to use a real account,
 * with links to register and log in. `requireRealAccount` throws a 403 with DEMO_BLOCKED as its data;
 * each guarded route exports `DemoBlockedBoundary` as its ErrorBoundary to render it inside the app.
 */
import { isRouteErrorResponse, Link, useLocation, useRouteError } from '@remix-run/react';
import { useTranslation } from '~/i18n/react';
import { isDemoBlocked } from '~/utils/demo-blocked';
import { PageHeader } from './page-header';

function DemoBlocked() {
  const { t } = useTranslation('mine');
  const { pathname } = useLocation();
  const from = new URLSearchParams({ from: pathname }).toString();
  return (
    <main className="page">
      <PageHeader title={t('demoBlocked.title')} back="/mine" />
      <div className="notice warn" role="alert">
        <p>{t('common:errors.demoBlocked')}</p>
        <p className="link-row">
          <Link to={`/register?${from}`}>{t('common:actions.register')}</Link>
          <Link to={`/login?${from}`}>{t('common:actions.login')}</Link>
        </p>
      </div>
    </main>
  );
}

/** The ErrorBoundary of a demo-blocked route; any other failure gets the usual error page words. */
export function DemoBlockedBoundary() {
  const error = useRouteError();
  const { t } = useTranslation();
  if (isDemoBlocked(error)) return <DemoBlocked />;
  const status = isRouteErrorResponse(error) ? error.status : 500;
  const detail = isRouteErrorResponse(error) && status === 503 && typeof error.data === 'string' ? error.data : null;
  return (
    <main className="page error-page">
      <h1>{status === 503 ? t('errorPage.unavailableTitle') : t('errorPage.title')}</h1>
      <p>{detail ?? t('errorPage.retry')}</p>
      <p className="error-actions">
        <a href="">{t('errorPage.reload')}</a>
        <a href="/">{t('errorPage.home')}</a>
      </p>
    </main>
  );
}
