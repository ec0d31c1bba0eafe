/** /mine/announcement (spec §1, §2): the upstream's announcement, naming the countries the service is not offered to. */
import type { LinksFunction, LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { useLoaderData } from '@remix-run/react';
import { useTranslation } from 'react-i18next';
import { PageHeader } from '~/components/page-header';
import { loaderFailure, upstreamApi } from '~/upstream/api.server';
import { announcementOf } from '~/upstream/content.server';
import styles from '~/styles/funds.css?url';

export const meta: MetaFunction<typeof loader> = ({ data }) => (data ? [{ title: data.title }] : []);

export const links: LinksFunction = () => [{ rel: 'stylesheet', href: styles }];

export async function loader({ request, context }: LoaderFunctionArgs) {
  const api = await upstreamApi(request, context);
  try {
    return await announcementOf(api);
  } catch (error) {
    return loaderFailure(request, error);
  }
}

export default function AnnouncementPage() {
  const { paragraphs, blockedCountries } = useLoaderData<typeof loader>();
  const { t } = useTranslation('mine');
  return (
    <main className="page funds-page">
      <PageHeader title={t('entries.announcement')} back="/mine" />
      <article className="funds-card announcement">
        {paragraphs.map((p) => (
          <p key={p}>{p}</p>
        ))}
        <ul aria-label={t('announcement.countries')}>
          {blockedCountries.map((c) => (
            <li key={c}>{c}</li>
          ))}
        </ul>
      </article>
    </main>
  );
}
