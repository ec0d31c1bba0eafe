/** Spec §7 market data calls: one function per call. */
import * as market from '#contract/calls/market';
import type { ChartPeriod } from '#contract/enums';
import type { Api } from './api.server';

export const listInstruments = (api: Api, search?: string) => api.call(market.tradeList, { searchCurrency: search });
export const listCategories = (api: Api) => api.call(market.getCategories, {});
export const candles = (api: Api, forexId: number, period: ChartPeriod, limit?: number) =>
  api.call(market.kline, { forex_id: forexId, period, limit });
export const sparklines = (api: Api, period: ChartPeriod = '60min') => api.call(market.abbreviatedCacheKline, { period });
