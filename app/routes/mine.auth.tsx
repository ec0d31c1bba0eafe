/** /mine/auth, identity verification (spec §2): demo accounts are blocked; the form comes in a later release. */
import type { LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { useTranslation } from 'react-i18next';
import { ComingSoon } from '~/components/coming-soon';
import { requireRealAccount } from '~/utils/guards.server';

export { DemoBlockedBoundary as ErrorBoundary } from '~/components/demo-blocked';

export const meta: MetaFunction = () => [{ title: 'Real-name authentication' }];

export async function loader({ request }: LoaderFunctionArgs) {
  await requireRealAccount(request);
  return null;
}

export default function IdentityPage() {
  const { t } = useTranslation('mine');
  return <ComingSoon title={t('entries.auth')} back="/mine" />;
}
