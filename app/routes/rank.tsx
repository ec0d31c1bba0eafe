/**
 * /rank, the copy-trade ranking (spec §1, §2): leaders with their three-week figures, best first; tapping
 * one says that following is coming soon (`?leader=<id>`, so it works without JavaScript too).
 */
import type { LinksFunction, LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { Link, useLoaderData, useSearchParams } from '@remix-run/react';
import { useCallback } from 'react';
import { useTranslation } from 'react-i18next';
import { LEADERS_PAGE_SIZE } from '#contract/calls/content';
import { NextPageLink, usePagedList, type ListPage } from '~/components/endless-list';
import { PageHeader } from '~/components/page-header';
import { translator } from '~/i18n/i18next.server';
import type { RouteHandle } from '~/root';
import { loaderFailure, upstreamApi } from '~/upstream/api.server';
import { leaders } from '~/upstream/content.server';
import { formatMoney, formatPercent, trendOf } from '~/utils/format';
import { useLocale } from '~/utils/locale';
import styles from '~/styles/funds.css?url';

export const handle: RouteHandle = { footer: true };

export const meta: MetaFunction<typeof loader> = ({ data }) => (data ? [{ title: data.title }] : []);

export const links: LinksFunction = () => [{ rel: 'stylesheet', href: styles }];

interface Leader {
  id: number;
  name: string;
  code: string;
  multiple: number;
  threeWeekReturn: number;
  threeWeekWinRate: number;
  threeWeekProfit: number;
  totalReturn: number;
  trades: number;
  followers: number;
}

export async function loader({ request, context }: LoaderFunctionArgs) {
  const page = Math.min(Math.max(Number(new URL(request.url).searchParams.get('page')) || 1, 1), 1000);
  const api = await upstreamApi(request, context);
  const { t } = await translator(request, 'mine');
  try {
    const { data, extras } = await leaders(api, page);
    const items: Leader[] = data.map((l) => ({
      id: l.id,
      name: l.user,
      code: l.code,
      multiple: l.multiple,
      threeWeekReturn: l.three_week_rate,
      threeWeekWinRate: l.three_week_win,
      threeWeekProfit: l.three_week_profit,
      totalReturn: l.total_rate,
      trades: l.total_trade_num,
      followers: l.followers,
    }));
    const list: ListPage<Leader> = { list: 'leaders', page, items, hasMore: page * LEADERS_PAGE_SIZE < (extras.total ?? 0) };
    return { ...list, title: t('pages.rank') };
  } catch (error) {
    return loaderFailure(request, error);
  }
}

const initials = (name: string) =>
  name
    .split(/\s+/)
    .map((w) => w[0] ?? '')
    .join('')
    .slice(0, 2)
    .toUpperCase();

export default function RankingPage() {
  const data = useLoaderData<typeof loader>();
  const [searchParams] = useSearchParams();
  const { t } = useTranslation('mine');
  const locale = useLocale();
  const list = usePagedList<Leader>(
    data,
    (l) => l.id,
    useCallback((n: number) => `/rank?page=${n}`, []),
  );
  const chosen = list.items.find((l) => String(l.id) === searchParams.get('leader'));
  return (
    <main className="page funds-page">
      <PageHeader title={t('pages.rank')} />
      <p className="muted rank-lead">{t('rank.lead')}</p>
      {chosen ? (
        <p className="notice" role="status">
          {t('rank.comingSoon', { name: chosen.name })}
        </p>
      ) : null}
      <ol className="rank-list" aria-label={t('pages.rank')}>
        {list.items.map((l) => (
          <li key={l.id}>
            <Link to={`/rank?leader=${l.id}`} className="rank-item" preventScrollReset replace>
              <span className="avatar" aria-hidden="true">
                {initials(l.name)}
              </span>
              <span className="rank-main">
                <strong>{l.name}</strong>
                <span className="muted">
                  {l.code} · ×{l.multiple} · {t('rank.followers', { count: l.followers })}
                </span>
              </span>
              <span className={`rank-return ${trendOf(l.threeWeekReturn)}`}>
                {formatPercent(l.threeWeekReturn, locale)}
                <small>{t('rank.threeWeeks')}</small>
              </span>
              <dl className="rank-figures">
                <div>
                  <dt>{t('rank.winRate')}</dt>
                  <dd>{formatPercent(l.threeWeekWinRate, locale, false)}</dd>
                </div>
                <div>
                  <dt>{t('rank.profit')}</dt>
                  <dd>{formatMoney(l.threeWeekProfit, locale)} USD</dd>
                </div>
                <div>
                  <dt>{t('rank.totalReturn')}</dt>
                  <dd>{formatPercent(l.totalReturn, locale)}</dd>
                </div>
                <div>
                  <dt>{t('rank.trades')}</dt>
                  <dd>{l.trades}</dd>
                </div>
              </dl>
            </Link>
          </li>
        ))}
      </ol>
      {list.hasMore ? <NextPageLink to={list.nextUrl} loading={list.loading} onLoad={list.loadMore} /> : null}
    </main>
  );
}
