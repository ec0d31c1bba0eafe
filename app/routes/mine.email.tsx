/**
 * /mine/email, the complaint e-mail (spec §2): the contact address to write to (mailto) or to copy — with
 * JavaScript a Copy button and "copy success"; without it the address is selectable text.
 */
import type { LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { useLoaderData } from '@remix-run/react';
import { useTranslation } from '~/i18n/react';
import { CopyField } from '~/components/copy-field';
import { PageHeader } from '~/components/page-header';
import { translator } from '~/i18n/i18next.server';
import { loaderFailure, upstreamApi } from '~/upstream/api.server';
import { complaintEmail } from '~/upstream/content.server';
import contentCss from '~/styles/content.css?inline';
import { pageTitle } from '~/utils/page-title';

export const meta: MetaFunction<typeof loader> = (args) => pageTitle(args, args.data?.title);

export async function loader({ request, context }: LoaderFunctionArgs) {
  const [api, { t }] = await Promise.all([upstreamApi(request, context), translator(request, 'mine')]);
  try {
    return { title: t('entries.email'), email: await complaintEmail(api) };
  } catch (error) {
    return loaderFailure(request, error);
  }
}

export default function ComplaintEmailPage() {
  const { email } = useLoaderData<typeof loader>();
  const { t } = useTranslation(['mine', 'content']);
  return (
    <main className="page content-page">
      {/* The screen's stylesheet comes with its markup (decision 0020). */}
      <style dangerouslySetInnerHTML={{ __html: contentCss }} />
      <PageHeader title={t('entries.email')} back="/mine" />
      <section className="content-card" aria-label={t('entries.email')}>
        <p>{t('content:email.lead')}</p>
        <CopyField label={t('content:email.address')} value={email} />
        <a className="button block" href={`mailto:${email}`}>
          {t('content:email.write')}
        </a>
      </section>
    </main>
  );
}
