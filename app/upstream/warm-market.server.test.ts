/**
 * The rule for rendering from the relay's warm quotes. The states here are written by hand: they stand for
 * faults (a silent feed, a reconnect whose snapshot has not arrived) that server/relay/warm-market.test.ts
 * cannot produce on demand against the real upstream.
 */
import { describe, expect, test } from 'vitest';
import type { WarmMarketState } from '#contract/stream';
import type { Instrument, Quote } from '#contract/views';
import { currencyPair } from '~/utils/instrument.test-support';
import { sharedAnswers, WARM_MAX_AGE_MS, withWarmQuotes } from './warm-market.server';

const NOW = 1_800_000_000_000;

const instrument = (id: number, code: string, price: number): Instrument => currencyPair(id, code, price);
const catalogue = [instrument(1, 'EURUSD', 1.1), instrument(2, 'GBPUSD', 1.3)];

const quote = (instrumentId: number, price: number, marketOpen = true, seenAt = NOW - 100): Quote & { seenAt: number } => ({
  instrumentId,
  price,
  change: 0.5,
  high: price + 0.01,
  low: price - 0.01,
  open: price - 0.005,
  volume: 7,
  marketOpen,
  seenAt,
});
const state = (changes: Partial<WarmMarketState> = {}): WarmMarketState => ({
  feed: 'up',
  heardAt: NOW - 50,
  connectedAt: NOW - 60_000,
  quotes: new Map([
    [1, quote(1, 1.2)],
    [2, quote(2, 1.4, false)],
  ]),
  ...changes,
});

describe('withWarmQuotes', () => {
  test('a fresh feed gives every instrument its latest price and market status, the catalogue the rest', () => {
    const list = withWarmQuotes(catalogue, state(), NOW)!;
    expect(list.map((i) => [i.code, i.quote.price, i.quote.marketOpen])).toEqual([
      ['EURUSD', 1.2, true],
      ['GBPUSD', 1.4, false],
    ]);
    expect(list[0]).toMatchObject({ digits: 5, leverages: [10, 100], quote: { instrumentId: 1, high: 1.21, change: 0.5 } });
    // Only the quote's own fields: nothing else of what the relay keeps.
    expect(Object.keys(list[0]!.quote).sort()).toEqual(['change', 'high', 'instrumentId', 'low', 'marketOpen', 'open', 'price', 'volume']);
  });

  test('no relay, or a feed that is not up, is not used', () => {
    expect(withWarmQuotes(catalogue, undefined, NOW)).toBeNull();
    expect(withWarmQuotes(catalogue, state({ feed: 'stale' }), NOW)).toBeNull();
    expect(withWarmQuotes(catalogue, state({ feed: 'down' }), NOW)).toBeNull();
  });

  test('a feed silent for longer than the bound is not used, even while it still counts as up', () => {
    expect(withWarmQuotes(catalogue, state({ heardAt: NOW - WARM_MAX_AGE_MS }), NOW)).not.toBeNull();
    expect(withWarmQuotes(catalogue, state({ heardAt: NOW - WARM_MAX_AGE_MS - 1 }), NOW)).toBeNull();
  });

  test('after a reconnect, a quote its snapshot has not sent again is not used', () => {
    const reconnected = state({ connectedAt: NOW - 20 });
    expect(withWarmQuotes(catalogue, reconnected, NOW)).toBeNull();
    const resent = new Map([
      [1, quote(1, 1.2, true, NOW - 10)],
      [2, quote(2, 1.4, false, NOW - 10)],
    ]);
    expect(withWarmQuotes(catalogue, { ...reconnected, quotes: resent }, NOW)).not.toBeNull();
  });

  test('an instrument the relay has no quote for sends the whole list to the upstream', () => {
    expect(withWarmQuotes([...catalogue, instrument(3, 'USDJPY', 150)], state(), NOW)).toBeNull();
  });
});

describe('sharedAnswers', () => {
  test('reuses an answer for its time, then asks again; a failure is not kept', async () => {
    const answers = sharedAnswers<number>(5000);
    let calls = 0;
    const load = async () => ++calls;
    expect(await answers.get('a', load, NOW)).toBe(1);
    expect(await answers.get('a', load, NOW + 4999)).toBe(1);
    expect(await answers.get('b', load, NOW)).toBe(2);
    await expect(answers.get('c', () => Promise.reject(new Error('down')), NOW)).rejects.toThrow('down');
    expect(await answers.get('c', load, NOW)).toBe(3);
    expect(await answers.get('a', load, NOW + 5000)).toBe(4);
  });
});
