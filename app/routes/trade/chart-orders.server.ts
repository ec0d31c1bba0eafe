/**
 * The signed-in trader's orders of the shown instrument, as the chart draws them: each open position's
 * entry, take profit and stop loss, and each pending order's target, labelled in the trader's language
 * here, so the page's first script only draws them. An extra on the trade screen: when the upstream
 * cannot tell, the chart just has no lines.
 */
import { MY_DEAL_PAGE_SIZE, type AccountDetail, type Order } from '#contract/calls/trade';
import { OrderTab, Side } from '#contract/enums';
import { chartLines, type ChartOrder, type ChartOrders } from '~/components/candle-chart/order-lines';
import { LANGUAGE_TAGS } from '#contract/languages';
import { translator } from '~/i18n/i18next.server';
import { upstreamFallback, type Api } from '~/upstream/api.server';
import { myOrders } from '~/upstream/trade.server';
import { formatLots, formatPrice } from '~/utils/format';

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
  trail: o.TrailDistance,
});

/**
 * No margin held means no orders to read: the upstream holds margin for every open and pending order
 * (lock_balance is the sum of their margins: design/upstream.md, "Ledger"; above zero for every instrument's
 * smallest order, upstream/tests/catalogue-margin.test.ts), so an account at zero has none, and its page makes
 * two upstream calls fewer.
 */
const hasNoOrders = (account: AccountDetail | null) => account !== null && account.lock_balance === 0;

/**
 * The lines of `instrument`, and every holding position's id (of any instrument): a live account event
 * naming other positions than these means the lines may be out of date. Null for a visitor. `account` is
 * the figures read for the same page (null when they could not be read).
 */
export async function chartOrders(
  api: Api,
  request: Request,
  instrument: { Id: number; PricePrecision: number },
  account: AccountDetail | null,
): Promise<ChartOrders | null> {
  if (!api.signedIn) return null;
  const [{ t, lang }, orders] = await Promise.all([
    translator(request, 'trade'),
    (hasNoOrders(account)
      ? Promise.resolve([[], []])
      : Promise.all([ordersOf(api, OrderTab.Holding), ordersOf(api, OrderTab.Pending)])
    ).then(
      ([holding, pending]) => ({
        mine: [
          ...holding.filter((o) => o.ForexId === instrument.Id).map((o) => chartOrder(o, false)),
          ...pending.filter((o) => o.ForexId === instrument.Id).map((o) => chartOrder(o, true)),
        ],
        holdingIds: holding.map((o) => o.Id),
      }),
      upstreamFallback({ mine: [], holdingIds: [] }, 'orders on the chart'),
    ),
  ]);
  const locale = LANGUAGE_TAGS[lang];
  return {
    lines: chartLines(
      orders.mine,
      (key, values) => t(key, values),
      (price) => formatPrice(price, instrument.PricePrecision, locale),
      (lots) => formatLots(lots, locale),
    ),
    label: t('chart.lines.list'),
    holdingIds: orders.holdingIds,
  };
}
