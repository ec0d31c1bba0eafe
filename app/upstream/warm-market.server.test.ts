/**
 * The rule for rendering from the relay's warm quotes. The states here are written by hand: they stand for
 * faults (a silent feed, a reconnect whose snapshot has not arrived) that server/relay/warm-market.test.ts
 * cannot produce on demand against the real upstream.
 */
import { describe, expect, test } from 'vitest';
import type { Instrument } from '#contract/calls/market';
import type { QuoteData, WarmMarketState } from '#contract/stream';
import { sharedAnswers, WARM_MAX_AGE_MS, withWarmQuotes } from './warm-market.server';

const NOW = 1_800_000_000_000;

const instrument = (Id: number, Code: string, Close: number): Instrument => ({
  Id,
  Code,
  ShowCode: Code,
  Logo: '',
  CategoryId: 1,
  MarketStatus: 1,
  PricePrecision: 5,
  Pip: 0.01,
  ForexContNum: 100_000,
  ForexMinCont: 0.01,
  ForexFeeRate: 0,
  MarginMode: 1,
  HasForexMultiple: [{ Value: 100 }],
  ForexQuotations: { Open: Close, Close, Change: 0, High: Close, Low: Close, Volume: 0 },
  QuoteCurrency: 'USD',
});
const catalogue = [instrument(1, 'EURUSD', 1.1), instrument(2, 'GBPUSD', 1.3)];

const quote = (forex_id: number, close: number, market_status = 1, seenAt = NOW - 100): QuoteData & { seenAt: number } => ({
  forex_id,
  symbol: '',
  close,
  change: 0.5,
  high: close + 0.01,
  low: close - 0.01,
  open: close - 0.005,
  volume: 7,
  market_status,
  seenAt,
});
const state = (changes: Partial<WarmMarketState> = {}): WarmMarketState => ({
  feed: 'up',
  heardAt: NOW - 50,
  connectedAt: NOW - 60_000,
  quotes: new Map([
    [1, quote(1, 1.2)],
    [2, quote(2, 1.4, 0)],
  ]),
  ...changes,
});

describe('withWarmQuotes', () => {
  test('a fresh feed gives every instrument its latest price and market status, the catalogue the rest', () => {
    const list = withWarmQuotes(catalogue, state(), NOW)!;
    expect(list.map((i) => [i.Code, i.ForexQuotations.Close, i.MarketStatus])).toEqual([
      ['EURUSD', 1.2, 1],
      ['GBPUSD', 1.4, 0],
    ]);
    expect(list[0]).toMatchObject({ PricePrecision: 5, HasForexMultiple: [{ Value: 100 }], ForexQuotations: { High: 1.21, Change: 0.5 } });
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
      [1, quote(1, 1.2, 1, NOW - 10)],
      [2, quote(2, 1.4, 0, NOW - 10)],
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
