/** Market calls of spec §7 for the web's loaders. */
import * as market from '#contract/calls/market';
import { callUpstream, type CallOptions, type UpstreamTarget } from './client.server';

export async function listInstruments(target: UpstreamTarget, options: CallOptions, search?: string) {
  return (await callUpstream(target, market.tradeList, { searchCurrency: search }, options)).data;
}

export async function listCategories(target: UpstreamTarget, options: CallOptions) {
  return (await callUpstream(target, market.getCategories, {}, options)).data;
}

export async function sparklines(target: UpstreamTarget, options: CallOptions) {
  return (await callUpstream(target, market.abbreviatedCacheKline, { period: '60min' }, options)).data;
}
