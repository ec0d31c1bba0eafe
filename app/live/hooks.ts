/**
 * React hooks over the tab's live stream, one per slice: a component re-renders only when what it shows
 * changes (its instrument's quote, the account, the feed's health). On the server (and before hydration)
 * they return nothing live.
 */
import { useEffect, useLayoutEffect, useSyncExternalStore } from 'react';
import type { AccountData, KlineData, QuoteData } from './events';
import { live, type FeedHealth, type StreamScope } from './store';

const noop = () => () => {};
const none = () => undefined;
const nothing = () => null;
const serverHealth = (): FeedHealth => 'connecting';

/**
 * Opens the stream while the component is mounted (a `resync` reruns the loaders: see resync.tsx). A page that
 * shows some instruments only names them in `scope.quotes`: the stream then carries those quotes alone.
 */
export function useLiveStream(scope: StreamScope = {}) {
  useEffect(() => live?.retain(scope), [scope.code, scope.period, String(scope.quotes), scope.pace]); // eslint-disable-line react-hooks/exhaustive-deps
}

/** One instrument's latest quote (undefined until the stream brings one, or for no id). */
export function useLiveQuote(id: number | null | undefined): QuoteData | undefined {
  const slice = live && id ? live.quote(id) : null;
  return useSyncExternalStore(slice?.subscribe ?? noop, slice?.get ?? none, none);
}

/** A layout effect in the browser (React warns of one on the server, where effects never run). */
const useBrowserLayoutEffect = typeof window === 'undefined' ? useEffect : useLayoutEffect;

/**
 * Draws one instrument's quotes straight into the page, with no React render: `draw` sets the few nodes a tick
 * changes (a list of rows re-rendered by React on every tick cost a cheap phone up to 28 ms a frame at 4×, issue
 * 12). It runs after each render of the component too, so the latest quote wins over what React drew from its
 * props.
 */
export function useLiveQuoteDraw(id: number, draw: (q: QuoteData) => void) {
  useBrowserLayoutEffect(() => {
    const slice = live?.quote(id);
    if (!slice) return;
    const drawLatest = () => {
      const q = slice.get();
      if (q) draw(q);
    };
    drawLatest();
    return slice.subscribe(drawLatest);
  });
}

export function useLiveAccount(): AccountData | null {
  return useSyncExternalStore(live?.account.subscribe ?? noop, live?.account.get ?? nothing, nothing);
}

/** 'up' once the feed is live; anything else means prices may be old (buy and sell are disabled). */
export function useFeedHealth(): FeedHealth {
  return useSyncExternalStore(live?.health.subscribe ?? noop, live?.health.get ?? serverHealth, serverHealth);
}

export function useLiveKline(listener: (k: KlineData) => void) {
  useEffect(() => live?.onKline(listener), [listener]);
}

export function useLiveClosed(listener: (ids: number[]) => void) {
  useEffect(() => live?.onClosed(listener), [listener]);
}
