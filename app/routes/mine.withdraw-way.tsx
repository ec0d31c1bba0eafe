/** /mine/withdraw-way?type=1|2, binding a coin address or bank account (spec §2): needs an account; comes in a later release. */
import type { LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { useTranslation } from 'react-i18next';
import { ComingSoon } from '~/components/coming-soon';
import { requireSignedIn } from '~/utils/session.server';

export const meta: MetaFunction = () => [{ title: 'Withdrawal method' }];

export async function loader({ request }: LoaderFunctionArgs) {
  await requireSignedIn(request);
  return null;
}

export default function WithdrawWayPage() {
  const { t } = useTranslation('mine');
  return <ComingSoon title={t('pages.withdrawWay')} back="/mine/withdraw" />;
}
