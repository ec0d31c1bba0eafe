/** /mine/email, the complaint e-mail (spec §2): comes in a later release. */
import type { MetaFunction } from '@remix-run/node';
import { useTranslation } from 'react-i18next';
import { ComingSoon } from '~/components/coming-soon';

export const meta: MetaFunction = () => [{ title: 'Complaint e-mail' }];

export default function ComplaintEmailPage() {
  const { t } = useTranslation('mine');
  return <ComingSoon title={t('entries.email')} back="/mine" />;
}
