/**
 * /news/detail?id= (spec §2): one article, its HTML sanitised on the server before it reaches the page;
 * an unknown or removed article is a 404 that says so in the user's language, with the way back.
 */
import type { LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { isRouteErrorResponse, Link, useLoaderData, useRouteError } from '@remix-run/react';
import { useTranslation } from '~/i18n/react';
import { NewsDate } from '~/components/news-date';
import { PageHeader } from '~/components/page-header';
import { translator } from '~/i18n/i18next.server';
import { loaderFailure, upstreamApi } from '~/upstream/api.server';
import { newsArticle } from '~/upstream/content.server';
import { sanitizeNews } from '~/utils/sanitize-html.server';
import contentCss from '~/styles/content.css?inline';
import { pageTitle } from '~/utils/page-title';

export const meta: MetaFunction<typeof loader> = (args) => pageTitle(args, args.data?.title);

export async function loader({ request, context }: LoaderFunctionArgs) {
  const id = Number(new URL(request.url).searchParams.get('id'));
  const { t } = await translator(request, 'content');
  const missing = () => new Response(t('news.missing'), { status: 404 });
  if (!Number.isSafeInteger(id) || id <= 0) throw missing();
  const api = await upstreamApi(request, context);
  let article;
  try {
    article = await newsArticle(api, id);
  } catch (error) {
    return loaderFailure(request, error);
  }
  if (!article) throw missing();
  return { title: article.title, publishedAt: article.publishedAt, html: sanitizeNews(article.html) };
}

export default function NewsArticlePage() {
  const { title, publishedAt, html } = useLoaderData<typeof loader>();
  const { t } = useTranslation('content');
  return (
    <main className="page content-page">
      {/* The screen's stylesheet comes with its markup (decision 0020). */}
      <style dangerouslySetInnerHTML={{ __html: contentCss }} />
      <PageHeader title={t('news.articleTitle')} back="/news" />
      <article className="content-card">
        <h2 dir="auto">{title}</h2>
        <NewsDate iso={publishedAt} />
        {/* Sanitised on the server: a short list of harmless tags, images only through this server. */}
        <div className="news-body" dir="auto" dangerouslySetInnerHTML={{ __html: html }} />
      </article>
    </main>
  );
}

/** A missing article says so and leads back to the news; any other failure reads as the site's error page. */
export function ErrorBoundary() {
  const error = useRouteError();
  const { t } = useTranslation('content');
  if (!isRouteErrorResponse(error) || error.status !== 404) {
    const unavailable = isRouteErrorResponse(error) && error.status === 503;
    return (
      <main className="page error-page">
        <h1>{t(unavailable ? 'common:errorPage.unavailableTitle' : 'common:errorPage.title')}</h1>
        <p>{unavailable && typeof error.data === 'string' ? error.data : t('common:errorPage.retry')}</p>
        <p className="error-actions">
          <a href="">{t('common:errorPage.reload')}</a>
          <Link to="/news">{t('news.back')}</Link>
        </p>
      </main>
    );
  }
  return (
    <main className="page content-page">
      {/* The screen's stylesheet comes with its markup (decision 0020). */}
      <style dangerouslySetInnerHTML={{ __html: contentCss }} />
      <PageHeader title={t('news.articleTitle')} back="/news" />
      <section className="empty" aria-labelledby="article-missing">
        <h2 id="article-missing">{t('news.missingTitle')}</h2>
        <p>{t('news.missing')}</p>
        <Link to="/news">{t('news.back')}</Link>
      </section>
    </main>
  );
}
