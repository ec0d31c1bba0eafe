/** /feedback (spec §2): an empty stub for now. */
import type { MetaFunction } from '@remix-run/node';
import { useTranslation } from '~/i18n/react';
import { ComingSoon } from '~/components/coming-soon';
import { namedPageTitle } from '~/utils/page-title';

export const meta: MetaFunction = (args) => namedPageTitle(args, 'feedback');

export default function FeedbackPage() {
  const { t } = useTranslation('mine');
  return <ComingSoon title={t('pages.feedback')} back="/" />;
}
