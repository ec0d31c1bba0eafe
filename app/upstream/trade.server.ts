/** Spec §7 orders and account calls: one function per call. */
import * as trade from '#contract/calls/trade';
import type { z } from 'zod';
import type { Api, ApiCallOptions } from './api.server';

export const submitOrder = (api: Api, input: z.input<typeof trade.submit.request>, options?: ApiCallOptions) =>
  api.call(trade.submit, input, options);
export const myOrders = (api: Api, status: 0 | 1 | 3, page = 1) => api.call(trade.myDeal, { status, page });
export const closeOrder = (api: Api, id: number) => api.call(trade.close, { id });
export const cancelOrder = (api: Api, id: number) => api.call(trade.cancelTrade, { id });
export const setStops = (api: Api, input: z.input<typeof trade.setStopPrice.request>) => api.call(trade.setStopPrice, input);
export const balance = (api: Api) => api.call(trade.getBalance, {});
export const accountDetail = (api: Api) => api.call(trade.forexDetail, {});
export const accountLog = (api: Api, page = 1) => api.call(trade.forexChange, { page });
export const resetDemo = (api: Api) => api.call(trade.resetForexDemoAccount, {});
