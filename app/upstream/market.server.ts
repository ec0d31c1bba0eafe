/** Spec §7 market data calls: one function per call. */
import * as market from '#contract/calls/market';
import type { ChartPeriod } from '#contract/enums';
import { UpstreamUnavailable, type Api, type ApiCallOptions } from './api.server';

/** The last full list each upstream gave in each language: the trade screen's fallback while the upstream is silent. */
const lastGoodList = new Map<string, { at: number; result: Awaited<ReturnType<typeof fetchInstruments>> }>();
/** Old enough that products or their rules may have changed. */
const LAST_GOOD_MAX_AGE_MS = 10 * 60_000;

const fetchInstruments = (api: Api, search?: string, options?: ApiCallOptions) =>
  api.call(market.tradeList, { searchCurrency: search }, options);

/**
 * The products with their quotes. When the upstream cannot be reached, the full list it last gave (at most
 * ten minutes old) stands in, marked `stale`, so an order ticket that was on screen stays on screen.
 */
export async function listInstruments(api: Api, search?: string, options?: ApiCallOptions) {
  const key = `${api.upstreamUrl}|${api.lang}`;
  try {
    const result = await fetchInstruments(api, search, options);
    if (!search) lastGoodList.set(key, { at: Date.now(), result });
    return { ...result, stale: false };
  } catch (error) {
    const last = lastGoodList.get(key);
    if (search || !(error instanceof UpstreamUnavailable) || !last || Date.now() - last.at > LAST_GOOD_MAX_AGE_MS) throw error;
    return { ...last.result, stale: true };
  }
}
export const listCategories = (api: Api) => api.call(market.getCategories, {});
export const candles = (api: Api, forexId: number, period: ChartPeriod, limit?: number) =>
  api.call(market.kline, { forex_id: forexId, period, limit });
export const sparklines = (api: Api, period: ChartPeriod = '60min') => api.call(market.abbreviatedCacheKline, { period });
