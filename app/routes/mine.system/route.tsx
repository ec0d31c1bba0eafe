/**
 * /mine/system ("Other", spec §2): the app version and, for a signed-in user, "Log out". Logging out asks
 * first: `?confirm=logout` renders the confirmation, whose button posts to /logout.
 */
import type { LinksFunction, LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { Link, useLoaderData, useSearchParams } from '@remix-run/react';
import { useTranslation } from 'react-i18next';
import { ConfirmDialog } from '~/components/confirm-dialog';
import { PageHeader } from '~/components/page-header';
import { getSignedIn } from '~/utils/session.server';
import styles from '~/styles/mine.css?url';
import { APP_VERSION } from './app-version';

export const meta: MetaFunction = () => [{ title: 'Other' }];

export const links: LinksFunction = () => [{ rel: 'stylesheet', href: styles }];

export async function loader({ request }: LoaderFunctionArgs) {
  return { signedIn: (await getSignedIn(request)) !== null, version: APP_VERSION };
}

export default function SystemPage() {
  const { signedIn, version } = useLoaderData<typeof loader>();
  const { t } = useTranslation('mine');
  const [searchParams] = useSearchParams();
  return (
    <main className="page">
      <PageHeader title={t('system.title')} back="/mine" />
      <dl className="mine-details">
        <dt>{t('system.version')}</dt>
        <dd className="mine-number">{version}</dd>
      </dl>
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
