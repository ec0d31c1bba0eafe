/** /news (spec §2): the market news, newest first, a page at a time (endless with JavaScript). */
import type { LinksFunction, LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { Link, useLoaderData } from '@remix-run/react';
import { useCallback } from 'react';
import { useTranslation } from 'react-i18next';
import { NEWS_PAGE_SIZE } from '#contract/calls/content';
import { NextPageLink, usePagedList, type ListPage } from '~/components/endless-list';
import { PageHeader } from '~/components/page-header';
import { translator } from '~/i18n/i18next.server';
import type { RouteHandle } from '~/root';
import { loaderFailure, upstreamApi } from '~/upstream/api.server';
import { newsPage, type NewsItem } from '~/upstream/content.server';
import { useLocale } from '~/utils/locale';
import styles from '~/styles/funds.css?url';

export const handle: RouteHandle = { footer: true };

export const meta: MetaFunction<typeof loader> = ({ data }) => (data ? [{ title: data.title }] : []);

export const links: LinksFunction = () => [{ rel: 'stylesheet', href: styles }];

export async function loader({ request, context }: LoaderFunctionArgs) {
  const page = Math.min(Math.max(Number(new URL(request.url).searchParams.get('page')) || 1, 1), 10_000);
  const api = await upstreamApi(request, context);
  const { t } = await translator(request, 'mine');
  try {
    const { items, total } = await newsPage(api, page);
    const list: ListPage<NewsItem> = { list: 'news', page, items, hasMore: page * NEWS_PAGE_SIZE < total };
    return { ...list, title: t('pages.news') };
  } catch (error) {
    return loaderFailure(request, error);
  }
}

export function NewsDate({ iso }: { iso: string }) {
  const locale = useLocale();
  return (
    <time dateTime={iso} className="muted">
      {new Intl.DateTimeFormat(locale, { dateStyle: 'medium' }).format(new Date(iso))}
    </time>
  );
}

export default function NewsPage() {
  const data = useLoaderData<typeof loader>();
  const { t } = useTranslation('mine');
  const list = usePagedList<NewsItem>(
    data,
    (n) => n.id,
    useCallback((n: number) => `/news?page=${n}`, []),
  );
  return (
    <main className="page funds-page">
      <PageHeader title={t('pages.news')} />
      {list.items.length === 0 ? (
        <p className="empty">{t('news.empty')}</p>
      ) : (
        <ul className="news-list" aria-label={t('pages.news')}>
          {list.items.map((n) => (
            <li key={n.id}>
              <Link to={`/news/detail?id=${n.id}`} className="news-item">
                {n.logo ? (
                  <img src={n.logo} alt="" width={48} height={48} loading="lazy" />
                ) : (
                  <span className="news-logo" aria-hidden="true" />
                )}
                <span className="news-text">
                  <strong>{n.title}</strong>
                  <span className="muted">{n.summary}</span>
                  <NewsDate iso={n.date} />
                </span>
              </Link>
            </li>
          ))}
        </ul>
      )}
      {list.hasMore ? <NextPageLink to={list.nextUrl} loading={list.loading} onLoad={list.loadMore} /> : null}
    </main>
  );
}
