/** React hooks over the tab's live stream. On the server (and before hydration) they return nothing live. */
import { useRevalidator } from '@remix-run/react';
import { useEffect, useSyncExternalStore } from 'react';
import type { AccountData, KlineData, QuoteData } from './events';
import { live, type FeedHealth, type StreamScope } from './store';

const EMPTY = {
  quotes: new Map<number, QuoteData>() as ReadonlyMap<number, QuoteData>,
  account: null as AccountData | null,
  health: 'connecting' as FeedHealth,
};
const noop = () => () => {};

/** Opens the stream while the component is mounted; after a `resync` the page's loaders run again. */
export function useLiveStream(scope: StreamScope = {}) {
  const revalidator = useRevalidator();
  useEffect(() => live?.retain(scope), [scope.code, scope.period]); // eslint-disable-line react-hooks/exhaustive-deps
  useEffect(() => live?.onResync(() => revalidator.revalidate()), [revalidator]);
}

function useSnapshot() {
  return useSyncExternalStore(live?.subscribe ?? noop, live?.getSnapshot ?? (() => EMPTY), () => EMPTY);
}

export function useLiveQuotes(): ReadonlyMap<number, QuoteData> {
  return useSnapshot().quotes;
}

export function useLiveAccount(): AccountData | null {
  return useSnapshot().account;
}

/** 'up' once the feed is live; anything else means prices may be old (buy and sell are disabled). */
export function useFeedHealth(): FeedHealth {
  return useSnapshot().health;
}

export function useLiveKline(listener: (k: KlineData) => void) {
  useEffect(() => live?.onKline(listener), [listener]);
}

export function useLiveClosed(listener: (ids: number[]) => void) {
  useEffect(() => live?.onClosed(listener), [listener]);
}
