/**
 * The relay hub against a REAL upstream (`startTestUpstream`: random port, temporary database), with
 * browsers played by real HTTP requests to a tiny server that mounts `handleStream`.
 */
import crypto from 'node:crypto';
import { afterAll, afterEach, beforeAll, expect, test } from 'vitest';
import { account, alerts, security, trade } from '../../contract/index';
import { startTestUpstream, type TestUpstream } from '../../upstream/testing';
import { STREAM_VERSION } from '../../contract/stream';
import type { LiveAccount, PriceAlert, Quote } from '../../contract/views';
import type {
  ClosedData,
  KlineData,
  LegacyAccountData,
  LegacyAlertData,
  LegacyKlineData,
  LegacyQuoteData,
  ResyncData,
  StatusData,
} from './events';
import { createRelay, type RelayHub, type RelayOptions } from './hub';
import {
  asBrowser,
  asVersion2,
  expectIncreasingIds,
  hasLegacyQuote,
  hasQuote,
  legacyQuotesIn,
  openStream,
  quotesIn,
  seqOf,
  sleep,
  startStreamServer,
  until,
  type SseEvent,
  type SseStream,
} from './test-support';

let up: TestUpstream;
beforeAll(async () => {
  up = await startTestUpstream();
  for (const code of ['EURUSD', 'GBPUSD', 'BTCUSD']) up.forceMarket(code, 'open');
  up.setPrice('EURUSD', 1.1);
  up.setPrice('GBPUSD', 1.3);
  up.setPrice('BTCUSD', 60000);
});
afterAll(() => up.close());

/** Everything a test opened, closed after it. */
const cleanup: (() => unknown)[] = [];
afterEach(async () => {
  for (const c of cleanup.splice(0).reverse()) await c();
});

async function relayWithServer(options: Partial<RelayOptions> = {}, serverOptions: { replayFrom?: RelayHub } = {}) {
  const relay = createRelay({ upstreamUrl: up.url, log: () => {}, ...options });
  cleanup.push(() => relay.close());
  const server = await startStreamServer(relay, serverOptions);
  cleanup.push(() => server.close());
  // Warm: the public socket is up and has the DAY_MARKET snapshot.
  await until(() => relay.stats().upstream === 'up' && relay.stats().quotes > 0, 5000, 'a warm hub');
  for (const q of relay.latestQuotes()) codes.set(q.instrumentId, q.code);
  /** A stream as today's browser asks for it (version 3), or as an older tab did (`legacy`: the path as given). */
  const open = async (path = '/stream', headers: Record<string, string> = {}, legacy = false) => {
    const s = await openStream(server.url, legacy ? path : asBrowser(path), headers);
    cleanup.push(() => s.close());
    return s;
  };
  return { relay, server, open };
}

/** The instruments' codes by id (the views' quotes name only the id). */
const codes = new Map<number, string>();
const codeOf = (id: number) => codes.get(id);
const idOf = (code: string) => [...codes].find(([, c]) => c === code)![0];

const isQuote = (code: string, price?: number) =>
  hasQuote((q) => codeOf(q.instrumentId) === code && (price === undefined || q.price === price));
const isLegacyQuote = (symbol: string, close?: number) =>
  hasLegacyQuote((q) => q.symbol === symbol && (close === undefined || q.close === close));
const quotesOf = (s: SseStream, code: string, from = 0) =>
  s.events
    .slice(from)
    .flatMap(quotesIn)
    .filter((q) => codeOf(q.instrumentId) === code);
/** A quote in the shapes before version 3. */
const legacyOf = (q: Quote): LegacyQuoteData => ({
  forex_id: q.instrumentId,
  symbol: codeOf(q.instrumentId)!,
  close: q.price,
  change: q.change,
  high: q.high,
  low: q.low,
  open: q.open,
  volume: q.volume,
  market_status: q.marketOpen ? 1 : 0,
});

