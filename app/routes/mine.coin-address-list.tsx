/** /mine/coin-address-list (spec §2): needs an account; the list comes in a later release. */
import type { LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { useTranslation } from 'react-i18next';
import { ComingSoon } from '~/components/coming-soon';
import { requireSignedIn } from '~/utils/session.server';

export const meta: MetaFunction = () => [{ title: 'Coin addresses' }];

export async function loader({ request }: LoaderFunctionArgs) {
  await requireSignedIn(request);
  return null;
}

export default function CoinAddressesPage() {
  const { t } = useTranslation('mine');
  return <ComingSoon title={t('pages.coinAddresses')} back="/mine/wallet" />;
}
