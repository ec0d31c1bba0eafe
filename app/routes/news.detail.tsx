/** /news/detail?id=, a news article (spec §2): comes in a later release. */
import type { MetaFunction } from '@remix-run/node';
import { useTranslation } from 'react-i18next';
import { ComingSoon } from '~/components/coming-soon';

export const meta: MetaFunction = () => [{ title: 'News' }];

export default function NewsArticlePage() {
  const { t } = useTranslation('mine');
  return <ComingSoon title={t('pages.newsDetail')} back="/news" />;
}