test('SSE headers; on connect: status (with the version, no id), then the latest quote of every instrument as a view', async () => {
  const { relay, open } = await relayWithServer();
  const s = await open();
  expect(s.status).toBe(200);
  expect(s.headers['content-type']).toBe('text/event-stream');
  expect(s.headers['cache-control']).toContain('no-store');
  expect(s.headers['x-accel-buffering']).toBe('no');
  expect(s.headers['connection']).toBe('keep-alive');
  const first = await s.waitFor(() => true);
  expect(first.event).toBe('status');
  expect(first.json).toEqual({ state: 'up', version: STREAM_VERSION } satisfies StatusData);
  expect(first.id).toBe('');
  const eurusd = quotesIn(await s.waitFor(isQuote('EURUSD'))).find((q) => q.instrumentId === idOf('EURUSD'));
  expect(eurusd).toMatchObject({ instrumentId: 1, price: 1.1, marketOpen: true });
  expect(Object.keys(eurusd!).sort()).toEqual(['change', 'high', 'instrumentId', 'low', 'marketOpen', 'open', 'price', 'volume']);
  // Every instrument once at least (a tick may already have sent some a second time).
  const instrumentsSeen = () => new Set(s.events.flatMap(quotesIn).map((q) => q.instrumentId)).size;
  await until(() => instrumentsSeen() === relay.stats().quotes);
  expect(relay.latestQuotes().find((q) => q.code === 'EURUSD')).toMatchObject({ price: 1.1, instrumentId: 1 });
  expect(relay.stats()).toMatchObject({ legacyClients: 0, oldFormatClients: 0 });
  expectIncreasingIds(s.events);
});

test('bad code or period gets 400; a quotes list the hub cannot take gets every instrument', async () => {
  const { open, relay } = await relayWithServer();
  for (const query of ['code=EUR-USD&period=1min', `code=${'A'.repeat(33)}&period=1min`, 'code=EURUSD&period=2min', 'code=EURUSD']) {
    const s = await open(`/stream?${query}`);
    expect(s.status, query).toBe(400);
  }
  expect(relay.stats().clients).toBe(0);
  expect((await open('/stream?code=EURUSD&period=1day')).status).toBe(200);
  // A quotes list is only a hint to carry less: one it cannot take gets every instrument, not a 400 (which would
  // end the EventSource for good, and the user's private events with it).
  const sixtyFour = Array.from({ length: 64 }, (_, i) => i + 1).join(',');
  for (const quotes of ['1,x', '0', '1,,2', `${sixtyFour},65`]) {
    const s = await open(`/stream?quotes=${quotes}`);
    expect(s.status, quotes).toBe(200);
    await until(() => new Set(s.events.flatMap(quotesIn).map((q) => q.instrumentId)).size === relay.stats().quotes);
  }
  const narrow = await open(`/stream?quotes=${sixtyFour}`);
  await narrow.waitFor((e) => e.event === 'quotes');
  expect(narrow.status).toBe(200);
});

test('?quotes= narrows a stream to the instruments its page shows; the other streams still get every tick', async () => {
  const { server, open } = await relayWithServer();
  const [eur, btc] = [idOf('EURUSD'), idOf('BTCUSD')];
  const all = await open('/stream');
  const two = await open(`/stream?code=EURUSD&period=1min&quotes=${eur},${btc}`);
  const twoToo = await open(`/stream?quotes=${btc},${eur}`);
  const none = await open('/stream?quotes=');
  // The same set in the per-quote format (a trade screen loaded before v=2).
  const older = await openStream(server.url, `/stream?quotes=${eur},${btc}`);
  cleanup.push(() => older.close());
  for (const s of [all, two, twoToo, none, older]) await s.waitFor((e) => e.event === 'status');
  await all.waitFor(isQuote('GBPUSD'));
  await two.waitFor(isQuote('BTCUSD'));
  const symbolsOf = (s: SseStream) =>
    new Set(
      s === older ? s.events.flatMap(legacyQuotesIn).map((q) => q.symbol) : s.events.flatMap(quotesIn).map((q) => codeOf(q.instrumentId)),
    );
  // On connect: the latest quote of the instruments asked for only.
  expect(symbolsOf(two)).toEqual(new Set(['EURUSD', 'BTCUSD']));
  const from = [two.events.length, twoToo.events.length, older.events.length];
  up.setPrice('GBPUSD', 1.30311);
  up.setPrice('EURUSD', 1.10311);
  await all.waitFor(isQuote('GBPUSD', 1.30311));
  await all.waitFor(isQuote('EURUSD', 1.10311));
  const [a, b] = await Promise.all([
    two.waitFor(isQuote('EURUSD', 1.10311), { from: from[0] }),
    twoToo.waitFor(isQuote('EURUSD', 1.10311), { from: from[1] }),
    older.waitFor(isLegacyQuote('EURUSD', 1.10311), { from: from[2] }),
  ]);
  // The same set asked for in another order shares the frame.
  expect(a.id).toBe(b.id);
  up.setPrice('GBPUSD', 1.30322);
  await all.waitFor(isQuote('GBPUSD', 1.30322));
  await new Promise((r) => setTimeout(r, 300));
  expect(symbolsOf(two)).toEqual(new Set(['EURUSD', 'BTCUSD']));
  expect(symbolsOf(twoToo)).toEqual(new Set(['EURUSD', 'BTCUSD']));
  expect(symbolsOf(older)).toEqual(new Set(['EURUSD', 'BTCUSD']));
  expect(older.events.filter((e) => e.event === 'quotes')).toEqual([]);
  expect(none.events.flatMap(quotesIn)).toEqual([]);
  expect(none.events.filter((e) => e.event === 'status')).toHaveLength(1);
  for (const s of [two, twoToo, older]) expectIncreasingIds(s.events);
});

