/**
 * Contract tests of the market data calls: trade_list (search and category), getCategories (translated),
 * kline (all six periods, on backfilled history) and abbreviated_cache_kline. The upstream starts with its
 * candle history backfilled; prices are set by the test, the simulator is off.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { CHART_PERIODS, PERIOD_SECONDS, market } from '../../contract/index';
import { startTestUpstream, type TestUpstream } from '../testing';
import { expectError, expectOk } from './contract-helpers';

const locales = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'locales');
const categoryNames = (lang: string) =>
  (JSON.parse(fs.readFileSync(path.join(locales, `${lang}.json`), 'utf8')) as { categories: Record<string, string> }).categories;

let up: TestUpstream;
let ids: Record<string, number>;
/** The upstream's clock runs this far ahead of the real one (only the trading-hours tests, at the end, move it). */
let offsetMs = 0;
/** When the upstream started (seconds): its history was backfilled up to here. */
let startedAt = 0;

beforeAll(async () => {
  startedAt = Math.floor(Date.now() / 1000);
  up = await startTestUpstream({ backfill: true, clock: () => Date.now() + offsetMs });
  up.forceMarket('EURUSD', 'open');
  up.forceMarket('GBPUSD', 'closed');
  const list = expectOk(market.tradeList, await up.call(market.tradeList));
  ids = Object.fromEntries(list.map((i) => [i.Code, i.Id]));
});
afterAll(() => up.close());

