import { afterEach, beforeEach, expect, test, vi } from 'vitest';
import { LatestQuotes } from './latest-quotes';
import { publicPushOf, type QuotePush } from './upstream-mapping';

const push = (forex_id: number, close: number, market_status = 1) =>
  publicPushOf({
    type: 'DAY_MARKET',
    symbol: `I${forex_id}`,
    forex_id,
    market_status,
    quotation: { close, change: 0, high: close, low: close, open: close, volume: 1 },
  }) as QuotePush;

beforeEach(() => vi.useFakeTimers({ toFake: ['Date', 'performance'], now: 1_000_000 }));
afterEach(() => vi.useRealTimers());

test('a new or changed quote is news; the same quote again only confirms the one held', () => {
  const quotes = new LatestQuotes();
  expect(quotes.take(push(1, 1.1))).toBe(true);
  const first = quotes.get(1)!;
  vi.advanceTimersByTime(500);
  // The upstream resends its snapshot on every subscribe.
  expect(quotes.take(push(1, 1.1))).toBe(false);
  expect(quotes.get(1)).toBe(first);
  expect(first).toMatchObject({ seenAt: 1_000_500, quote: { price: 1.1, code: 'I1', receivedAt: 1_000_000 } });
  expect(quotes.take(push(1, 1.2))).toBe(true);
  expect(quotes.get(1)).toMatchObject({ seenAt: 1_000_500, tickAt: first.tickAt + 500, quote: { price: 1.2, receivedAt: 1_000_500 } });
  expect(quotes.size).toBe(1);
});

test('every instrument’s latest quote, by id', () => {
  const quotes = new LatestQuotes();
  for (const [id, close] of [
    [7, 7.1],
    [2, 2.1],
    [7, 7.2],
    [4, 4.1],
  ])
    quotes.take(push(id!, close!));
  expect(quotes.list().map((q) => [q.instrumentId, q.price])).toEqual([
    [2, 2.1],
    [4, 4.1],
    [7, 7.2],
  ]);
  expect([...quotes.values()].map((e) => e.instrumentId)).toEqual([7, 2, 4]);
});

test('server rendering reads the feed’s state with each quote and when the feed last sent it', () => {
  const quotes = new LatestQuotes();
  quotes.take(push(1, 1.1));
  vi.advanceTimersByTime(100);
  quotes.take(push(1, 1.1));
  const warm = quotes.warm({ state: 'up', lastMessageAt: 5, openedAt: 3 });
  expect(warm).toMatchObject({ feed: 'up', heardAt: 5, connectedAt: 3 });
  expect(warm.quotes.get(1)).toMatchObject({ instrumentId: 1, price: 1.1, marketOpen: true, seenAt: 1_000_100 });
});