test('?quotes= for a low-data stream: what it is owed is only what it asked for', async () => {
  const { open } = await relayWithServer({ lowDataIntervalMs: 200 });
  const eur = idOf('EURUSD');
  const s = await open(`/stream?quotes=${eur}`, { 'save-data': 'on' });
  await s.waitFor(isQuote('EURUSD'));
  const from = s.events.length;
  up.setPrice('GBPUSD', 1.30433);
  up.setPrice('EURUSD', 1.10433);
  await s.waitFor(isQuote('EURUSD', 1.10433), { from });
  up.setPrice('GBPUSD', 1.30444);
  await new Promise((r) => setTimeout(r, 500));
  expect(s.events.flatMap(quotesIn).map((q) => q.instrumentId)).not.toContain(idOf('GBPUSD'));
});

test('fan-out: a tick reaches every client as a quote', async () => {
  const { open } = await relayWithServer();
  const streams = await Promise.all(Array.from({ length: 6 }, () => open()));
  await Promise.all(streams.map((s) => s.waitFor(isQuote('EURUSD'))));
  up.setPrice('EURUSD', 1.10123);
  const got = await Promise.all(streams.map((s) => s.waitFor(isQuote('EURUSD', 1.10123))));
  for (const e of got) expect(quotesIn(e).find((q) => q.instrumentId === idOf('EURUSD'))).toMatchObject({ price: 1.10123 });
  // One shared frame: the same id for every client.
  expect(new Set(got.map((e) => e.id)).size).toBe(1);
  for (const s of streams) expectIncreasingIds(s.events);
});

test('tabs loaded before version 3 (v=2, or no v before that) get the same quotes in the shapes before it', async () => {
  const { relay, open } = await relayWithServer();
  const now = await open('/stream');
  const version2 = await open(asVersion2('/stream'), {}, true);
  const before = await open('/stream', {}, true);
  await now.waitFor(isQuote('EURUSD'));
  await version2.waitFor(isLegacyQuote('EURUSD'));
  await before.waitFor((e) => e.event === 'quote' && (e.json as LegacyQuoteData).symbol === 'EURUSD');
  // Their status names the version too (their code reads only the state).
  for (const s of [version2, before]) expect(s.events[0]!.json).toEqual({ state: 'up', version: STREAM_VERSION });
  const from = [before.events.length, version2.events.length, now.events.length];
  up.setPrice('EURUSD', 1.10456);
  up.setPrice('GBPUSD', 1.30456);
  const batched = await now.waitFor(isQuote('GBPUSD', 1.30456), { from: from[2] });
  const batched2 = await version2.waitFor(isLegacyQuote('GBPUSD', 1.30456), { from: from[1] });
  await before.waitFor((e) => e.event === 'quote' && (e.json as LegacyQuoteData).close === 1.30456, { from: from[0] });
  expect(before.events.filter((e) => e.event === 'quotes')).toEqual([]);
  expect(relay.stats()).toMatchObject({ legacyClients: 2, oldFormatClients: 1 });
  // The same flush wrote all three: each quote of the views came to the others in the old shape, batched (v=2) or
  // as an event of its own.
  expect(legacyQuotesIn(batched2)).toEqual(quotesIn(batched).map(legacyOf));
  const legacy = before.events.slice(from[0]).filter((e) => e.event === 'quote');
  for (const q of quotesIn(batched)) expect(legacy.map((e) => e.json)).toContainEqual(legacyOf(q));
  for (const s of [now, version2, before]) expectIncreasingIds(s.events);
});

test('coalescing: many ticks of one instrument within a flush window reach a client as one quote with the last price', async () => {
  const { open } = await relayWithServer({ flushIntervalMs: 300 });
  const s = await open();
  await s.waitFor(isQuote('EURUSD'));
  // A tick after a quiet spell goes out almost at once (after the 10 ms gather) and opens a 300 ms window…
  up.setPrice('GBPUSD', 1.30077);
  await s.waitFor(isQuote('GBPUSD', 1.30077));
  const from = s.events.length;
  // …in which twenty ticks of EURUSD arrive.
  for (let i = 1; i <= 20; i++) up.setPrice('EURUSD', 1.1 + i / 10000);
  await s.waitFor(isQuote('EURUSD', 1.102), { from });
  await new Promise((r) => setTimeout(r, 700)); // two more windows: nothing else may come
  expect(quotesOf(s, 'EURUSD', from).map((q) => q.price)).toEqual([1.102]);
  expect(quotesOf(s, 'GBPUSD', from)).toEqual([]);
});

