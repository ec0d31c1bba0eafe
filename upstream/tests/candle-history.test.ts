/**
 * The candle history a chart scrolls back through (issue 40): at least 1,000 candles in every period, and the
 * `before` cursor pages through them without a gap or an overlap, back to the oldest.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { CHART_PERIODS, PERIOD_SECONDS, type ChartPeriod } from '../../contract/enums';
import { migrate, openDatabase, type Db } from '../db/database';
import { seed } from '../db/seed';
import { backfill, CandleBook, KEEP } from '../market/candles';

const now = Date.UTC(2026, 10, 25, 14, 37, 12) / 1000;
let db: Db;
let book: CandleBook;
const ids: Record<string, number> = {};

beforeAll(() => {
  db = openDatabase(':memory:');
  migrate(db);
  seed(db, { now, seed: 7, backfill: false });
  for (const code of ['BTCUSD', 'EURUSD']) {
    const row = db.prepare('SELECT id, seed_price, annual_volatility_ppm FROM instruments WHERE code = ?').get(code) as {
      id: number;
      seed_price: number;
      annual_volatility_ppm: number;
    };
    ids[code] = row.id;
    backfill(db, {
      instrumentId: row.id,
      price: row.seed_price,
      volatility: row.annual_volatility_ppm / 1e6,
      alwaysOpen: code === 'BTCUSD',
      now,
      seed: 7000 + row.id,
    });
  }
  book = new CandleBook(db);
  for (const id of Object.values(ids)) book.load(id);
});
afterAll(() => db.close());

/** Every page from the newest back, by the cursor: each page's first time is the next page's `before`. */
function pages(id: number, period: ChartPeriod, limit: number) {
  const all: number[][] = [];
  let before: number | undefined;
  for (;;) {
    const page = book.history(id, period, limit, before);
    if (page.length === 0) return all;
    all.push(page.map((c) => c.time));
    before = page[0]!.time;
  }
}

describe.each(['BTCUSD', 'EURUSD'])('%s', (code) => {
  test.each(CHART_PERIODS)('%s: at least 1,000 candles back, paged without gap or overlap to the oldest', (period) => {
    const id = ids[code]!;
    const list = pages(id, period, 173);
    const times = list.flat().sort((a, b) => a - b);
    expect(times.length).toBeGreaterThanOrEqual(1000);
    expect(KEEP[period]).toBeGreaterThanOrEqual(1000);
    // No overlap: each time once. No gap: the pages joined are the whole stored history, in order.
    expect(new Set(times).size).toBe(times.length);
    const stored = (
      db.prepare('SELECT time FROM candles WHERE instrument_id = ? AND period = ? ORDER BY time').all(id, period) as { time: number }[]
    ).map((r) => r.time);
    expect(times).toEqual(stored);
    // Each page is full but the oldest, oldest first, and older than the page after it.
    for (const [i, page] of list.entries()) {
      if (i < list.length - 1) expect(page).toHaveLength(173);
      for (let k = 1; k < page.length; k++) expect(page[k]!).toBeGreaterThan(page[k - 1]!);
      if (i > 0) expect(page.at(-1)!).toBeLessThan(list[i - 1]![0]!);
    }
    // The candles sit on their period's boundaries; crypto's intraday history has no hole.
    if (period !== '1day') {
      const step = PERIOD_SECONDS[period];
      for (const t of times) expect(t % step).toBe(0);
      if (code === 'BTCUSD') for (let k = 1; k < times.length; k++) expect(times[k]! - times[k - 1]!, `${period} #${k}`).toBe(step);
    }
  });
});

test('a walked candle is a candle, and the walk joins the minute-built history without a jump', () => {
  for (const period of ['30min', '60min', '1day'] as const) {
    const list = pages(ids.EURUSD!, period, 1000).flat();
    const rows = db
      .prepare('SELECT time, open, high, low, close FROM candles WHERE instrument_id = ? AND period = ? ORDER BY time')
      .all(ids.EURUSD!, period) as { time: number; open: number; high: number; low: number; close: number }[];
    expect(rows).toHaveLength(list.length);
    for (const [k, c] of rows.entries()) {
      expect(c.high, `${period} #${k}`).toBeGreaterThanOrEqual(Math.max(c.open, c.close));
      expect(c.low, `${period} #${k}`).toBeLessThanOrEqual(Math.min(c.open, c.close));
      expect(c.low).toBeGreaterThan(0);
      // Each candle opens where the one before it closed (the walk goes back from each open).
      if (k > 0 && period !== '1day') expect(c.open, `${period} #${k}`).toBe(rows[k - 1]!.close);
    }
  }
});

test('the cursor leaves out the current candle until it is past it, and a cursor before the oldest answers nothing', () => {
  const id = ids.BTCUSD!;
  const t = now + 30;
  book.tick(id, 123_456_00, 1, t);
  const newest = book.history(id, '1min', 3);
  expect(newest.at(-1)!.time).toBe(t - (t % 60));
  expect(newest.at(-1)!.close).toBe(123_456_00);
  // A cursor past the current candle: the same as none.
  expect(book.history(id, '1min', 3, newest.at(-1)!.time + 60)).toEqual(newest);
  // A cursor at the current candle: the candles before it.
  expect(book.history(id, '1min', 2, newest.at(-1)!.time)).toEqual(newest.slice(0, 2));
  const oldest = pages(id, '1min', 1000).at(-1)![0]!;
  expect(book.history(id, '1min', 10, oldest)).toEqual([]);
});
