/**
 * The rows of one orders tab and the endless list: the server renders one page with a "Next page" link;
 * with JavaScript that link loads the next page into the list (a fetcher) when it scrolls into view.
 */
import { Link, useFetcher } from '@remix-run/react';
import { useCallback, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { Order } from '#contract/calls/trade';
import { CHART_TIMEZONE, OrderStatus, OrderTab, Side } from '#contract/enums';
import { formatDateTime, formatLots, formatPrice, formatProfit, trendOf } from '~/utils/format';
import { useLocale } from '~/utils/locale';
import { ordersUrl } from './orders-url';

/** What a loaded page of a tab brings (the route loader's answer, as the list needs it). */
export interface OrdersPage {
  type: OrderTab;
  page: number;
  orders: Order[];
  hasMore: boolean;
  units: Record<number, number>;
}

/** The live mark and floating profit of a holding order (from the stream's `account` event). */
export interface LiveOrder {
  profit: number;
  mark: number;
}

export const isBuy = (order: Order) => order.OrderType === Side.Buy;

/** The status word of an order (history rows and the detail). */
export function statusKey(status: number): string {
  switch (status) {
    case OrderStatus.Pending:
      return 'status.pending';
    case OrderStatus.Holding:
      return 'status.holding';
    case OrderStatus.Closing:
      return 'status.closing';
    case OrderStatus.Cancelled:
      return 'status.cancelled';
    default:
      return 'status.closed';
  }
}

/**
 * Page one from the loader plus the pages loaded after it. New loader data (a refresh, another tab)
 * starts the list again from the loader's page.
 */
export function useMorePages(first: OrdersPage) {
  const fetcher = useFetcher<OrdersPage>();
  const [more, setMore] = useState<OrdersPage[]>([]);
  const [base, setBase] = useState(first);
  if (base !== first) {
    setBase(first);
    setMore([]);
  }
  useEffect(() => {
    const next = fetcher.data;
    if (!next || next.type !== first.type || next.page <= first.page) return;
    setMore((pages) => [...pages.filter((p) => p.page !== next.page), next].sort((a, b) => a.page - b.page));
    // Only a new answer is added; the loader's own data is read at that moment.
  }, [fetcher.data]); // eslint-disable-line react-hooks/exhaustive-deps

  const last = more.at(-1) ?? first;
  const seen = new Set<number>();
  const orders: Order[] = [];
  for (const page of [first, ...more]) {
    for (const o of page.orders) {
      // A new order shifts the pages by one: the same order may come back on the next page.
      if (!seen.has(o.Id)) orders.push(o);
      seen.add(o.Id);
    }
  }
  const units = Object.assign({}, first.units, ...more.map((p) => p.units)) as Record<number, number>;
  const nextPage = last.page + 1;
  const loading = fetcher.state !== 'idle';
  const load = fetcher.load;
  const loadMore = useCallback(() => {
    if (!loading && last.hasMore) load(ordersUrl({ type: first.type, page: nextPage }));
  }, [loading, last.hasMore, load, first.type, nextPage]);
  const reset = useCallback(() => setMore([]), []);
  return { orders, units, hasMore: last.hasMore, nextPage, loading, loadMore, reset };
}

/** The "Next page" link; with JavaScript it loads the next page in place when it comes into view. */
export function NextPageLink({ to, loading, onLoad }: { to: string; loading: boolean; onLoad: () => void }) {
  const { t } = useTranslation('orders');
  const ref = useRef<HTMLAnchorElement>(null);
  useEffect(() => {
    const link = ref.current;
    if (!link || typeof IntersectionObserver === 'undefined') return;
    const observer = new IntersectionObserver((entries) => entries.some((e) => e.isIntersecting) && onLoad(), { rootMargin: '240px 0px' });
    observer.observe(link);
    return () => observer.disconnect();
  }, [onLoad, to]);
  return (
    <Link
      ref={ref}
      to={to}
      className="button secondary block next-page"
      aria-disabled={loading || undefined}
      onClick={(e) => {
        e.preventDefault();
        onLoad();
      }}
    >
      {loading ? t('more.loading') : t('more.next')}
    </Link>
  );
}

export function OrderRow({ order, tab, live, to }: { order: Order; tab: OrderTab; live?: LiveOrder; to: string }) {
  const { t } = useTranslation('orders');
  const locale = useLocale();
  const precision = order.ForexTradeLists.PricePrecision;
  const profit = live?.profit ?? order.FactProfits;
  const current = live?.mark ?? order.UpdatePrice;
  const buy = isBuy(order);
  const time = tab === OrderTab.History ? order.CompleteTimeHandler || order.CreateTimeHandler : order.CreateTimeHandler;
  return (
    <li>
      <Link to={to} className="order-row" preventScrollReset>
        <span className="order-head">
          <strong>{order.ForexTradeLists.ShowCode}</strong>
          <span className={`order-side ${buy ? 'buy' : 'sell'}`}>{buy ? t('side.buy') : t('side.sell')}</span>
          <span className="muted">{t('row.lots', { lots: formatLots(order.Quantity, locale) })}</span>
          {tab === OrderTab.History ? <span className={`order-status s${order.Status}`}>{t(statusKey(order.Status))}</span> : null}
        </span>
        <span className={`order-profit ${trendOf(profit)}`} data-testid="profit">
          {formatProfit(profit, locale)}
        </span>
        <span className="order-prices">
          <span>
            {tab === OrderTab.Pending ? t('row.targetPrice') : t('row.openPrice')}{' '}
            <span className="price">{formatPrice(order.Price, precision, locale)}</span>
          </span>
          {order.Status !== OrderStatus.Cancelled ? (
            <span>
              {order.Status === OrderStatus.Closed ? t('row.closePrice') : t('row.currentPrice')}{' '}
              <span className="price" data-testid="current-price">
                {formatPrice(current, precision, locale)}
              </span>
            </span>
          ) : null}
        </span>
        <time className="order-time muted" dateTime={time}>
          {formatDateTime(time, locale, CHART_TIMEZONE)}
        </time>
      </Link>
    </li>
  );
}

/** Rows standing in for a tab's list while it loads. */
export function OrderSkeleton() {
  const { t } = useTranslation('orders');
  return (
    <div className="order-skeleton" aria-busy="true">
      <p className="visually-hidden" role="status">
        {t('loading')}
      </p>
      {Array.from({ length: 5 }, (_, i) => (
        <div key={i} className="order-skeleton-row" aria-hidden="true">
          <span className="skeleton-block" />
          <span className="skeleton-block short" />
        </div>
      ))}
    </div>
  );
}