test('kline events only for the code and period a stream asked for', async () => {
  const { open } = await relayWithServer();
  const eur1 = await open('/stream?code=EURUSD&period=1min');
  const eur5 = await open('/stream?code=EURUSD&period=5min');
  const btc1 = await open('/stream?code=BTCUSD&period=1min');
  const none = await open('/stream');
  const older = await open(asVersion2('/stream?code=EURUSD&period=1min'), {}, true);
  // Tick until the upstream has taken the KLINE subscriptions (they travel over the socket).
  let price = 1.1;
  await until(
    () => {
      up.setPrice('EURUSD', (price += 0.0001));
      up.setPrice('BTCUSD', 60000 + price);
      return (
        eur1.events.some((e) => e.event === 'kline') &&
        eur5.events.some((e) => e.event === 'kline') &&
        btc1.events.some((e) => e.event === 'kline')
      );
    },
    5000,
    'klines',
  );
  up.setPrice('EURUSD', 1.2345);
  up.setPrice('GBPUSD', 1.31);
  const k = await eur1.waitFor((e) => e.event === 'kline' && (e.json as KlineData).close === 1.2345);
  expect(k.json).toMatchObject({ code: 'EURUSD', instrumentId: 1, period: '1min', close: 1.2345 });
  expect(Object.keys(k.json as object).sort()).toEqual([
    'close',
    'code',
    'high',
    'instrumentId',
    'low',
    'open',
    'period',
    'time',
    'volume',
  ]);
  await eur5.waitFor((e) => e.event === 'kline' && (e.json as KlineData).close === 1.2345);
  // The same candle, with the same id, in the shape before version 3.
  const old = await older.waitFor((e) => e.event === 'kline' && e.id === k.id);
  const c = k.json as KlineData;
  expect(old.json).toEqual({
    forex_id: c.instrumentId,
    symbol: c.code,
    Period: c.period,
    Time: c.time,
    Open: c.open,
    High: c.high,
    Low: c.low,
    Close: c.close,
    Volume: c.volume,
  } satisfies LegacyKlineData);
  await new Promise((r) => setTimeout(r, 100));
  const klines = (s: SseStream) => s.events.filter((e) => e.event === 'kline').map((e) => e.json as KlineData);
  expect(new Set(klines(eur1).map((c) => `${c.code} ${c.period}`))).toEqual(new Set(['EURUSD 1min']));
  expect(new Set(klines(eur5).map((c) => `${c.code} ${c.period}`))).toEqual(new Set(['EURUSD 5min']));
  expect(new Set(klines(btc1).map((c) => `${c.code} ${c.period}`))).toEqual(new Set(['BTCUSD 1min']));
  expect(klines(none)).toEqual([]);
  for (const s of [eur1, eur5, btc1, none, older]) expectIncreasingIds(s.events);
});

test('a chart that comes back within the linger gets the candle updates it missed, in its snapshot', async () => {
  const { open } = await relayWithServer();
  const first = await open('/stream?code=EURUSD&period=1min');
  let price = 1.1;
  await until(
    () => {
      up.setPrice('EURUSD', (price += 0.0001));
      return first.events.some((e) => e.event === 'kline');
    },
    5000,
    'klines',
  );
  first.close();
  // Nobody watches EURUSD now (a reload, the drawer's wider stream): the candle moves meanwhile.
  await new Promise((r) => setTimeout(r, 100));
  up.setPrice('EURUSD', 1.2468);
  await new Promise((r) => setTimeout(r, 300));
  const again = await open('/stream?code=EURUSD&period=1min');
  const k = await again.waitFor((e) => e.event === 'kline');
  // Written with the connect's snapshot (before any new tick), the newest candle last.
  const klines = again.events.filter((e) => e.event === 'kline').map((e) => e.json as KlineData);
  expect(klines.at(-1)).toMatchObject({ code: 'EURUSD', period: '1min', close: 1.2468 });
  expect(klines.length).toBeLessThanOrEqual(2);
  expect(k.json).toMatchObject({ period: '1min' });
  expect(klines.map((c) => c.time)).toEqual([...klines.map((c) => c.time)].sort((a, b) => a - b));
});

