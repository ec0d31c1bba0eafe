/** /mine/invite (spec §2): demo accounts are blocked; the invite code and link come in a later release. */
import type { LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { useTranslation } from 'react-i18next';
import { ComingSoon } from '~/components/coming-soon';
import { requireRealAccount } from '~/utils/guards.server';

export { DemoBlockedBoundary as ErrorBoundary } from '~/components/demo-blocked';

export const meta: MetaFunction = () => [{ title: 'Invite friends' }];

export async function loader({ request }: LoaderFunctionArgs) {
  await requireRealAccount(request);
  return null;
}

export default function InvitePage() {
  const { t } = useTranslation('mine');
  return <ComingSoon title={t('entries.invite')} back="/mine" />;
}
