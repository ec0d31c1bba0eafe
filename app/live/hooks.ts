/**
 * React hooks over the tab's live stream that every live page needs: holding the stream open, the feed's health,
 * and drawing quotes into the page without a render. The slices as React state are in state.ts. On the server
 * (and before hydration) they return nothing live.
 */
import { useEffect, useLayoutEffect, useSyncExternalStore, type RefObject } from 'react';
import type { Quote } from '#contract/views';
import { live, type FeedHealth, type StreamScope } from './store';

const noop = () => () => {};
const serverHealth = (): FeedHealth => 'connecting';

/**
 * Opens the stream while the component is mounted (a `resync` reruns the loaders: see resync.tsx). A page that
 * shows some instruments only names them in `scope.quotes`: the stream then carries those quotes alone.
 */
export function useLiveStream(scope: StreamScope = {}) {
  useEffect(() => live?.retain(scope), [scope.code, scope.period, String(scope.quotes), scope.pace]); // eslint-disable-line react-hooks/exhaustive-deps
}

/** A layout effect in the browser (React warns of one on the server, where effects never run). */
const useBrowserLayoutEffect = typeof window === 'undefined' ? useEffect : useLayoutEffect;

/**
 * Draws one instrument's quotes straight into the page, with no React render: `draw` sets the few nodes of `node`
 * a tick changes (a list of rows re-rendered by React on every tick cost a cheap phone up to 28 ms a frame at 4×,
 * issue 12). It runs after each render of the component too, so the latest quote wins over what React drew from
 * its props. While `node` is far off screen its ticks wait (the browser would still lay out and paint it:
 * `content-visibility: auto` skips only what is more than half a screen away); near the screen again, it draws
 * the latest quote at once.
 */
export function useLiveQuoteDraw(id: number, node: RefObject<Element>, draw: (q: Quote) => void) {
  useBrowserLayoutEffect(() => {
    const slice = live?.quote(id);
    const element = node.current!;
    if (!slice) return;
    // Near the screen until the observer first answers.
    let near = true;
    const drawLatest = () => {
      const q = slice.get();
      if (q && near) draw(q);
    };
    nearScreen.set(element, (isNear) => {
      near = isNear;
      drawLatest();
    });
    // One observer for every row; a few rows of margin, so a row is live again just before a scroll shows it.
    // (No check that the browser has one: every browser that runs this ES2022 script does.)
    observer ??= new IntersectionObserver((entries) => entries.forEach((e) => nearScreen.get(e.target)?.(e.isIntersecting)), {
      rootMargin: '200px',
    });
    observer.observe(element);
    drawLatest();
    const off = slice.subscribe(drawLatest);
    return () => {
      off();
      observer!.unobserve(element);
      // A report the observer had already queued finds no row to draw into.
      nearScreen.delete(element);
    };
  });
}

const nearScreen = new WeakMap<Element, (near: boolean) => void>();
let observer: IntersectionObserver | undefined;

/** 'up' once the feed is live; anything else means prices may be old (buy and sell are disabled). */
export function useFeedHealth(): FeedHealth {
  return useSyncExternalStore(live?.health.subscribe ?? noop, live?.health.get ?? serverHealth, serverHealth);
}

/** Prices (and what is figured from them) may be old: the stream is down or has stalled. */
export function useFeedStale(): boolean {
  const health = useFeedHealth();
  return health === 'stale' || health === 'down';
}
