/**
 * The live slices as React state, for the screens that compute with them (the trade ticket, the order screen, the
 * price alerts): a component re-renders only when its slice changes (its instrument's quote, the account). On the
 * server (and before hydration) they return nothing live. Not in every page's first-load script: the market list
 * writes its ticks without React (`useLiveQuoteDraw` in hooks.ts).
 */
import { useEffect, useSyncExternalStore } from 'react';
import type { LiveAccount, Quote } from '#contract/views';
import type { KlineData } from './events';
import { live } from './store';

const noop = () => () => {};
const none = () => undefined;
const nothing = () => null;

/** One instrument's latest quote (undefined until the stream brings one, or for no id). */
export function useLiveQuote(id: number | null | undefined): Quote | undefined {
  const slice = live && id ? live.quote(id) : null;
  return useSyncExternalStore(slice?.subscribe ?? noop, slice?.get ?? none, none);
}

export function useLiveAccount(): LiveAccount | null {
  return useSyncExternalStore(live?.account.subscribe ?? noop, live?.account.get ?? nothing, nothing);
}

export function useLiveKline(listener: (k: KlineData) => void) {
  useEffect(() => live?.hear('kline', listener), [listener]);
}

export function useLiveClosed(listener: (ids: number[]) => void) {
  useEffect(() => live?.hear('closed', listener), [listener]);
}
