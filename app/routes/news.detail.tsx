/** /news/detail?id= (spec §2): one article, its HTML sanitised on the server before it reaches the page. */
import type { LinksFunction, LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { useLoaderData } from '@remix-run/react';
import { useTranslation } from 'react-i18next';
import { PageHeader } from '~/components/page-header';
import { translator } from '~/i18n/i18next.server';
import { loaderFailure, upstreamApi, UpstreamError } from '~/upstream/api.server';
import { newsArticle } from '~/upstream/content.server';
import { sanitizeNews } from '~/utils/sanitize-html.server';
import styles from '~/styles/funds.css?url';
import { NewsDate } from './news._index';

export const meta: MetaFunction<typeof loader> = ({ data }) => (data ? [{ title: data.title }] : []);

export const links: LinksFunction = () => [{ rel: 'stylesheet', href: styles }];

export async function loader({ request, context }: LoaderFunctionArgs) {
  const id = Number(new URL(request.url).searchParams.get('id'));
  const { t } = await translator(request, 'mine');
  if (!Number.isInteger(id) || id <= 0) throw new Response(t('news.missing'), { status: 404 });
  const api = await upstreamApi(request, context);
  try {
    const article = await newsArticle(api, id);
    return { title: article.title, date: article.date, html: sanitizeNews(article.html) };
  } catch (error) {
    if (error instanceof UpstreamError && error.code === 1003) throw new Response(t('news.missing'), { status: 404 });
    return loaderFailure(request, error);
  }
}

export default function NewsArticlePage() {
  const { title, date, html } = useLoaderData<typeof loader>();
  const { t } = useTranslation('mine');
  return (
    <main className="page funds-page">
      <PageHeader title={t('pages.newsDetail')} back="/news" />
      <article className="funds-card news-article">
        <h2>{title}</h2>
        <NewsDate iso={date} />
        {/* Sanitised on the server: a short list of harmless tags, images only through this server. */}
        <div className="news-body" dangerouslySetInnerHTML={{ __html: html }} />
      </article>
    </main>
  );
}
