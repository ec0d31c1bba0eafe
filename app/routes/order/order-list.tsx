/** The rows of one orders tab, on the shared endless list. */
import { Link } from '@remix-run/react';
import { useCallback } from 'react';
import { useTranslation } from '~/i18n/react';
import type { Position } from '#contract/views';
import { OrderStatus, OrderTab, Side } from '#contract/enums';
import { formatLots, formatPrice, formatProfit, trendOf } from '~/utils/format';
import { formatDateTime } from '~/utils/format-date';
import { useLocale } from '~/utils/locale';
import { usePagedList, type ListPage } from '~/components/endless-list';
import { ordersUrl } from './orders-url';
import { shownStopLoss } from './trailing';

/** What a loaded page of a tab brings (the route loader's answer, as the list needs it). */
export interface OrdersPage extends ListPage<Position> {
  list: OrderTab;
  units: Record<number, number>;
}

/** The live mark and floating profit of a holding order (from the stream's `account` event). */
export interface LiveOrder {
  profit: number;
  mark: number;
}

export const isBuy = (order: Position) => order.side === Side.Buy;

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

/** Page one of a tab from the loader plus the pages loaded after it, with the units per lot they brought. */
export function useMorePages(first: OrdersPage) {
  const url = useCallback((page: number) => ordersUrl({ type: first.list, page }), [first.list]);
  const list = usePagedList<Position, OrdersPage>(first, (o) => o.id, url);
  const units = Object.assign({}, ...list.pages.map((p) => p.units)) as Record<number, number>;
  return { ...list, orders: list.items, units };
}

export function OrderRow({ order, tab, live, to }: { order: Position; tab: OrderTab; live?: LiveOrder; to: string }) {
  const { t } = useTranslation('orders');
  const locale = useLocale();
  const precision = order.instrument.digits;
  const profit = live?.profit ?? order.profit;
  const current = live?.mark ?? order.mark;
  const buy = isBuy(order);
  const time = tab === OrderTab.History ? order.closedAt || order.openedAt : order.openedAt;
  return (
    <li>
      <Link to={to} className="order-row" preventScrollReset>
        <span className="order-head">
          <strong>{order.instrument.symbol}</strong>
          <span className={`order-side ${buy ? 'buy' : 'sell'}`}>{buy ? t('side.buy') : t('side.sell')}</span>
          <span className="muted">{t('row.lots', { lots: formatLots(order.lots, locale) })}</span>
          {tab === OrderTab.History ? <span className={`order-status s${order.status}`}>{t(statusKey(order.status))}</span> : null}
          {order.parentId ? <span className="muted">{t('row.partOf', { id: order.parentId })}</span> : null}
        </span>
        <span className={`order-profit ${trendOf(profit)}`} data-testid="profit">
          {formatProfit(profit, locale)}
        </span>
        <span className="order-prices">
          <span>
            {tab === OrderTab.Pending ? t('row.targetPrice') : t('row.openPrice')}{' '}
            <span className="price">{formatPrice(order.price, precision, locale)}</span>
          </span>
          {order.status !== OrderStatus.Cancelled ? (
            <span>
              {order.status === OrderStatus.Closed ? t('row.closePrice') : t('row.currentPrice')}{' '}
              <span className="price" data-testid="current-price">
                {formatPrice(current, precision, locale)}
              </span>
            </span>
          ) : null}
          {order.trailDistance > 0 && tab !== OrderTab.History ? <TrailingLine order={order} mark={live?.mark} /> : null}
        </span>
        <time className="order-time muted" dateTime={time}>
          {formatDateTime(time, locale)}
        </time>
      </Link>
    </li>
  );
}

/** "Trailing stop 1.09930 (0.00200 behind)": the stop where the price has carried it, and its distance. */
export function TrailingLine({ order, mark }: { order: Position; mark?: number }) {
  const { t } = useTranslation('orders');
  const locale = useLocale();
  const precision = order.instrument.digits;
  const stop = shownStopLoss(order, mark);
  const distance = formatPrice(order.trailDistance, precision, locale);
  return (
    <span className="order-trailing muted" data-testid="trailing-stop">
      {stop > 0 ? t('trailing.row', { stop: formatPrice(stop, precision, locale), distance }) : t('trailing.rowFromFill', { distance })}
    </span>
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
