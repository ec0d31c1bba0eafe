/** /rank, the copy-trade ranking (spec §2): a tab page; the leaders list comes in a later release. */
import type { MetaFunction } from '@remix-run/node';
import { useTranslation } from 'react-i18next';
import { ComingSoon } from '~/components/coming-soon';
import type { RouteHandle } from '~/root';

export const handle: RouteHandle = { footer: true };

export const meta: MetaFunction = () => [{ title: 'Copy trading' }];

export default function RankingPage() {
  const { t } = useTranslation('mine');
  return <ComingSoon title={t('pages.rank')} back="/" />;
}
