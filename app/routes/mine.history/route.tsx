/**
 * /mine/history, the account log (spec §2 "Account detail", §3 Account log): every movement of money with
 * its sign and colour, its name (an adjustment shows the back office's memo), the balance after it and
 * its time; newest first, an endless list with JavaScript and page links without.
 */
import type { LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { Link, useLoaderData } from '@remix-run/react';
import { useCallback } from 'react';
import { useTranslation } from '~/i18n/react';
import { ACCOUNT_LOG_PAGE_SIZE } from '#contract/calls/trade';
import { NextPageLink, usePagedList, type ListPage } from '~/components/endless-list';
import { PageHeader } from '~/components/page-header';
import { translator } from '~/i18n/i18next.server';
import { loaderFailure, upstreamApi } from '~/upstream/api.server';
import { accountLog, type LedgerEntry } from '~/upstream/trade.server';
import { formatMoney, formatProfit, trendOf } from '~/utils/format';
import { formatDateTime } from '~/utils/format-date';
import { useLocale } from '~/utils/locale';
import { requireSignedIn } from '~/utils/session.server';
import mineCss from '~/styles/mine.css?inline';
import { pageTitle } from '~/utils/page-title';

export const meta: MetaFunction<typeof loader> = (args) => pageTitle(args, args.data?.title);

export async function loader({ request, context }: LoaderFunctionArgs) {
  await requireSignedIn(request);
  const page = Math.min(Math.max(Number(new URL(request.url).searchParams.get('page')) || 1, 1), 100_000);
  const api = await upstreamApi(request, context);
  const { t } = await translator(request, 'mine');
  try {
    const { entries, total } = await accountLog(api, page);
    const list: ListPage<LedgerEntry> = { page, items: entries, hasMore: page * ACCOUNT_LOG_PAGE_SIZE < total };
    return { ...list, title: t('pages.history') };
  } catch (error) {
    return loaderFailure(request, error);
  }
}

const historyUrl = (page: number) => `/mine/history?page=${page}`;

export default function AccountHistoryPage() {
  const data = useLoaderData<typeof loader>();
  const { t } = useTranslation(['mine', 'statements']);
  const locale = useLocale();
  const list = usePagedList<LedgerEntry>(data, (e) => e.id, useCallback(historyUrl, []));
  return (
    <main className="page history-page">
      {/* The screen's stylesheet comes with its markup (decision 0020). */}
      <style dangerouslySetInnerHTML={{ __html: mineCss }} />
      <PageHeader title={t('pages.history')} back="/mine" />
      <ul className="statement-links">
        <li>
          <Link to="/mine/statement">{t('statements:link')}</Link>
        </li>
        <li>
          <a href="/mine/statement/account.csv" download>
            {t('statements:download.account')}
          </a>
        </li>
        <li>
          <a href="/mine/statement/orders.csv" download>
            {t('statements:download.orders')}
          </a>
        </li>
      </ul>
      {list.items.length === 0 ? (
        <p className="empty">{t('history.empty')}</p>
      ) : (
        <ol className="ledger" aria-label={t('pages.history')}>
          {list.items.map((e) => (
            <li key={e.id} className="ledger-row">
              <bdi className="ledger-label">{e.label}</bdi>
              <span className={`ledger-amount ${trendOf(e.amount)}`}>{formatProfit(e.amount, locale)}</span>
              <time className="muted" dateTime={e.time}>
                {formatDateTime(e.time, locale)}
              </time>
              <span className="muted ledger-balance">{t('history.balanceAfter', { balance: formatMoney(e.balanceAfter, locale) })}</span>
            </li>
          ))}
        </ol>
      )}
      {list.hasMore ? <NextPageLink to={list.nextUrl} loading={list.loading} onLoad={list.loadMore} /> : null}
    </main>
  );
}
