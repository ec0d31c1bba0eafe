/**
 * The signed-in trader's orders of the shown instrument, as the chart draws them: each open position's
 * entry, take profit and stop loss, and each pending order's target. An extra on the trade screen: when
 * the upstream cannot tell, the chart just has no lines.
 */
import { MY_DEAL_PAGE_SIZE, type Order } from '#contract/calls/trade';
import { OrderTab, Side } from '#contract/enums';
import type { ChartOrder } from '~/components/candle-chart/order-lines';
import { upstreamFallback, type Api } from '~/upstream/api.server';
import { myOrders } from '~/upstream/trade.server';

/** Pages read of each tab: 100 orders, more than a phone's chart can tell apart. */
const PAGES = 5;

async function ordersOf(api: Api, tab: typeof OrderTab.Holding | typeof OrderTab.Pending): Promise<Order[]> {
  const all: Order[] = [];
  for (let page = 1; page <= PAGES; page++) {
    const { data, extras } = await myOrders(api, tab, page);
    all.push(...data);
    if (data.length === 0 || page * MY_DEAL_PAGE_SIZE >= (extras.total ?? 0)) break;
  }
  return all;
}

const chartOrder = (o: Order, pending: boolean): ChartOrder => ({
  id: o.Id,
  pending,
  buy: o.OrderType === Side.Buy,
  lots: o.Quantity,
  price: o.Price,
  takeProfit: o.TargetProfitPrice > 0 ? o.TargetProfitPrice : null,
  stopLoss: o.TargetLossPrice > 0 ? o.TargetLossPrice : null,
});

/**
 * The lines of `instrumentId`, and every holding position's id (of any instrument): a live account event
 * naming a position not among them means the lines may be out of date.
 */
export async function chartOrders(api: Api, instrumentId: number): Promise<{ orders: ChartOrder[]; holdingIds: number[] }> {
  if (!api.signedIn) return { orders: [], holdingIds: [] };
  return Promise.all([ordersOf(api, OrderTab.Holding), ordersOf(api, OrderTab.Pending)]).then(
    ([holding, pending]) => ({
      orders: [
        ...holding.filter((o) => o.ForexId === instrumentId).map((o) => chartOrder(o, false)),
        ...pending.filter((o) => o.ForexId === instrumentId).map((o) => chartOrder(o, true)),
      ],
      holdingIds: holding.map((o) => o.Id),
    }),
    upstreamFallback({ orders: [], holdingIds: [] }, 'orders on the chart'),
  );
}