test('every count goes back to zero when the clients abort: KLINE unsubscribed after its last watcher, the private socket closed after the last tab', async () => {
  const { relay, open } = await relayWithServer({ privateLingerMs: 200, klineLingerMs: 200 });
  const { token, userId } = await up.demo();
  const socketsBefore = up.hub.size;
  const user = { 'x-test-user': `${userId}:${token}` };
  const a = await open('/stream?code=EURUSD&period=1min', user);
  const b = await open('/stream?code=EURUSD&period=15min', user);
  const c = await open('/stream?code=BTCUSD&period=1min');
  const anon = await Promise.all(Array.from({ length: 5 }, () => open()));
  await until(() => relay.stats().clients === 8);
  expect(relay.stats()).toMatchObject({ clients: 8, users: 1, privateSockets: 1 });
  expect(relay.stats().publicTopics.sort()).toEqual(['DAY_MARKET', 'KLINE.BTCUSD', 'KLINE.EURUSD']);
  await until(() => up.hub.size === socketsBefore + 1, 3000, 'the private socket at the upstream');

  a.close();
  await until(() => relay.stats().clients === 7);
  expect(relay.stats().publicTopics).toContain('KLINE.EURUSD'); // b still watches EURUSD
  expect(relay.stats()).toMatchObject({ users: 1, privateSockets: 1 });

  b.close();
  // The subscription lingers briefly for a reconnecting chart too, then goes.
  await until(() => relay.stats().clients === 6);
  expect(relay.stats().publicTopics).toContain('KLINE.EURUSD');
  await until(() => !relay.stats().publicTopics.includes('KLINE.EURUSD'), 3000, 'KLINE.EURUSD unsubscribed');
  expect(relay.stats().users).toBe(0);
  // The private socket lingers briefly for a reconnecting tab, then closes, at the upstream too.
  await until(() => relay.stats().privateSockets === 0, 3000, 'the private socket closed');
  await until(() => up.hub.size === socketsBefore, 3000, 'the upstream to see it closed');

  c.close();
  for (const s of anon) s.close();
  await until(() => relay.stats().clients === 0, 3000, 'no clients');
  await until(() => relay.stats().publicTopics.length === 1, 3000, 'KLINE.BTCUSD unsubscribed after its linger');
  expect(relay.stats()).toMatchObject({ clients: 0, users: 0, privateSockets: 0, publicTopics: ['DAY_MARKET'] });
});

test('many streams opened and dropped at once leave no subscriber behind', async () => {
  const { relay, open } = await relayWithServer({ privateLingerMs: 0, klineLingerMs: 0 });
  const users = await Promise.all([up.demo(), up.demo()]);
  const streams = await Promise.all(
    Array.from({ length: 60 }, (_, i) => {
      const u = users[i % 3];
      return open(
        `/stream?code=${['EURUSD', 'GBPUSD', 'BTCUSD'][i % 3]}&period=1min`,
        u ? { 'x-test-user': `${u.userId}:${u.token}` } : {},
      );
    }),
  );
  await until(() => relay.stats().clients === 60);
  expect(relay.stats()).toMatchObject({ users: 2, privateSockets: 2 });
  for (const s of streams) s.close();
  await until(() => relay.stats().clients === 0, 3000, 'no clients');
  expect(relay.stats()).toMatchObject({ clients: 0, users: 0, privateSockets: 0, publicTopics: ['DAY_MARKET'] });
});

/** A demo user with an open EURUSD buy whose take-profit is 1.2 (the price is 1.1 before). */
async function userWithOrder() {
  const { token, userId } = await up.demo();
  up.setPrice('EURUSD', 1.1);
  const env = await up.call(
    trade.submit,
    { type: 1, cont: '1', forex_id: 1, status: 1, multiple: 100, target_profit_price: '1.2' },
    { token },
  );
  expect(env.code).toBe(1);
  const order = trade.OrderSchema.parse(env.data);
  return { token, userId, order, headers: { 'x-test-user': `${userId}:${token}` } };
}

const isAccountWith = (orderId: number) => (e: SseEvent) =>
  e.event === 'account' && (e.json as LiveAccount).positions.some((o) => o.id === orderId);

