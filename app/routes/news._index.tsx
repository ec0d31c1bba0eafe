/** /news, the news list (spec §2): a tab page; the list comes in a later release. */
import type { MetaFunction } from '@remix-run/node';
import { useTranslation } from 'react-i18next';
import { ComingSoon } from '~/components/coming-soon';
import type { RouteHandle } from '~/root';

export const handle: RouteHandle = { footer: true };

export const meta: MetaFunction = () => [{ title: 'News' }];

export default function NewsPage() {
  const { t } = useTranslation('mine');
  return <ComingSoon title={t('pages.news')} back="/" />;
}
