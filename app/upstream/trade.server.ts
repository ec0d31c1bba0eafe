/** Spec §7 orders and account calls: one function per call. */
import * as trade from '#contract/calls/trade';
import { money } from '#contract/money';
import type { z } from 'zod';
import type { Api, ApiCallOptions } from './api.server';

export const submitOrder = (api: Api, input: z.input<typeof trade.submit.request>, options?: ApiCallOptions) =>
  api.call(trade.submit, input, options);
export const myOrders = (api: Api, status: 0 | 1 | 3, page = 1) => api.call(trade.myDeal, { status, page });
/** Closes a position, or `part.lots` of it (one key per rendered close form: a resent form closes once). */
export const closeOrder = (api: Api, id: number, part?: { lots?: string; key?: string }) =>
  api.call(trade.close, { id, cont: part?.lots, idempotency_key: part?.key });
/** Closes every holding position in `scope` (winning, losing or all); each succeeds or fails on its own. */
export const closeAll = (api: Api, scope: trade.CloseAllScope, key?: string) => api.call(trade.closeAll, { scope, idempotency_key: key });

/** How many holding positions are in `scope` now and their floating profit (USD): what "close all" would take. */
export async function closeAllPreview(api: Api, scope: trade.CloseAllScope): Promise<{ count: number; profit: number }> {
  let count = 0;
  let profitMicro = 0;
  for (let page = 1; page <= CLOSE_ALL_PREVIEW_PAGES; page++) {
    const { data, extras } = await myOrders(api, 1, page);
    for (const o of data) {
      if (!trade.inCloseScope(scope, o.FactProfits)) continue;
      count += 1;
      profitMicro += money.fromNumber(o.FactProfits);
    }
    if (page * trade.MY_DEAL_PAGE_SIZE >= (extras.total ?? 0) || data.length === 0) break;
  }
  return { count, profit: money.toNumber(profitMicro) };
}
/** Pages read for the preview: 500 positions. */
const CLOSE_ALL_PREVIEW_PAGES = 25;
export const cancelOrder = (api: Api, id: number) => api.call(trade.cancelTrade, { id });
export const setStops = (api: Api, input: z.input<typeof trade.setStopPrice.request>) => api.call(trade.setStopPrice, input);
export const balance = (api: Api) => api.call(trade.getBalance, {});
export const accountDetail = (api: Api) => api.call(trade.forexDetail, {});
export const accountLog = (api: Api, page = 1) => api.call(trade.forexChange, { page });
export const resetDemo = (api: Api) => api.call(trade.resetForexDemoAccount, {});
