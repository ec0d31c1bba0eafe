/**
 * Contract test of kline's `before` (issue 40): a candle time as a cursor; the answer is the `limit` candles strictly
 * older, oldest first, so a caller pages back through at least 1,000 candles of every period. The upstream starts
 * with its history backfilled; the simulator is off.
 */
import { afterAll, beforeAll, expect, test } from 'vitest';
import { CHART_PERIODS, market } from '../../contract/index';
import { startTestUpstream, type TestUpstream } from '../testing';
import { expectError, expectOk } from './contract-helpers';

let up: TestUpstream;
let ids: Record<string, number>;

beforeAll(async () => {
  up = await startTestUpstream({ backfill: true });
  const list = expectOk(market.tradeList, await up.call(market.tradeList));
  ids = Object.fromEntries(list.map((i) => [i.Code, i.Id]));
});
afterAll(() => up.close());

test.each(CHART_PERIODS)('EURUSD %s: pages of 1,000 by `before` reach 1,000+ candles, each strictly older, none twice', async (period) => {
  const newest = expectOk(market.kline, await up.call(market.kline, { forex_id: ids.EURUSD!, period, limit: 1000 }));
  expect(newest.length).toBe(1000);
  const older = expectOk(
    market.kline,
    await up.call(market.kline, { forex_id: ids.EURUSD!, period, limit: 1000, before: newest[0]!.Time }),
  );
  for (const c of older) expect(c.Time).toBeLessThan(newest[0]!.Time);
  for (let i = 1; i < older.length; i++) expect(older[i]!.Time).toBeGreaterThan(older[i - 1]!.Time);
  // A page in the middle is the same candles as the newest list's slice before that time.
  const middle = newest[500]!.Time;
  const page = expectOk(market.kline, await up.call(market.kline, { forex_id: ids.EURUSD!, period, limit: 100, before: middle }));
  expect(page).toEqual(newest.slice(400, 500));
});

test('a cursor past the newest candle answers the newest; before the oldest, nothing; a cursor must be an integer', async () => {
  const id = ids.BTCUSD!;
  const newest = expectOk(market.kline, await up.call(market.kline, { forex_id: id, period: '1day', limit: 5 }));
  const future = expectOk(
    market.kline,
    await up.call(market.kline, { forex_id: id, period: '1day', limit: 5, before: newest.at(-1)!.Time + 86400 * 3 }),
  );
  expect(future).toEqual(newest);
  expect(expectOk(market.kline, await up.call(market.kline, { forex_id: id, period: '1day', limit: 5, before: 1 }))).toEqual([]);
  expectError(await up.call(market.kline, { forex_id: id, period: '1day', before: 'yesterday' }), 'InvalidRequest');
  expectError(await up.call(market.kline, { forex_id: id, period: '1day', before: 1.5 }), 'InvalidRequest');
});
