/** /mine/chat, the customer-service chat (spec §2): comes in a later release. */
import type { MetaFunction } from '@remix-run/node';
import { useTranslation } from 'react-i18next';
import { ComingSoon } from '~/components/coming-soon';

export const meta: MetaFunction = () => [{ title: 'Online service' }];

export default function ChatPage() {
  const { t } = useTranslation('mine');
  return <ComingSoon title={t('entries.chat')} back="/mine" />;
}
