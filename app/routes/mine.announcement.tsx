/** /mine/announcement (spec §1, §2): the upstream's announcement, naming the countries the service is not offered to. */
import type { LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { useLoaderData } from '@remix-run/react';
import { useTranslation } from '~/i18n/react';
import { PageHeader } from '~/components/page-header';
import { translator } from '~/i18n/i18next.server';
import { loaderFailure, upstreamApi } from '~/upstream/api.server';
import { announcementOf } from '~/upstream/content.server';
import contentCss from '~/styles/content.css?inline';
import { pageTitle } from '~/utils/page-title';

export const meta: MetaFunction<typeof loader> = (args) => pageTitle(args, args.data?.pageTitle);

export async function loader({ request, context }: LoaderFunctionArgs) {
  const [api, { t }] = await Promise.all([upstreamApi(request, context), translator(request, 'mine')]);
  try {
    return { pageTitle: t('entries.announcement'), ...(await announcementOf(api)) };
  } catch (error) {
    return loaderFailure(request, error);
  }
}

export default function AnnouncementPage() {
  const { title, paragraphs, blockedCountries } = useLoaderData<typeof loader>();
  const { t } = useTranslation(['mine', 'content']);
  return (
    <main className="page content-page">
      {/* The screen's stylesheet comes with its markup (decision 0020). */}
      <style dangerouslySetInnerHTML={{ __html: contentCss }} />
      {/* The user centre's entry and this page carry one name. */}
      <PageHeader title={t('entries.announcement')} back="/mine" />
      <article className="content-card announcement" aria-labelledby="announcement-title">
        <h2 id="announcement-title">{title}</h2>
        {paragraphs.map((p, i) => (
          <p key={i}>{p}</p>
        ))}
        <ul aria-label={t('content:announcement.countries')}>
          {blockedCountries.map((c) => (
            <li key={c}>{c}</li>
          ))}
        </ul>
      </article>
    </main>
  );
}
