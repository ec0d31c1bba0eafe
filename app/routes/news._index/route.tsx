/**
 * /news (spec §2): the market news, newest first, a page at a time: page links without JavaScript, an
 * endless list with it; while an article opens, its placeholder (spec §7 "news/info shows loading").
 */
import type { LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { Link, useLoaderData, useNavigation } from '@remix-run/react';
import { useTranslation } from '~/i18n/react';
import { NextPageLink, usePagedList, type ListPage } from '~/components/endless-list';
import { NewsDate } from '~/components/news-date';
import { PageHeader } from '~/components/page-header';
import { translator } from '~/i18n/i18next.server';
import type { RouteHandle } from '~/root';
import { loaderFailure, upstreamApi } from '~/upstream/api.server';
import { newsPage, type NewsItem } from '~/upstream/content.server';
import contentCss from '~/styles/content.css?inline';
import { ArticleSkeleton, NewsRowsSkeleton } from './news-skeleton';
import { pageTitle } from '~/utils/page-title';

export const handle: RouteHandle = { footer: true };

export const meta: MetaFunction<typeof loader> = (args) => pageTitle(args, args.data?.title);

export async function loader({ request, context }: LoaderFunctionArgs) {
  const page = Math.min(Math.max(Math.trunc(Number(new URL(request.url).searchParams.get('page'))) || 1, 1), 10_000);
  const [api, { t }] = await Promise.all([upstreamApi(request, context), translator(request, 'content')]);
  try {
    const list: ListPage<NewsItem> = { list: 'news', page, ...(await newsPage(api, page)) };
    return { ...list, title: t('news.title') };
  } catch (error) {
    return loaderFailure(request, error);
  }
}

const newsUrl = (page: number) => `/news?page=${page}`;

export default function NewsPage() {
  const data = useLoaderData<typeof loader>();
  const { t } = useTranslation('content');
  const navigation = useNavigation();
  const list = usePagedList<NewsItem>(data, (n) => n.id, newsUrl);
  const openingArticle = navigation.state === 'loading' && navigation.location.pathname === '/news/detail';
  return (
    <main className="page content-page">
      {/* The screen's stylesheet comes with its markup (decision 0020). */}
      <style dangerouslySetInnerHTML={{ __html: contentCss }} />
      <PageHeader title={t('news.title')} />
      {openingArticle ? (
        <ArticleSkeleton />
      ) : list.items.length === 0 ? (
        <p className="empty">{t('news.empty')}</p>
      ) : (
        <>
          <ul className="news-list" aria-label={t('news.title')}>
            {list.items.map((n) => (
              <li key={n.id}>
                <Link to={`/news/detail?id=${n.id}`} className="news-item">
                  {n.logo ? (
                    <img className="news-logo" src={n.logo} alt="" width={48} height={48} loading="lazy" />
                  ) : (
                    <span className="news-logo" aria-hidden="true" />
                  )}
                  <span className="news-text">
                    <strong dir="auto">{n.title}</strong>
                    <span className="news-summary" dir="auto">
                      {n.summary}
                    </span>
                    <NewsDate iso={n.publishedAt} />
                  </span>
                </Link>
              </li>
            ))}
          </ul>
          {list.loading ? <NewsRowsSkeleton rows={3} /> : null}
          {list.hasMore ? <NextPageLink to={list.nextUrl} loading={list.loading} onLoad={list.loadMore} /> : null}
        </>
      )}
    </main>
  );
}
