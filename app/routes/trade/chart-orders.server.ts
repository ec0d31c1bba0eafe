/**
 * The signed-in trader's orders of the shown instrument, as the chart draws them: each open position's
 * entry, take profit and stop loss, and each pending order's target, labelled in the trader's language
 * here, so the page's first script only draws them. An extra on the trade screen: when the upstream
 * cannot tell, the chart just has no lines.
 */
import { MY_DEAL_PAGE_SIZE } from '#contract/calls/trade';
import { OrderTab, Side } from '#contract/enums';
import type { Account, Instrument, Position } from '#contract/views';
import { chartLines, type ChartOrder, type ChartOrders } from '~/components/candle-chart/order-lines';
import { LANGUAGE_TAGS } from '#contract/languages';
import { translator } from '~/i18n/i18next.server';
import { upstreamFallback, type Api } from '~/upstream/api.server';
import { positionPage } from '~/upstream/trade.server';
import { formatLots, formatPrice } from '~/utils/format';

/** Pages read of each tab: 100 orders, more than a phone's chart can tell apart. */
const PAGES = 5;

async function ordersOf(api: Api, tab: typeof OrderTab.Holding | typeof OrderTab.Pending): Promise<Position[]> {
  const all: Position[] = [];
  for (let page = 1; page <= PAGES; page++) {
    const { positions, total } = await positionPage(api, tab, page);
    all.push(...positions);
    if (positions.length === 0 || page * MY_DEAL_PAGE_SIZE >= total) break;
  }
  return all;
}

const chartOrder = (o: Position, pending: boolean): ChartOrder => ({
  id: o.id,
  pending,
  buy: o.side === Side.Buy,
  lots: o.lots,
  price: o.price,
  takeProfit: o.takeProfit > 0 ? o.takeProfit : null,
  stopLoss: o.stopLoss > 0 ? o.stopLoss : null,
  trail: o.trailDistance,
});

/**
 * No margin held means no orders to read: the upstream holds margin for every open and pending order
 * (the held margin is the sum of their margins: design/upstream.md, "Ledger"; above zero for every instrument's
 * smallest order, upstream/tests/catalogue-margin.test.ts), so an account at zero has none, and its page makes
 * two upstream calls fewer.
 */
const hasNoOrders = (account: Account | null) => account !== null && account.heldMargin === 0;

/**
 * The lines of `instrument`, and every holding position's id (of any instrument): a live account event
 * naming other positions than these means the lines may be out of date. Null for a visitor. `account` is
 * the figures read for the same page (null when they could not be read).
 */
export async function chartOrders(
  api: Api,
  request: Request,
  instrument: Pick<Instrument, 'id' | 'digits'>,
  account: Account | null,
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
          ...holding.filter((o) => o.instrumentId === instrument.id).map((o) => chartOrder(o, false)),
          ...pending.filter((o) => o.instrumentId === instrument.id).map((o) => chartOrder(o, true)),
        ],
        holdingIds: holding.map((o) => o.id),
      }),
      upstreamFallback({ mine: [], holdingIds: [] }, 'orders on the chart'),
    ),
  ]);
  const locale = LANGUAGE_TAGS[lang];
  return {
    lines: chartLines(
      orders.mine,
      (key, values) => t(key, values),
      (price) => formatPrice(price, instrument.digits, locale),
      (lots) => formatLots(lots, locale),
    ),
    label: t('chart.lines.list'),
    holdingIds: orders.holdingIds,
  };
}
