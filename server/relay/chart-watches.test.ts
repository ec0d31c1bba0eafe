import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest';
import { ChartWatches, keepLastTwo } from './chart-watches';

let topics: string[];
let log: string[];
const charts = (lingerMs = 1000) =>
  new ChartWatches<string>({
    lingerMs,
    subscribe: (code) => (topics.push(code), log.push(`sub ${code}`)),
    unsubscribe: (code) => ((topics = topics.filter((t) => t !== code)), log.push(`unsub ${code}`)),
  });

beforeEach(() => {
  topics = [];
  log = [];
  vi.useFakeTimers();
});
afterEach(() => vi.useRealTimers());

describe('ChartWatches', () => {
  test('an instrument is subscribed once, while any stream watches any of its periods', () => {
    const w = charts(0);
    w.watch('tab1', 'EURUSD', '1min');
    w.watch('tab2', 'EURUSD', '5min');
    w.watch('tab3', 'BTCUSD', '1min');
    expect(log).toEqual(['sub EURUSD', 'sub BTCUSD']);
    w.unwatch('tab1', 'EURUSD', '1min');
    expect(topics).toEqual(['EURUSD', 'BTCUSD']);
    w.unwatch('tab2', 'EURUSD', '5min');
    expect(topics).toEqual(['BTCUSD']);
    // A stream that never watched it changes nothing.
    w.unwatch('tab9', 'BTCUSD', '1min');
    w.unwatch('tab3', 'BTCUSD', '5min');
    expect(topics).toEqual(['BTCUSD']);
  });

  test('the last watcher leaves: the subscription lingers, and a stream back within it keeps it and its candles', () => {
    const w = charts(1000);
    w.watch('tab', 'EURUSD', '1min');
    w.unwatch('tab', 'EURUSD', '1min');
    // Nobody watches, but a candle that moves meanwhile is still kept for the snapshot.
    expect(w.update('EURUSD', '1min', 60, 'c60')).toBeUndefined();
    vi.advanceTimersByTime(999);
    w.watch('again', 'EURUSD', '1min');
    vi.advanceTimersByTime(5000);
    expect(log).toEqual(['sub EURUSD']);
    expect([...w.latest('EURUSD', '1min')]).toEqual(['c60']);
    w.unwatch('again', 'EURUSD', '1min');
    vi.advanceTimersByTime(1000);
    expect(log).toEqual(['sub EURUSD', 'unsub EURUSD']);
    expect([...w.latest('EURUSD', '1min')]).toEqual([]);
    expect(w.update('EURUSD', '1min', 120, 'c120')).toBeUndefined();
  });

  test('a candle update goes to the watchers of its period only', () => {
    const w = charts();
    w.watch('a', 'EURUSD', '1min');
    w.watch('b', 'EURUSD', '1min');
    w.watch('c', 'EURUSD', '5min');
    expect([...w.update('EURUSD', '1min', 60, 'x')!]).toEqual(['a', 'b']);
    expect([...w.update('EURUSD', '5min', 0, 'y')!]).toEqual(['c']);
    expect(w.update('EURUSD', '15min', 0, 'z')).toBeUndefined();
    expect(w.update('GBPUSD', '1min', 60, 'z')).toBeUndefined();
  });

  test('a new stream’s snapshot: the last two candles of its period, oldest first, each at its latest update', () => {
    const w = charts();
    w.watch('a', 'EURUSD', '1min');
    expect([...w.latest('EURUSD', '1min')]).toEqual([]);
    for (const [time, data] of [
      [60, 'a1'],
      [60, 'a2'],
      [120, 'b1'],
      [180, 'c1'],
      [120, 'b2'],
    ] as const)
      w.update('EURUSD', '1min', time, data);
    expect([...w.latest('EURUSD', '1min')]).toEqual(['b2', 'c1']);
    expect([...w.latest('EURUSD', '5min')]).toEqual([]);
  });

  test('once closed, the last watcher drops the subscription at once and no linger is left', () => {
    const w = charts(1000);
    w.watch('a', 'EURUSD', '1min');
    w.watch('b', 'GBPUSD', '1min');
    w.unwatch('b', 'GBPUSD', '1min');
    w.close();
    expect(vi.getTimerCount()).toBe(0);
    w.unwatch('a', 'EURUSD', '1min');
    expect(log).toEqual(['sub EURUSD', 'sub GBPUSD', 'unsub EURUSD']);
  });
});

describe('keepLastTwo', () => {
  const kept = (updates: [number, string][]) => {
    const candles = new Map<number, string>();
    for (const [time, data] of updates) keepLastTwo(candles, time, data);
    return [...candles];
  };

  test('the newest update of the last two candles, in time order', () => {
    expect(kept([[60, 'a']])).toEqual([[60, 'a']]);
    expect(
      kept([
        [60, 'a'],
        [120, 'b'],
        [60, 'a2'],
        [180, 'c'],
        [180, 'c2'],
      ]),
    ).toEqual([
      [120, 'b'],
      [180, 'c2'],
    ]);
  });

  test('a late update of an older candle takes its place in time order; one older than both is dropped', () => {
    expect(
      kept([
        [180, 'c'],
        [60, 'a'],
      ]),
    ).toEqual([
      [60, 'a'],
      [180, 'c'],
    ]);
    expect(
      kept([
        [120, 'b'],
        [180, 'c'],
        [60, 'a'],
      ]),
    ).toEqual([
      [120, 'b'],
      [180, 'c'],
    ]);
    expect(
      kept([
        [60, 'a'],
        [180, 'c'],
        [120, 'b'],
      ]),
    ).toEqual([
      [120, 'b'],
      [180, 'c'],
    ]);
  });
});
