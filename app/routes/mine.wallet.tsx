/** /mine/wallet (spec §2): demo accounts are blocked; the wallet comes in a later release. */
import type { LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { useTranslation } from 'react-i18next';
import { ComingSoon } from '~/components/coming-soon';
import { requireRealAccount } from '~/utils/guards.server';

export { DemoBlockedBoundary as ErrorBoundary } from '~/components/demo-blocked';

export const meta: MetaFunction = () => [{ title: 'Wallet' }];

export async function loader({ request }: LoaderFunctionArgs) {
  await requireRealAccount(request);
  return null;
}

export default function WalletPage() {
  const { t } = useTranslation('mine');
  return <ComingSoon title={t('entries.wallet')} back="/mine" />;
}