test('private events: a signed-in stream gets account figures and, on a take-profit, the closed order id', async () => {
  const { open } = await relayWithServer();
  const { order, headers } = await userWithOrder();
  const s = await open('/stream', headers);
  const older = await open(asVersion2('/stream'), headers, true);
  const anon = await open();
  const acc = await s.waitFor(isAccountWith(order.Id), { timeoutMs: 4000 });
  const data = acc.json as LiveAccount;
  expect(Object.keys(data).sort()).toEqual(['balance', 'equity', 'freeMargin', 'margin', 'marginRatio', 'positions', 'profit', 'riskRate']);
  expect(data.margin).toBe(order.CautionMoney);
  expect(data.positions).toEqual([{ id: order.Id, profit: expect.any(Number), mark: 1.1 }]);
  expect(typeof data.riskRate).toBe('number');
  expect(data.marginRatio).toBeCloseTo((data.margin / data.equity) * 100);
  // A tab loaded before version 3 gets the same figures, under the same id, in the shape before it.
  const old = await older.waitFor((e) => e.event === 'account' && e.id === acc.id);
  expect(old.json).toEqual({
    equity: data.equity,
    margin: data.margin,
    risk_rate: data.riskRate,
    profit: data.profit,
    balance: data.balance,
    free_margin: data.freeMargin,
    orders: data.positions,
  } satisfies LegacyAccountData);

  up.setPrice('EURUSD', 1.2);
  const closed = await s.waitFor((e) => e.event === 'closed');
  expect(closed.json).toEqual({ ids: [order.Id] } satisfies ClosedData);
  expect((await older.waitFor((e) => e.event === 'closed')).json).toEqual(closed.json);
  await anon.waitFor(isQuote('EURUSD', 1.2));
  // The anonymous stream, open since before the first account push, saw the quote but nothing private.
  expect(anon.events.some((e) => e.event === 'account' || e.event === 'closed')).toBe(false);
  expect(quotesOf(anon, 'EURUSD').at(-1)?.price).toBe(1.2);
  expectIncreasingIds(s.events);
});

test('alert: a fired price alert reaches its user’s streams (not another user’s), and is replayed after Last-Event-ID', async () => {
  const { open } = await relayWithServer();
  up.setPrice('GBPUSD', 1.3);
  const { token, userId } = await up.demo();
  const headers = { 'x-test-user': `${userId}:${token}` };
  const env = await up.call(alerts.alertAdd, { forex_id: 2, direction: 1, price: '1.3050', note: 'resistance' }, { token });
  expect(env.code).toBe(1);
  const tab = await open('/stream', headers);
  const leaving = await open('/stream', headers);
  const leavingOlder = await open(asVersion2('/stream'), headers, true);
  const stranger = await up.demo();
  const other = await open('/stream', { 'x-test-user': `${stranger.userId}:${stranger.token}` });
  // The private sockets are subscribed once their account figures flow.
  await tab.waitFor((e) => e.event === 'account', { timeoutMs: 4000 });
  await other.waitFor((e) => e.event === 'account', { timeoutMs: 4000 });
  await leavingOlder.waitFor((e) => e.event === 'account', { timeoutMs: 4000 });
  const lastSeen = leaving.events.at(-1)!.id;
  const lastSeenOlder = leavingOlder.events.at(-1)!.id;
  leaving.close();
  leavingOlder.close();

  up.setPrice('GBPUSD', 1.306);
  const fired = await tab.waitFor((e) => e.event === 'alert');
  const at = expect.stringMatching(/^\d{4}-\d\d-\d\dT/) as string;
  expect(fired.json).toEqual({
    id: (env.data as { id: number }).id,
    code: 'GBPUSD',
    symbol: 'GBP/USD',
    digits: 5,
    direction: 'above',
    level: 1.305,
    note: 'resistance',
    createdAt: at,
    triggered: { at, price: 1.306 },
  } satisfies PriceAlert);
  await other.waitFor(isQuote('GBPUSD', 1.306));
  expect(other.events.some((e) => e.event === 'alert')).toBe(false);

  const back = await open('/stream', { ...headers, 'last-event-id': lastSeen });
  const replayed = await back.waitFor((e) => e.event === 'alert');
  expect(replayed.id).toBe(fired.id);
  expect(replayed.json).toEqual(fired.json);
  // A tab loaded before version 3 gets it replayed in the shape it reads.
  const backOlder = await open(asVersion2('/stream'), { ...headers, 'last-event-id': lastSeenOlder }, true);
  const replayedOlder = await backOlder.waitFor((e) => e.event === 'alert');
  expect(replayedOlder.id).toBe(fired.id);
  expect(replayedOlder.json).toEqual({
    id: (env.data as { id: number }).id,
    code: 'GBPUSD',
    symbol: 'GBP/USD',
    precision: 5,
    direction: 'above',
    level: 1.305,
    price: 1.306,
    note: 'resistance',
    at,
  } satisfies LegacyAlertData);
  up.setPrice('GBPUSD', 1.3);
});

