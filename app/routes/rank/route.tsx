/**
 * /rank, the copy-trade ranking (spec §1, §2): leaders with their three-week figures, best first, twenty
 * a page. Tapping one says that following is coming soon: a toast with JavaScript; without it the link
 * `?page=<its page>&leader=<id>` renders the same notice.
 */
import type { LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { useLoaderData } from '@remix-run/react';
import { useState } from 'react';
import { useTranslation } from '~/i18n/react';
import { NextPageLink, usePagedList, type ListPage } from '~/components/endless-list';
import { PageHeader } from '~/components/page-header';
import { ToastBanner } from '~/components/toast';
import { translator } from '~/i18n/i18next.server';
import type { RouteHandle } from '~/root';
import { loaderFailure, upstreamApi } from '~/upstream/api.server';
import { leaderPage, type Leader } from '~/upstream/content.server';
import contentCss from '~/styles/content.css?inline';
import { LeaderRow } from './leader-row';
import { pageTitle } from '~/utils/page-title';

export const handle: RouteHandle = { footer: true };

export const meta: MetaFunction<typeof loader> = (args) => pageTitle(args, args.data?.title);

export async function loader({ request, context }: LoaderFunctionArgs) {
  const params = new URL(request.url).searchParams;
  const page = Math.min(Math.max(Math.trunc(Number(params.get('page'))) || 1, 1), 1000);
  const [api, { t }] = await Promise.all([upstreamApi(request, context), translator(request, 'content')]);
  try {
    const list: ListPage<Leader> = { list: 'leaders', page, ...(await leaderPage(api, page)) };
    // The tapped leader is on the page its link names.
    const tapped = list.items.find((l) => String(l.id) === params.get('leader'));
    return { ...list, title: t('rank.title'), comingSoonFor: tapped?.name ?? null };
  } catch (error) {
    return loaderFailure(request, error);
  }
}

const rankUrl = (page: number) => `/rank?page=${page}`;

export default function RankingPage() {
  const data = useLoaderData<typeof loader>();
  const { t } = useTranslation('content');
  const list = usePagedList<Leader>(data, (l) => l.id, rankUrl);
  // Each tap is a new toast, even on the same leader.
  const [tap, setTap] = useState<{ name: string; n: number } | null>(null);
  const comingSoonFor = tap?.name ?? data.comingSoonFor;
  const pageOf = new Map(list.pages.flatMap((p) => p.items.map((l) => [l.id, p.page] as const)));
  return (
    <main className="page content-page">
      {/* The screen's stylesheet comes with its markup (decision 0020). */}
      <style dangerouslySetInnerHTML={{ __html: contentCss }} />
      <PageHeader title={t('rank.title')} />
      <p className="muted rank-lead">{t('rank.lead')}</p>
      {comingSoonFor ? (
        <ToastBanner
          key={tap?.n ?? 'link'}
          toast={{ kind: 'info', message: t('rank.comingSoon', { name: comingSoonFor }) }}
          dismissTo={rankUrl(data.page)}
        />
      ) : null}
      {list.items.length === 0 ? (
        <p className="empty">{t('rank.empty')}</p>
      ) : (
        <ol className="rank-list" aria-label={t('rank.title')}>
          {list.items.map((l) => (
            <li key={l.id}>
              <LeaderRow
                leader={l}
                to={`/rank?page=${pageOf.get(l.id) ?? data.page}&leader=${l.id}`}
                onTap={(leader) => setTap((before) => ({ name: leader.name, n: (before?.n ?? 0) + 1 }))}
              />
            </li>
          ))}
        </ol>
      )}
      {list.hasMore ? <NextPageLink to={list.nextUrl} loading={list.loading} onLoad={list.loadMore} /> : null}
    </main>
  );
}
