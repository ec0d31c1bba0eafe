/**
 * /mine/invite (spec §2): the invite code, the invite link (the register page with `invite_code`) to
 * copy or to scan as a QR code drawn on the server, and how many friends registered with it.
 * Demo accounts see "Please register or log in to a real account".
 */
import type { LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { useLoaderData } from '@remix-run/react';
import QRCode from 'qrcode';
import { useTranslation } from '~/i18n/react';
import { CopyField } from '~/components/copy-field';
import { PageHeader } from '~/components/page-header';
import { translator } from '~/i18n/i18next.server';
import { inviteInfo } from '~/upstream/account.server';
import { loaderFailure, upstreamApi } from '~/upstream/api.server';
import { requireRealAccount } from '~/utils/guards.server';
import mineCss from '~/styles/mine.css?inline';
import { pageTitle } from '~/utils/page-title';

export { DemoBlockedBoundary as ErrorBoundary } from '~/components/demo-blocked';

export const meta: MetaFunction<typeof loader> = (args) => pageTitle(args, args.data?.title);

export async function loader({ request, context }: LoaderFunctionArgs) {
  await requireRealAccount(request);
  const api = await upstreamApi(request, context);
  const { t } = await translator(request, 'mine');
  try {
    const { data } = await inviteInfo(api);
    const link = new URL(`/register?invite_code=${encodeURIComponent(data.invite_code)}`, new URL(request.url).origin).href;
    // Drawn here, so the page needs no script for it and the phone no extra request.
    const qr = await QRCode.toString(link, {
      type: 'svg',
      margin: 1,
      errorCorrectionLevel: 'M',
      color: { dark: '#000000', light: '#ffffff' },
    });
    return { title: t('entries.invite'), code: data.invite_code, invited: data.invited, link, qr };
  } catch (error) {
    return loaderFailure(request, error);
  }
}

export default function InvitePage() {
  const { code, invited, link, qr } = useLoaderData<typeof loader>();
  const { t } = useTranslation('mine');
  return (
    <main className="page invite-page">
      {/* The screen's stylesheet comes with its markup (decision 0020). */}
      <style dangerouslySetInnerHTML={{ __html: mineCss }} />
      <PageHeader title={t('entries.invite')} back="/mine" />
      <section className="invite-card">
        <p className="invite-lead">{t('invite.lead')}</p>
        <CopyField label={t('invite.code')} value={code} />
        <CopyField label={t('invite.link')} value={link} />
        <figure className="qr">
          <div role="img" aria-label={t('invite.qr')} dangerouslySetInnerHTML={{ __html: qr }} />
          <figcaption className="muted">{t('invite.qr')}</figcaption>
        </figure>
        <p className="invite-count">{t('invite.invited', { count: invited })}</p>
      </section>
    </main>
  );
}