/** Wall-clock time in London: a daily candle starts at London midnight. */
const londonClock = new Intl.DateTimeFormat('en-GB', { timeZone: 'Europe/London', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' });

/** True when x has at most `decimals` decimal places. */
const hasDecimals = (x: number, decimals: number) => Number(x.toFixed(decimals)) === x;

test('every call of this file is served and public', () => {
  for (const call of [market.tradeList, market.getCategories, market.kline, market.abbreviatedCacheKline]) {
    expect(up.app.hasRoute({ method: call.method, url: call.path }), call.name).toBe(true);
    expect(call.auth).toBe('none');
  }
});

describe('trade_list', () => {
  test('lists every instrument with its trading terms', async () => {
    up.setPrice('EURUSD', 1.0912);
    const list = expectOk(market.tradeList, await up.call(market.tradeList));
    expect(list.length).toBeGreaterThanOrEqual(20);
    expect(new Set(list.map((i) => i.Id)).size).toBe(list.length);
    expect(new Set(list.map((i) => i.Code)).size).toBe(list.length);
    const eur = list.find((i) => i.Code === 'EURUSD')!;
    expect(eur).toMatchObject({
      ShowCode: 'EUR/USD',
      Logo: '/static/logos/eurusd.svg',
      CategoryId: 1,
      MarketStatus: 1,
      PricePrecision: 5,
      Pip: 0.01,
      ForexContNum: 100000,
      ForexMinCont: 0.01,
      ForexFeeRate: 5,
      MarginMode: 2,
      HasForexMultiple: [{ Value: 10 }, { Value: 20 }, { Value: 50 }, { Value: 100 }, { Value: 200 }],
      QuoteCurrency: 'USD',
    });
    expect(eur.ForexQuotations.Close).toBe(1.0912);
    expect(list.find((i) => i.Code === 'GBPUSD')!.MarketStatus).toBe(0);
    expect(list.find((i) => i.Code === 'BTCUSD')!.MarketStatus).toBe(1);
    expect(list.find((i) => i.Code === 'XAGUSD')!.MarginMode).toBe(1);
    expect(list.find((i) => i.Code === 'USDJPY')!.QuoteCurrency).toBe('JPY');
    for (const i of list) {
      expect(i.HasForexMultiple.length, i.Code).toBeGreaterThan(0);
      expect(i.ForexMinCont, i.Code).toBeGreaterThan(0);
      expect(i.Pip, i.Code).toBeGreaterThan(0);
      const q = i.ForexQuotations;
      expect(q.Low, i.Code).toBeLessThanOrEqual(q.Close);
      expect(q.High, i.Code).toBeGreaterThanOrEqual(q.Close);
      for (const p of [q.Open, q.Close, q.High, q.Low]) expect(hasDecimals(p, i.PricePrecision), `${i.Code} ${p}`).toBe(true);
      expect(hasDecimals(q.Change, 2), `${i.Code} change ${q.Change}`).toBe(true);
    }
  });

  test("a quote agrees with today's daily candle, and Change is the percent since the day's open", async () => {
    up.setPrice('BTCUSD', 71234.56);
    const btc = expectOk(market.tradeList, await up.call(market.tradeList, { searchCurrency: 'BTC' }))[0]!;
    const day = expectOk(market.kline, await up.call(market.kline, { forex_id: ids.BTCUSD!, period: '1day', limit: 1 }))[0]!;
    expect(btc.ForexQuotations).toMatchObject({ Close: 71234.56, Open: day.Open, High: day.High, Low: day.Low });
    expect(day.Close).toBe(71234.56);
    expect(btc.ForexQuotations.Change).toBeCloseTo(((71234.56 - day.Open) / day.Open) * 100, 2);
  });

  test('searchCurrency finds by code or shown code, in any case and with separators', async () => {
    const codes = async (input: Record<string, unknown>) =>
      expectOk(market.tradeList, await up.call(market.tradeList, input)).map((i) => i.Code);
    expect(await codes({ searchCurrency: 'eur' })).toEqual(['EURUSD']);
    expect(await codes({ searchCurrency: 'btc/usd' })).toEqual(['BTCUSD']);
    expect(await codes({ searchCurrency: 'US Oil' })).toEqual(['USOIL']);
    const usd = await codes({ searchCurrency: 'usd' });
    expect(usd).toEqual(expect.arrayContaining(['EURUSD', 'USDJPY', 'XAUUSD', 'BTCUSD']));
    expect(usd.every((c) => c.includes('USD'))).toBe(true);
    expect(await codes({ searchCurrency: 'zzz' })).toEqual([]);
    // An empty search is no search.
    expect((await codes({ searchCurrency: '' })).length).toBe(Object.keys(ids).length);
  });

  test('category_id filters, alone and with a search', async () => {
    const crypto = expectOk(market.tradeList, await up.call(market.tradeList, { category_id: 3 }));
    expect(crypto.map((i) => i.Code)).toEqual(expect.arrayContaining(['BTCUSD', 'ETHUSD']));
    expect(crypto.every((i) => i.CategoryId === 3)).toBe(true);
    expect(crypto.map((i) => i.Code)).not.toContain('EURUSD');
    const eth = expectOk(market.tradeList, await up.call(market.tradeList, { category_id: 3, searchCurrency: 'eth' }));
    expect(eth.map((i) => i.Code)).toEqual(['ETHUSD']);
    expect(expectOk(market.tradeList, await up.call(market.tradeList, { category_id: 1, searchCurrency: 'btc' }))).toEqual([]);
    expect(expectOk(market.tradeList, await up.call(market.tradeList, { category_id: 99 }))).toEqual([]);
    // Every category's list together is the whole list.
    const cats = expectOk(market.getCategories, await up.call(market.getCategories));
    let sum = 0;
    for (const c of cats) sum += expectOk(market.tradeList, await up.call(market.tradeList, { category_id: c.Id })).length;
    expect(sum).toBe(Object.keys(ids).length);
  });

  test('a category_id that is not a number is an invalid request', async () => {
    expectError(await up.call(market.tradeList, { category_id: 'abc' }), 'InvalidRequest');
    expectError(await up.call(market.tradeList, { category_id: '1.5' }), 'InvalidRequest');
  });

  test("every instrument's logo is served and is its own: a pair's badge names both currencies", async () => {
    const list = expectOk(market.tradeList, await up.call(market.tradeList));
    const logos = new Map<string, string>();
    for (const i of list) {
      const res = await fetch(new URL(i.Logo, up.url));
      expect(res.status, i.Logo).toBe(200);
      expect(res.headers.get('content-type')).toMatch(/^image\/svg\+xml/);
      logos.set(i.Code, await res.text());
    }
    expect(new Set(logos.values()).size).toBe(list.length);
    // The three USD/… pairs once shared one 'USD' badge.
    for (const [code, quote] of [
      ['USDJPY', 'JPY'],
      ['USDCHF', 'CHF'],
      ['USDCAD', 'CAD'],
    ] as const) {
      expect(logos.get(code)).toContain(`>USD</text>`);
      expect(logos.get(code)).toContain(`>${quote}</text>`);
    }
    expect((await fetch(new URL('/static/logos/nosuch.svg', up.url))).status).toBe(404);
  });
});

describe('getCategories', () => {
  test('lists the five categories with English names', async () => {
    const cats = expectOk(market.getCategories, await up.call(market.getCategories));
    expect(cats).toEqual([
      { Id: 1, Code: 'forex', NameShowTrans: 'Forex' },
      { Id: 2, Code: 'metals', NameShowTrans: 'Metals' },
      { Id: 3, Code: 'crypto', NameShowTrans: 'Crypto' },
      { Id: 4, Code: 'indices', NameShowTrans: 'Indices' },
      { Id: 5, Code: 'energy', NameShowTrans: 'Energy' },
    ]);
  });

  test.each(['fr', 'jp', 'hk'])('NameShowTrans is translated by the lang header (%s)', async (lang) => {
    const names = categoryNames(lang);
    const cats = expectOk(market.getCategories, await up.call(market.getCategories, {}, { lang }));
    expect(cats.map((c) => c.NameShowTrans)).toEqual(cats.map((c) => names[c.Code]));
    expect(cats.map((c) => c.Id)).toEqual([1, 2, 3, 4, 5]);
  });

  test('the translations are real: jp and fr differ from English where expected', async () => {
    const jp = expectOk(market.getCategories, await up.call(market.getCategories, {}, { lang: 'jp' }));
    expect(jp.find((c) => c.Code === 'metals')!.NameShowTrans).toBe('貴金属');
    const fr = expectOk(market.getCategories, await up.call(market.getCategories, {}, { lang: 'fr' }));
    expect(fr.find((c) => c.Code === 'metals')!.NameShowTrans).toBe('Métaux');
  });

  test('a stored tw reads as hk; an unknown language falls back to English', async () => {
    const tw = expectOk(market.getCategories, await up.call(market.getCategories, {}, { lang: 'tw' }));
    expect(tw.find((c) => c.Code === 'forex')!.NameShowTrans).toBe(categoryNames('hk').forex);
    const xx = expectOk(market.getCategories, await up.call(market.getCategories, {}, { lang: 'xx' }));
    expect(xx.find((c) => c.Code === 'forex')!.NameShowTrans).toBe('Forex');
  });
});

describe('kline', () => {
  function checkSeries(
    points: { Time: number; Open: number; High: number; Low: number; Close: number; Volume: number }[],
    period: string,
    precision: number,
  ) {
    for (let i = 0; i < points.length; i++) {
      const c = points[i]!;
      if (i > 0) expect(c.Time, `${period} #${i}`).toBeGreaterThan(points[i - 1]!.Time);
      if (period === '1day') expect(londonClock.format(c.Time * 1000), `${period} #${i}`).toBe('00:00');
      else expect(c.Time % PERIOD_SECONDS[period as keyof typeof PERIOD_SECONDS], `${period} #${i}`).toBe(0);
      expect(c.High).toBeGreaterThanOrEqual(Math.max(c.Open, c.Close));
      expect(c.Low).toBeLessThanOrEqual(Math.min(c.Open, c.Close));
      expect(c.Low).toBeGreaterThan(0);
      expect(c.Volume).toBeGreaterThanOrEqual(0);
      for (const p of [c.Open, c.High, c.Low, c.Close]) expect(hasDecimals(p, precision), `${period} ${p}`).toBe(true);
    }
  }

  test.each(CHART_PERIODS)('BTCUSD %s: 300 candles for limit=300, times ascending and on period boundaries', async (period) => {
    const env = await up.call(market.kline, { forex_id: ids.BTCUSD!, period, limit: 300 });
    const points = expectOk(market.kline, env);
    expect(points.length).toBeGreaterThanOrEqual(300);
    expect(points.length).toBeLessThanOrEqual(300);
    checkSeries(points, period, 2);
    // Crypto never closes: the backfilled intraday history has a candle for every period, without gaps.
    // (With the simulator off, a period in which the test set no price has no candle: only history before
    // the start is checked.)
    if (period !== '1day') {
      const step = PERIOD_SECONDS[period];
      const history = points.filter((c) => c.Time + step <= startedAt);
      expect(history.length).toBeGreaterThanOrEqual(295);
      for (let i = 1; i < history.length; i++) expect(history[i]!.Time - history[i - 1]!.Time, `${period} #${i}`).toBe(step);
    } else {
      // One candle per London day (23 to 25 hours apart across clock changes).
      for (let i = 1; i < points.length; i++) {
        const gap = points[i]!.Time - points[i - 1]!.Time;
        expect(gap >= 23 * 3600 && gap <= 25 * 3600, `day gap ${gap} at #${i}`).toBe(true);
      }
    }
    // The newest candle is the current one.
    const now = Math.floor(Date.now() / 1000);
    expect(now - points.at(-1)!.Time).toBeLessThan(period === '1day' ? 2 * 86400 : 2 * PERIOD_SECONDS[period]);
  });

  test.each(CHART_PERIODS)('EURUSD %s (closes at weekends): 300 candles, ascending', async (period) => {
    const points = expectOk(market.kline, await up.call(market.kline, { forex_id: ids.EURUSD!, period, limit: 300 }));
    expect(points.length).toBe(300);
    checkSeries(points, period, 5);
  });

  test('limit defaults to 300 and a smaller limit answers the newest candles', async () => {
    const all = expectOk(market.kline, await up.call(market.kline, { forex_id: ids.ETHUSD!, period: '15min' }));
    expect(all).toHaveLength(300);
    const last10 = expectOk(market.kline, await up.call(market.kline, { forex_id: ids.ETHUSD!, period: '15min', limit: 10 }));
    expect(last10).toEqual(all.slice(-10));
  });

  test('a new price shows in the current candle of every period', async () => {
    up.setPrice('ETHUSD', 3600.12);
    for (const period of CHART_PERIODS) {
      const points = expectOk(market.kline, await up.call(market.kline, { forex_id: ids.ETHUSD!, period, limit: 5 }));
      const last = points.at(-1)!;
      expect(last.Close, period).toBe(3600.12);
      expect(last.High, period).toBeGreaterThanOrEqual(3600.12);
      expect(last.Low, period).toBeLessThanOrEqual(3600.12);
    }
  });

  test('an unknown instrument is InstrumentNotFound; a bad period, limit or missing forex_id is an invalid request', async () => {
    expectError(await up.call(market.kline, { forex_id: 9999, period: '1min' }), 'InstrumentNotFound');
    expectError(await up.call(market.kline, { forex_id: ids.BTCUSD!, period: '2min' }), 'InvalidRequest');
    expectError(await up.call(market.kline, { forex_id: ids.BTCUSD! }), 'InvalidRequest');
    expectError(await up.call(market.kline, { period: '1min' }), 'InvalidRequest');
    expectError(await up.call(market.kline, { forex_id: ids.BTCUSD!, period: '1min', limit: 0 }), 'InvalidRequest');
    expectError(await up.call(market.kline, { forex_id: ids.BTCUSD!, period: '1min', limit: 1001 }), 'InvalidRequest');
  });
});

describe('abbreviated_cache_kline', () => {
  test('without forex_id: a short close series for every instrument', async () => {
    const series = expectOk(market.abbreviatedCacheKline, await up.call(market.abbreviatedCacheKline));
    expect(series.map((s) => s.forex_id).sort((a, b) => a - b)).toEqual(Object.values(ids).sort((a, b) => a - b));
    for (const s of series) {
      expect(s.points.length, String(s.forex_id)).toBeGreaterThan(1);
      expect(s.points.length, String(s.forex_id)).toBeLessThanOrEqual(100);
      for (const p of s.points) expect(p).toBeGreaterThan(0);
    }
  });

  test('with forex_id: one series, the closes of the latest 60min candles, ending at the current price', async () => {
    up.setPrice('XAUUSD', 2701.33);
    const [series, ...rest] = expectOk(
      market.abbreviatedCacheKline,
      await up.call(market.abbreviatedCacheKline, { forex_id: ids.XAUUSD! }),
    );
    expect(rest).toEqual([]);
    expect(series!.forex_id).toBe(ids.XAUUSD);
    expect(series!.points.at(-1)).toBe(2701.33);
    const hours = expectOk(
      market.kline,
      await up.call(market.kline, { forex_id: ids.XAUUSD!, period: '60min', limit: series!.points.length }),
    );
    expect(series!.points).toEqual(hours.map((c) => c.Close));
  });

  test('the period can be chosen', async () => {
    up.setPrice('XAUUSD', 2702.5);
    const [series] = expectOk(
      market.abbreviatedCacheKline,
      await up.call(market.abbreviatedCacheKline, { forex_id: ids.XAUUSD!, period: '1min' }),
    );
    expect(series!.points.at(-1)).toBe(2702.5);
    const minutes = expectOk(
      market.kline,
      await up.call(market.kline, { forex_id: ids.XAUUSD!, period: '1min', limit: series!.points.length }),
    );
    expect(series!.points).toEqual(minutes.map((c) => c.Close));
  });

  test('an unknown instrument is InstrumentNotFound; a bad period is an invalid request', async () => {
    expectError(await up.call(market.abbreviatedCacheKline, { forex_id: 9999 }), 'InstrumentNotFound');
    expectError(await up.call(market.abbreviatedCacheKline, { period: '7min' }), 'InvalidRequest');
    expectError(await up.call(market.abbreviatedCacheKline, { forex_id: 'x' }), 'InvalidRequest');
  });
});

describe('trading hours (the upstream clock is moved; this runs last)', () => {
  /** The next instant after now that falls on UTC weekday `day` (0 Sunday) at hh:mm. */
  function next(day: number, hh: number, mm: number): number {
    const d = new Date();
    d.setUTCHours(hh, mm, 0, 0);
    while (d.getUTCDay() !== day || d.getTime() <= Date.now()) d.setUTCDate(d.getUTCDate() + 1);
    return d.getTime();
  }
  async function statusAt(at: number) {
    offsetMs = at - Date.now();
    const list = expectOk(market.tradeList, await up.call(market.tradeList));
    return Object.fromEntries(list.map((i) => [i.Code, i.MarketStatus]));
  }

  test('forex, metals, indices and energy close from Friday 22:00 to Sunday 22:00 UTC; crypto never; a forced switch wins', async () => {
    up.forceMarket('EURUSD', 'auto');
    up.forceMarket('GBPUSD', 'auto');
    up.forceMarket('XAUUSD', 'closed');
    try {
      const cases: [number, number][] = [
        [next(3, 12, 0), 1], // Wednesday noon
        [next(5, 21, 59), 1], // Friday 21:59
        [next(5, 22, 0), 0], // Friday 22:00
        [next(6, 12, 0), 0], // Saturday
        [next(0, 21, 59), 0], // Sunday 21:59
        [next(0, 22, 0), 1], // Sunday 22:00
      ];
      for (const [at, open] of cases) {
        const s = await statusAt(at);
        const when = new Date(at).toISOString();
        for (const code of ['EURUSD', 'GBPUSD', 'XAGUSD', 'US30', 'USOIL']) expect(s[code], `${code} at ${when}`).toBe(open);
        for (const code of ['BTCUSD', 'ETHUSD']) expect(s[code], `${code} at ${when}`).toBe(1);
        expect(s.XAUUSD, `forced closed at ${when}`).toBe(0);
      }
      up.forceMarket('XAUUSD', 'open');
      expect((await statusAt(next(6, 12, 0))).XAUUSD).toBe(1);
    } finally {
      offsetMs = 0;
      up.forceMarket('XAUUSD', 'auto');
    }
  });
});