test('Last-Event-ID: a reconnecting tab gets the private events it missed, replayed with their own ids', async () => {
  const { open } = await relayWithServer();
  const { order, headers } = await userWithOrder();
  const tab = await open('/stream', headers);
  const other = await open('/stream', headers); // the user's other tab keeps watching
  await tab.waitFor(isAccountWith(order.Id), { timeoutMs: 4000 });
  const lastSeen = tab.events.at(-1)!.id;
  tab.close();

  up.setPrice('EURUSD', 1.2);
  const live = await other.waitFor((e) => e.event === 'closed');

  const back = await open('/stream', { ...headers, 'last-event-id': lastSeen });
  const replayed = await back.waitFor((e) => e.event === 'closed');
  expect(replayed.json).toEqual({ ids: [order.Id] });
  expect(replayed.id).toBe(live.id); // the same event, not a new one
  expect(seqOf(replayed.id)).toBeGreaterThan(seqOf(lastSeen));
  // The status first (no id), then the replayed events, before this connection's quotes.
  expect(back.events[0]).toMatchObject({ event: 'status', id: '' });
  const firstNew = back.events.findIndex((e) => e.event === 'quotes');
  expect(back.events.indexOf(replayed)).toBeLessThan(firstNew);
  expect(back.events.slice(1, firstNew).every((e) => e.event === 'closed' || e.event === 'account')).toBe(true);
  expect(back.events.some((e) => e.event === 'resync')).toBe(false);
  expectIncreasingIds(back.events);

  // A reconnect that has seen everything gets nothing replayed.
  const upToDate = await open('/stream', { ...headers, 'last-event-id': back.events.at(-1)!.id });
  await upToDate.waitFor((e) => e.event === 'quotes');
  expect(upToDate.events[0]!.event).toBe('status');
  expect(upToDate.events[1]!.event).toBe('quotes');
});

test('Last-Event-ID: a reconnect that lands on another process gets the events it missed from that one, in its own shape', async () => {
  const first = await relayWithServer();
  // The second process answers a reconnect with an id it did not issue by asking the first (server/web.ts).
  const second = await relayWithServer({}, { replayFrom: first.relay });
  const { order, headers } = await userWithOrder();
  const tab = await first.open('/stream', headers);
  const older = await first.open(asVersion2('/stream'), headers, true);
  const watching = await first.open('/stream', headers);
  await tab.waitFor(isAccountWith(order.Id), { timeoutMs: 4000 });
  await older.waitFor((e) => e.event === 'account', { timeoutMs: 4000 });
  const [lastSeen, lastSeenOlder] = [tab.events.at(-1)!.id, older.events.at(-1)!.id];
  tab.close();
  older.close();
  up.setPrice('EURUSD', 1.2);
  const live = await watching.waitFor((e) => e.event === 'closed');
  const back = await second.open('/stream', { ...headers, 'last-event-id': lastSeen });
  const backOlder = await second.open(asVersion2('/stream'), { ...headers, 'last-event-id': lastSeenOlder }, true);
  for (const s of [back, backOlder]) {
    const replayed = await s.waitFor((e) => e.event === 'closed');
    expect(replayed).toMatchObject({ id: live.id, json: { ids: [order.Id] } });
    expect(s.events.some((e) => e.event === 'resync')).toBe(false);
  }
  // The figures it missed too, each in the shape its tab reads.
  expect(Object.keys((await back.waitFor((e) => e.event === 'account')).json as object)).toContain('freeMargin');
  expect(Object.keys((await backOlder.waitFor((e) => e.event === 'account')).json as object)).toContain('free_margin');
});

test('Last-Event-ID: the single tab reconnects within the linger and still gets the close it missed', async () => {
  const { relay, open } = await relayWithServer({ privateLingerMs: 5000 });
  const { order, headers } = await userWithOrder();
  const tab = await open('/stream', headers);
  await tab.waitFor(isAccountWith(order.Id), { timeoutMs: 4000 });
  const lastSeen = tab.events.at(-1)!.id;
  tab.close();
  await until(() => relay.stats().clients === 0);
  expect(relay.stats().privateSockets).toBe(1); // lingering
  up.setPrice('EURUSD', 1.2);
  await new Promise((r) => setTimeout(r, 300)); // the push travels to the lingering socket
  const back = await open('/stream', { ...headers, 'last-event-id': lastSeen });
  const replayed = await back.waitFor((e) => e.event === 'closed');
  expect(replayed.json).toEqual({ ids: [order.Id] });
  expect(back.events.indexOf(replayed)).toBeLessThan(back.events.findIndex((e) => e.event === 'quotes'));
});

