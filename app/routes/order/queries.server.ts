/** Upstream reads of the orders screen that go beyond one call. */
import { MY_DEAL_PAGE_SIZE } from '#contract/calls/trade';
import type { OrderTab } from '#contract/enums';
import type { Position } from '#contract/views';
import { upstreamFallback, type Api } from '~/upstream/api.server';
import { instrumentList } from '~/upstream/market.server';
import { positionPage } from '~/upstream/trade.server';
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
  read: { page: number; orders: Position[]; total: number },
): Promise<Position | null> {
  const onScreen = read.orders.find((o) => o.id === id);
  if (onScreen) return onScreen;
  const pages = Math.min(Math.ceil(read.total / MY_DEAL_PAGE_SIZE), SEARCH_PAGES);
  for (let page = 1; page <= pages; page++) {
    if (page === read.page) continue;
    const { positions } = await positionPage(api, type, page);
    const hit = positions.find((o) => o.id === id);
    if (hit) return hit;
    if (positions.length === 0 || positions[0]!.id < id) return null;
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
  const listed = await instrumentList(api).catch(upstreamFallback(null, 'instrument facts of the orders screen'));
  if (!listed) return { units: {}, lots: {}, conversions: {} };
  const { instruments } = listed;
  const conversions: Record<number, Conversion> = {};
  for (const i of instruments) {
    const conversion = conversionFor(i, instruments);
    if (conversion) conversions[i.id] = conversion;
  }
  return {
    units: Object.fromEntries(instruments.map((i) => [i.id, i.contractSize])),
    lots: Object.fromEntries(instruments.map((i) => [i.id, { min: i.minLots, step: i.lotStep }])),
    conversions,
  };
}
