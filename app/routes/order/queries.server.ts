/** Upstream reads of the orders screen that go beyond one call. */
import { MY_DEAL_PAGE_SIZE, type Order } from '#contract/calls/trade';
import type { OrderTab } from '#contract/enums';
import { upstreamFallback, type Api } from '~/upstream/api.server';
import { listInstruments } from '~/upstream/market.server';
import { myOrders } from '~/upstream/trade.server';
import { conversionFor, type Conversion } from '~/routes/trade/estimates';

/** How far a `?detail=` link is looked for beyond the page on screen (there is no single-order call). */
const SEARCH_PAGES = 10;

/**
 * The order a `?detail=ID` link names: on the page already read, else on the tab's other pages. Lists are
 * newest first, so ids fall page by page and the search stops once it has passed the id.
 */
export async function findOrder(
  api: Api,
  type: OrderTab,
  id: number,
  read: { page: number; orders: Order[]; total: number },
): Promise<Order | null> {
  const onScreen = read.orders.find((o) => o.Id === id);
  if (onScreen) return onScreen;
  const pages = Math.min(Math.ceil(read.total / MY_DEAL_PAGE_SIZE), SEARCH_PAGES);
  for (let page = 1; page <= pages; page++) {
    if (page === read.page) continue;
    const { data } = await myOrders(api, type, page);
    const hit = data.find((o) => o.Id === id);
    if (hit) return hit;
    if (data.length === 0 || data[0]!.Id < id) return null;
  }
  return null;
}

/** The lot rules of an instrument as the close form needs them (lots in the contract's numbers). */
export interface LotRule {
  min: number;
  step: number;
}

/**
 * Units per lot, lot rules and the conversion of the quote currency to USD of each instrument (the order
 * itself carries none); the detail shows "—", the close form closes all, and the money at a take profit or
 * stop loss is not shown without them.
 */
export async function instrumentFacts(
  api: Api,
): Promise<{ units: Record<number, number>; lots: Record<number, LotRule>; conversions: Record<number, Conversion> }> {
  // Without the list the screen still works with less (above); anything but a refusal or an outage goes on.
  const listed = await listInstruments(api).catch(upstreamFallback(null, 'instrument facts of the orders screen'));
  if (!listed) return { units: {}, lots: {}, conversions: {} };
  const { data } = listed;
  const conversions: Record<number, Conversion> = {};
  for (const i of data) {
    const conversion = conversionFor(i, data);
    if (conversion) conversions[i.Id] = conversion;
  }
  return {
    units: Object.fromEntries(data.map((i) => [i.Id, i.ForexContNum])),
    lots: Object.fromEntries(data.map((i) => [i.Id, { min: i.ForexMinCont, step: i.Pip }])),
    conversions,
  };
}