test('Last-Event-ID in the query: a new EventSource (tab woke, network back) gets the close it missed', async () => {
  const { relay, open } = await relayWithServer({ privateLingerMs: 5000 });
  const { order, headers } = await userWithOrder();
  const tab = await open('/stream', headers);
  await tab.waitFor(isAccountWith(order.Id), { timeoutMs: 4000 });
  const lastSeen = tab.events.at(-1)!.id;
  tab.close();
  await until(() => relay.stats().clients === 0);
  up.setPrice('EURUSD', 1.2); // the take profit closes the order while no stream is open
  await new Promise((r) => setTimeout(r, 300));
  const back = await open(`/stream?lastEventId=${encodeURIComponent(lastSeen)}`, headers);
  const replayed = await back.waitFor((e) => e.event === 'closed');
  expect(replayed.json).toEqual({ ids: [order.Id] });
  expect(back.events.indexOf(replayed)).toBeLessThan(back.events.findIndex((e) => e.event === 'quotes'));
  // Without the id, the same reconnect learns nothing of the close.
  const blind = await open('/stream', headers);
  await blind.waitFor((e) => e.event === 'status');
  expect(blind.events.some((e) => e.event === 'closed')).toBe(false);
});

test('Last-Event-ID that is unknown, or older than what the hub still holds, gets resync', async () => {
  const { relay, open } = await relayWithServer({ privateLingerMs: 0 });
  const { token, userId } = await up.demo();
  const headers = { 'x-test-user': `${userId}:${token}` };

  for (const id of ['garbage', '00000000.1', '1', 'abc.def']) {
    const s = await open('/stream', { ...headers, 'last-event-id': id });
    const first = await s.waitFor((e) => e.event !== 'status');
    expect(first.event, id).toBe('resync');
    expect(first.json).toEqual({ reason: 'unknown-id' } satisfies ResyncData);
    s.close();
  }
  await until(() => relay.stats().privateSockets === 0);

  // A tab saw some events, left; with no linger the user's socket closed, so whatever happened since is gone.
  const tab = await open('/stream', headers);
  await tab.waitFor((e) => e.event === 'quotes');
  const lastSeen = tab.events.at(-1)!.id;
  tab.close();
  await until(() => relay.stats().privateSockets === 0);
  const back = await open('/stream', { ...headers, 'last-event-id': lastSeen });
  const first = await back.waitFor((e) => e.event !== 'status');
  expect(first.event).toBe('resync');
  expect(first.json).toEqual({ reason: 'gone' } satisfies ResyncData);

  // A signed-out stream has no private events to miss: a known id gets no resync.
  const anon = await open('/stream', { 'last-event-id': lastSeen });
  expect((await anon.waitFor((e) => e.event !== 'status')).event).toBe('quotes');
});

test('a quiet stream gets a ping event, which a browser hears (a comment it would not), without an id', async () => {
  const { open } = await relayWithServer({ heartbeatMs: 50 });
  const s = await open();
  await until(() => s.events.filter((e) => e.event === 'ping').length >= 3, 2000, 'three pings');
  const ping = s.events.find((e) => e.event === 'ping')!;
  expect([ping.json, ping.id]).toEqual([{}, '']);
});

test('a device signed out at the upstream (issue 38): its stream is told to revalidate and ended, the other device streams on', async () => {
  const { relay, open } = await relayWithServer();
  // One person, two devices: the same demo account opened twice gives two tokens of one user.
  const demoId = crypto.randomUUID();
  const ip = '198.18.7.7';
  const device = async () => {
    const env = await up.call(account.createAccountDemoForU, { demo_id: demoId }, { ip });
    const data = env.data as { token: string; user: { id: number } };
    return { token: data.token, headers: { 'x-test-user': `${data.user.id}:${data.token}` } };
  };
  const [phone, laptop] = [await device(), await device()];
  expect(phone.token).not.toBe(laptop.token);
  const phoneStream = await open('/stream', phone.headers);
  const laptopStream = await open('/stream', laptop.headers);
  await phoneStream.waitFor((e) => e.event === 'account');
  await laptopStream.waitFor((e) => e.event === 'account');

  // The phone signs every other device out: the upstream revokes the laptop's token and refuses it on its sockets.
  expect((await up.call(security.sessionEndOthers, {}, { token: phone.token })).code).toBe(1);
  const resync = await laptopStream.waitFor((e) => e.event === 'resync');
  expect(resync.json).toEqual({ reason: 'login-failed' } satisfies ResyncData);
  await laptopStream.ended;
  // Its reconnect with the same token is a visitor's stream: no account figures.
  const again = await open('/stream', laptop.headers);
  await sleep(1500);
  expect(again.events.some((e) => e.event === 'account')).toBe(false);
  // The phone's stream goes on with its private events.
  const from = phoneStream.events.length;
  await phoneStream.waitFor((e) => e.event === 'account', { from });
  expect(phoneStream.events.some((e) => e.event === 'resync')).toBe(false);
  expect(relay.stats()).toMatchObject({ users: 1 });
});
