/**
 * The hub against a FAKE upstream websocket server (in this test). It simulates what the real upstream
 * cannot produce: a black-holed upstream (connections stay open but nothing comes back, not even `pong`),
 * malformed messages, and floods of private pushes. Intervals are shortened so this runs in well under a second or two.
 */
import express from 'express';
import http from 'node:http';
import net from 'node:net';
import { afterEach, expect, test, vi } from 'vitest';
import type { DayMarketPush, ForexTradePush } from '../../contract/ws';
import type { KlineData, ResyncData } from './events';
import { createRelay, PRICES_RECONNECT_MAX_MS, type RelayOptions } from './hub';
import {
  asBrowser,
  expectIncreasingIds,
  hasQuote,
  openStream,
  quotesIn,
  seqOf,
  sleep,
  startFakeUpstream,
  startStreamServer,
  until,
  type FakeConnection,
  type FakeUpstream,
  type SseEvent,
  type SseStream,
} from './test-support';

const FAST_SOCKET = { pingIntervalMs: 40, missedPingsBeforeReconnect: 3, connectTimeoutMs: 300, backoff: { initialMs: 20, maxMs: 80 } };

const cleanup: (() => unknown)[] = [];
afterEach(async () => {
  for (const c of cleanup.splice(0).reverse()) await c();
});

async function setup(options: Partial<RelayOptions> = {}) {
  const fake = await startFakeUpstream();
  cleanup.push(() => fake.close());
  const relay = createRelay({ upstreamUrl: fake.url, socket: FAST_SOCKET, log: () => {}, ...options });
  cleanup.push(() => relay.close());
  const server = await startStreamServer(relay);
  cleanup.push(() => server.close());
  const open = async (path = '/stream', headers: Record<string, string> = {}) => {
    const s = await openStream(server.url, asBrowser(path), headers);
    cleanup.push(() => s.close());
    return s;
  };
  await until(() => relay.stats().upstream === 'up');
  return { fake, relay, server, open };
}

/** The fake's connection whose first message is a login (private) or a sub (public). */
function conn(fake: FakeUpstream, kind: 'public' | 'private', nth = 0): FakeConnection | undefined {
  return fake.connections.filter((c) => (c.messages[0]?.type === 'login') === (kind === 'private'))[nth];
}

function dayMarket(symbol: string, forex_id: number, close: number): DayMarketPush {
  return {
    type: 'DAY_MARKET',
    symbol,
    forex_id,
    market_status: 1,
    quotation: { close, change: 0.1, high: close, low: close, open: close, volume: 3 },
  };
}

function forexTrade(orders: number): ForexTradePush {
  return {
    type: 'FOREX_TRADE',
    HazardRate: 250,
    CautionMoneyAll: 1000,
    ProfitsTotal: 12.5,
    OriginCautionMoneyTotal: 2500,
    Balance: 2487.5,
    FreeMargin: 1500,
    TransOrder: Array.from({ length: orders }, (_, i) => ({ Id: 1_000_000 + i, FactProfits: 0.123456, UpdatePrice: 1.23456 })),
  };
}

/** A ~60 KB FOREX_CLOSED push. */
function bigClosed(i: number) {
  return { type: 'FOREX_CLOSED', id: Array.from({ length: 8000 }, (_, k) => i * 10_000 + k + 100_000) };
}

/**
 * A reading tab of the user and a stalled one (it sends its request, then never reads a byte), once both are
 * streams of the hub and the user's private socket is subscribed.
 */
async function readerAndStalled({ fake, relay, server, open }: Awaited<ReturnType<typeof setup>>, user: string, stalledPath = '/stream') {
  const reader = await open('/stream', { 'x-test-user': user });
  const url = new URL(server.url);
  const stalled = net.connect(Number(url.port), url.hostname);
  stalled.on('error', () => {});
  cleanup.push(() => stalled.destroy());
  stalled.write(`GET ${stalledPath} HTTP/1.1\r\nHost: x\r\nAccept: text/event-stream\r\nx-test-user: ${user}\r\n\r\n`);
  stalled.pause();
  await until(() => relay.stats().clients === 2 && conn(fake, 'private')?.messages.length === 2);
  return { reader, stalled };
}

const statuses = (s: SseStream) => s.events.filter((e) => e.event === 'status').map((e) => (e.json as { state: string }).state);

test('each stream is told on opening to reconnect after its own delay, spread over 1–5 s (a crashed process cannot say it later)', async () => {
  const { open } = await setup({ retryMs: 2_000 });
  const streams = await Promise.all(Array.from({ length: 20 }, () => open()));
  await Promise.all(streams.map((s) => s.waitFor((e) => e.event === 'status')));
  const retries = streams.map((s) => s.retry);
  for (const r of retries) {
    expect(r).toBeGreaterThanOrEqual(1_000);
    expect(r).toBeLessThan(5_000);
  }
  // Not one value for all: 20 draws over 4,000 ms leave at least 10 distinct values (each pair meets with p = 1/4,000).
  expect(new Set(retries).size).toBeGreaterThanOrEqual(10);
});

test('a black-holed upstream: browsers see stale then down, the sockets reconnect, log in again, re-subscribe, and browsers see up and resync', async () => {
  const { fake, relay, open } = await setup({ privateLingerMs: 0 });
  const s = await open('/stream?code=EURUSD&period=1min', { 'x-test-user': '7:token-7' });
  await until(
    () => conn(fake, 'private')?.messages.length === 2 && conn(fake, 'public')?.messages.length === 2,
    3000,
    'both sockets subscribed',
  );
  expect(conn(fake, 'public')!.messages).toEqual([
    { type: 'sub', params: ['DAY_MARKET'] },
    { type: 'sub', params: ['KLINE.EURUSD'] },
  ]);
  expect(conn(fake, 'private')!.messages).toEqual([
    { type: 'login', params: 'token-7' },
    { type: 'sub', params: ['FOREX_TRADE', 'FOREX_CLOSED', 'ALERT'] },
  ]);
  expect(statuses(s)).toEqual(['up']);

  fake.blackHoleAll();
  await s.waitFor((e) => e.event === 'status' && (e.json as { state: string }).state === 'stale', { timeoutMs: 2000 });
  await s.waitFor((e) => e.event === 'status' && (e.json as { state: string }).state === 'down', { timeoutMs: 2000 });
  await s.waitFor((e) => e.event === 'status' && (e.json as { state: string }).state === 'up', {
    timeoutMs: 2000,
    from: s.events.length - 1,
  });
  expect(statuses(s)).toEqual(['up', 'stale', 'down', 'up']);

  await until(
    () => conn(fake, 'private', 1)?.messages.length === 2 && conn(fake, 'public', 1)?.messages.length === 1,
    3000,
    'both sockets back',
  );
  // One sub with every topic it holds, and the same login.
  expect(conn(fake, 'public', 1)!.messages).toEqual([{ type: 'sub', params: ['DAY_MARKET', 'KLINE.EURUSD'] }]);
  expect(conn(fake, 'private', 1)!.messages).toEqual([
    { type: 'login', params: 'token-7' },
    { type: 'sub', params: ['FOREX_TRADE', 'FOREX_CLOSED', 'ALERT'] },
  ]);
  // Private pushes during the outage are lost upstream: the page must revalidate.
  const resync = await s.waitFor((e) => e.event === 'resync');
  expect(resync.json).toEqual({ reason: 'reconnected' } satisfies ResyncData);

  // And the feed works again.
  conn(fake, 'public', 1)!.send(dayMarket('EURUSD', 1, 1.2468));
  await s.waitFor(hasQuote((q) => q.price === 1.2468));
  expectIncreasingIds(s.events);
  expect(relay.stats().upstream).toBe('up');
});

test('malformed upstream messages are ignored: browsers get only the valid quote, and nothing crashes', async () => {
  const { fake, relay, open } = await setup();
  const s = await open('/stream', { 'x-test-user': '8:t8' });
  await until(() => conn(fake, 'private')?.messages.length === 2 && !!conn(fake, 'public'));
  const pub = conn(fake, 'public')!;
  const priv = conn(fake, 'private')!;
  for (const bad of [
    'not json',
    '{"type":"DAY_MARKET"}',
    JSON.stringify({ ...dayMarket('EURUSD', 1, 1.5), quotation: { close: '1.5' } }),
    '{"type":"UNKNOWN"}',
    'null',
  ]) {
    pub.send(bad);
    priv.send(bad);
  }
  pub.send(Buffer.from([0xff, 0x00]));
  priv.send({ type: 'FOREX_CLOSED', id: 'not-a-list' });
  priv.send({ ...forexTrade(1), TransOrder: [{ Id: 'x' }] });
  pub.send(dayMarket('EURUSD', 1, 1.1111));
  priv.send({ type: 'FOREX_CLOSED', id: [99] });
  await s.waitFor((e) => e.event === 'quotes');
  await s.waitFor((e) => e.event === 'closed');
  await new Promise((r) => setTimeout(r, 300));
  // (A quote waits for the flush; a close is written at once: their order may differ.)
  const got = s.events.filter((e) => e.event !== 'status').map((e) => [e.event, e.json]);
  expect(got.sort((a, b) => String(a[0]).localeCompare(String(b[0])))).toEqual([
    ['closed', { ids: [99] }],
    ['quotes', [{ instrumentId: 1, price: 1.1111, change: 0.1, high: 1.1111, low: 1.1111, open: 1.1111, volume: 3, marketOpen: true }]],
  ]);
  expect(relay.stats().malformed).toBe(6);
  expect(relay.stats()).toMatchObject({ upstream: 'up', clients: 1 });
});

test('closed events are never coalesced; the replay ring is bounded and a Last-Event-ID older than it gets resync', async () => {
  const { fake, open } = await setup({ replayCapacity: 3 });
  const headers = { 'x-test-user': '9:t9' };
  const tab = await open('/stream', headers);
  const watcher = await open('/stream', headers);
  await until(() => conn(fake, 'private')?.messages.length === 2);
  const priv = conn(fake, 'private')!;
  priv.send({ type: 'FOREX_CLOSED', id: [1] });
  await tab.waitFor((e) => e.event === 'closed');
  const sawOne = tab.events.at(-1)!.id;
  tab.close();

  for (let i = 2; i <= 6; i++) priv.send({ type: 'FOREX_CLOSED', id: [i] });
  for (let i = 0; i < 5; i++) priv.send(forexTrade(2)); // account figures supersede each other in the ring
  await until(() => watcher.events.filter((e) => e.event === 'account').length === 5);
  // The live tab got every close, one event each.
  expect(watcher.events.filter((e) => e.event === 'closed').map((e) => e.json)).toEqual([1, 2, 3, 4, 5, 6].map((i) => ({ ids: [i] })));

  // Six closes happened; the ring holds the last three closes and the last account: 2 and 3 are gone.
  const gone = await open('/stream', { ...headers, 'last-event-id': sawOne });
  expect((await gone.waitFor((e) => e.event !== 'status')).json).toEqual({ reason: 'gone' } satisfies ResyncData);
  expect(gone.events.some((e) => e.event === 'closed')).toBe(false);

  // After seeing close 3, closes 4-6 and the latest account figures are still held.
  const saw3 = watcher.events.find((e) => e.event === 'closed' && (e.json as { ids: number[] }).ids[0] === 3)!.id;
  const back = await open('/stream', { ...headers, 'last-event-id': saw3 });
  await back.waitFor((e) => e.event === 'account');
  // After the connect's status (no id), before any quote.
  expect(back.events[0]).toMatchObject({ event: 'status', id: '' });
  const replayed = back.events.slice(1, 5);
  expect(replayed.map((e) => [e.event, e.event === 'closed' ? e.json : null])).toEqual([
    ['closed', { ids: [4] }],
    ['closed', { ids: [5] }],
    ['closed', { ids: [6] }],
    ['account', null],
  ]);
  expect(replayed.at(-1)!.id).toBe(watcher.events.filter((e) => e.event === 'account').at(-1)!.id);
  expect(seqOf(replayed[0]!.id)).toBeGreaterThan(seqOf(saw3));
});

test("a refused upstream login sends resync to the token's pages, ends their streams and stops that socket; the token then gets a visitor's stream", async () => {
  const { fake, relay, open } = await setup();
  const s = await open('/stream', { 'x-test-user': '11:bad' });
  const e = await s.waitFor((ev) => ev.event === 'resync');
  expect(e.json).toEqual({ reason: 'login-failed' } satisfies ResyncData);
  await s.ended;
  await until(() => relay.stats().privateSockets === 0);
  expect(relay.stats()).toMatchObject({ clients: 0, users: 0 });
  // Its reconnect (the web session may still hold the token) is not tried upstream again: a visitor's stream.
  const again = await open('/stream', { 'x-test-user': '11:bad' });
  expect(relay.stats()).toMatchObject({ clients: 1, users: 0, privateSockets: 0 });
  expect(fake.connections.filter((c) => c.messages[0]?.type === 'login')).toHaveLength(1);
  // The quotes still flow to that page.
  conn(fake, 'public')!.send(dayMarket('GBPUSD', 2, 1.3));
  await again.waitFor((ev) => ev.event === 'quotes');
});

test("one user on two devices: revoking one device's token ends that device's streams only (issue 38)", async () => {
  const { fake, relay, open } = await setup();
  const phone = await open('/stream', { 'x-test-user': '12:phone' });
  await until(() => conn(fake, 'private')?.messages.length === 2);
  const laptop = await open('/stream', { 'x-test-user': '12:laptop' });
  // The private socket keeps the phone's token; the laptop's is watched by a login-only socket.
  await until(() => conn(fake, 'private', 1)?.messages.length === 1);
  const watch = conn(fake, 'private', 1)!;
  expect(watch.messages).toEqual([{ type: 'login', params: 'laptop' }]);
  expect(relay.stats()).toMatchObject({ clients: 2, users: 1, privateSockets: 2 });

  // The phone signs the laptop out: the upstream refuses the laptop's token on every socket logged in with it.
  watch.send({ type: 'login_result', code: 999 });
  expect((await laptop.waitFor((ev) => ev.event === 'resync')).json).toEqual({ reason: 'login-failed' } satisfies ResyncData);
  await laptop.ended;
  expect(relay.stats()).toMatchObject({ clients: 1, users: 1, privateSockets: 1 });
  // The phone's private events still come.
  conn(fake, 'private')!.send({ type: 'FOREX_CLOSED', id: [9] });
  await phone.waitFor((ev) => ev.event === 'closed');
  expect(phone.events.some((ev) => ev.event === 'resync')).toBe(false);
});

test('a slow client is ended when its socket stays backed up; the others keep receiving and memory stays bounded', async () => {
  const hub = await setup({ maxBufferedBytes: 512 * 1024, maxBackedUpMs: 300 });
  const { fake, relay } = hub;
  const { reader } = await readerAndStalled(hub, '12:t12');
  const priv = conn(fake, 'private')!;
  // ~7 MB of ~60 KB closed events: more than the kernel's send buffer (up to 4 MB here) and the stalled
  // client's receive window. (Big `closed` pushes are cheap to validate; big account pushes are not.)
  for (let i = 0; i < 120; i++) priv.send(bigClosed(i));
  await until(() => relay.stats().evicted === 1, 10_000, 'the stalled client ended');
  expect(relay.stats().clients).toBe(1);
  await until(() => reader.events.filter((e) => e.event === 'closed').length === 120, 10_000, 'every event at the reading client');
  conn(fake, 'public')!.send(dayMarket('EURUSD', 1, 1.4242));
  await reader.waitFor(hasQuote((q) => q.price === 1.4242));
});

test.runIf(process.platform === 'linux')(
  'a client that never reads is ended once it has stayed behind too long, though node never saw back-pressure',
  async () => {
    // Byte and back-pressure bounds far out of reach: only the time bound can end the stalled client.
    const hub = await setup({ maxBufferedBytes: 1 << 30, maxBackedUpMs: 3_600_000, maxBehindMs: 600, behindCheckMs: 100 });
    const { fake, relay } = hub;
    const { reader } = await readerAndStalled(hub, '12:t12');
    // ~1 MB: past the stalled client's receive window, well inside our kernel's send buffer.
    const priv = conn(fake, 'private')!;
    for (let i = 0; i < 16; i++) priv.send(bigClosed(i));
    await until(() => reader.events.filter((e) => e.event === 'closed').length === 16, 5000, 'every event at the reader');
    expect(relay.stats().evicted).toBe(0);
    await until(() => relay.stats().evicted === 1, 5000, 'the stalled client ended');
    expect(relay.stats().clients).toBe(1);
    // The reader keeps up, so it stays.
    await new Promise((r) => setTimeout(r, 800));
    expect(relay.stats()).toMatchObject({ clients: 1, evicted: 1 });
    conn(fake, 'public')!.send(dayMarket('EURUSD', 1, 1.4243));
    await reader.waitFor(hasQuote((q) => q.price === 1.4243));
  },
);

test('a tab closed while the session lookup was still running leaves no subscriber behind', async () => {
  const fake = await startFakeUpstream();
  cleanup.push(() => fake.close());
  const relay = createRelay({ upstreamUrl: fake.url, socket: FAST_SOCKET, log: () => {}, privateLingerMs: 0 });
  cleanup.push(() => relay.close());
  const server = await startStreamServer(relay, { lookupDelayMs: 150 });
  cleanup.push(() => server.close());
  const tabs = await Promise.all(
    Array.from({ length: 10 }, (_, i) => {
      const req = http.get(`${server.url}/stream?code=EURUSD&period=1min`, { headers: i % 2 ? { 'x-test-user': `${i}:t${i}` } : {} });
      req.on('error', () => {});
      return req;
    }),
  );
  await new Promise((r) => setTimeout(r, 30));
  for (const t of tabs) t.destroy(); // closed before the handler ran
  const late = await openStream(server.url, '/stream'); // one that stays, to know the handlers have run
  cleanup.push(() => late.close());
  await late.waitFor((e) => e.event === 'status');
  await new Promise((r) => setTimeout(r, 200));
  expect(relay.stats()).toMatchObject({ clients: 1, users: 0, privateSockets: 0, publicTopics: ['DAY_MARKET'] });
});

test('mounted behind express (UPSTREAM_URL=auto): not compressed, not buffered, and express req.query is accepted', async () => {
  const fake = await startFakeUpstream();
  cleanup.push(() => fake.close());
  const relay = createRelay({ upstreamUrl: fake.url, socket: FAST_SOCKET, log: () => {} });
  cleanup.push(() => relay.close());
  const app = express();
  app.get('/stream', (req, res) => relay.handleStream(req, res, null, req.query));
  const server = app.listen(0, '127.0.0.1');
  await new Promise((r) => server.once('listening', r));
  cleanup.push(() => new Promise((r) => (server.closeAllConnections(), server.close(r))));
  const base = `http://127.0.0.1:${(server.address() as net.AddressInfo).port}`;
  await until(() => relay.stats().upstream === 'up');
  const s = await openStream(base, '/stream?code=EURUSD&period=5min', { 'accept-encoding': 'gzip, br' });
  cleanup.push(() => s.close());
  expect(s.headers['content-encoding']).toBeUndefined();
  expect(s.headers['cache-control']).toContain('no-transform');
  await s.waitFor((e) => e.event === 'status');
  await until(() => relay.stats().publicTopics.includes('KLINE.EURUSD') && conn(fake, 'public')?.messages.length === 2);
  conn(fake, 'public')!.send({
    type: 'KLINE',
    symbol: 'EURUSD',
    forex_id: 1,
    kline: { Time: 60, Open: 1, High: 1, Low: 1, Close: 1.5, Volume: 1, Period: '5min' },
  });
  conn(fake, 'public')!.send({
    type: 'KLINE',
    symbol: 'EURUSD',
    forex_id: 1,
    kline: { Time: 60, Open: 1, High: 1, Low: 1, Close: 1.6, Volume: 1, Period: '1min' },
  });
  const k = await s.waitFor((e) => e.event === 'kline');
  expect(k.json).toEqual({ forex_id: 1, symbol: 'EURUSD', Time: 60, Open: 1, High: 1, Low: 1, Close: 1.5, Volume: 1, Period: '5min' });
  expect((await openStream(base, '/stream?code=EURUSD&code=GBPUSD&period=5min')).status).toBe(400);
});

test("a new token for the same user is watched beside the shared socket; logout() tells the upstream and ends the user's streams", async () => {
  const { fake, relay, open } = await setup();
  const a = await open('/stream', { 'x-test-user': '21:old-token' });
  await until(() => conn(fake, 'private')?.messages.length === 2);
  const b = await open('/stream', { 'x-test-user': '21:new-token' });
  const anon = await open('/stream');
  // Still one private socket, on its own token; the new token is watched by a login-only one.
  await until(() => conn(fake, 'private', 1)?.messages.length === 1);
  expect(conn(fake, 'private', 1)!.messages).toEqual([{ type: 'login', params: 'new-token' }]);
  expect(conn(fake, 'private')!.messages).toHaveLength(2);
  expect(fake.connections.filter((c) => c.messages[0]?.type === 'login')).toHaveLength(2);

  relay.logout(21);
  await Promise.all([a.ended, b.ended]);
  await until(() => conn(fake, 'private')!.socket.readyState === conn(fake, 'private')!.socket.CLOSED);
  expect(conn(fake, 'private')!.messages.at(-1)).toEqual({ type: 'logout' });
  expect(relay.stats()).toMatchObject({ clients: 1, users: 0, privateSockets: 0 });
  expect(anon.events.at(-1)?.event).not.toBe('resync');
});

test('a backed-up client gets no quote bytes while blocked, then only the latest quote of each instrument once it drains', async () => {
  // Bounds high enough that the stalled client is not ended during this test.
  const hub = await setup({ maxBufferedBytes: 64 * 1024 * 1024, maxBackedUpMs: 60_000, flushIntervalMs: 50 });
  const { fake, relay } = hub;
  const { reader, stalled } = await readerAndStalled(hub, '31:t31', '/stream?v=2');
  for (let i = 0; i < 120; i++) conn(fake, 'private')!.send(bigClosed(i));
  await until(() => reader.events.filter((e) => e.event === 'closed').length === 120, 10_000);
  await until(() => relay.stats().buffered > 1024 * 1024, 5000, 'the stalled client backed up');
  reader.close(); // from here on, stats().buffered is the stalled client's alone
  await until(() => relay.stats().clients === 1);
  const blocked = relay.stats().buffered;

  const pub = conn(fake, 'public')!;
  for (let i = 1; i <= 300; i++) {
    pub.send(dayMarket('EURUSD', 1, 1 + i / 1000));
    pub.send(dayMarket('GBPUSD', 2, 2 + i / 1000));
  }
  await until(
    () =>
      relay
        .latestQuotes()
        .map((q) => q.price)
        .join() === '1.3,2.3',
    5000,
    'the ticks at the hub',
  );
  await new Promise((r) => setTimeout(r, 200)); // four flush windows
  // Not one quote byte was queued for the blocked client (it owes at most one quote per instrument).
  expect(relay.stats().buffered).toBeLessThanOrEqual(blocked);
  expect(relay.stats().evicted).toBe(0);

  // It reads again: after its backlog it gets the latest quote of each instrument, once.
  let text = '';
  stalled.setEncoding('utf8');
  stalled.on('data', (chunk: string) => (text += chunk));
  stalled.resume();
  await until(() => text.includes('"close":1.3,') && text.includes('"close":2.3,'), 10_000, 'the owed quotes');
  await new Promise((r) => setTimeout(r, 200));
  const afterBacklog = text.slice(text.lastIndexOf('event: closed'));
  // One event, with the two instruments' quotes.
  expect(afterBacklog.match(/event: quotes/g)).toHaveLength(1);
  expect(afterBacklog.match(/"forex_id":/g)).toHaveLength(2);
  expect(text.match(/"symbol":"EURUSD","close":1\.\d+,/g)).toEqual(['"symbol":"EURUSD","close":1.3,']);
});

test('HEAD /stream is answered and holds no subscriber', async () => {
  const { relay, server } = await setup();
  const status = await new Promise<number>((resolve, reject) => {
    const req = http.request(`${server.url}/stream`, { method: 'HEAD' }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    });
    req.on('error', reject);
    req.end();
  });
  expect(status).toBe(200);
  expect(relay.stats().clients).toBe(0);
});

test('low data: a Save-Data client and a low-data-cookie client get at most one quote and candle per instrument per second, a normal client every flush; private events reach the low-data client at once', async () => {
  const { fake, open } = await setup();
  const normal = await open('/stream?code=EURUSD&period=1min');
  const saveData = await open('/stream?code=EURUSD&period=1min', { 'save-data': 'on' });
  const cookie = await open('/stream', { cookie: 'lng=en; __Host-low-data=1', 'x-test-user': '41:t41' });
  await until(() => conn(fake, 'private')?.messages.length === 2 && conn(fake, 'public')?.messages.length === 2);
  const pub = conn(fake, 'public')!;
  const priv = conn(fake, 'private')!;

  // Ticks of two instruments and the watched candle every 40 ms for 3 s.
  const started = performance.now();
  const latency: { event: string; ms: number }[] = [];
  let i = 0;
  while (performance.now() - started < 3000) {
    i++;
    pub.send(dayMarket('EURUSD', 1, 1 + i / 10_000));
    pub.send(dayMarket('GBPUSD', 2, 2 + i / 10_000));
    pub.send({
      type: 'KLINE',
      symbol: 'EURUSD',
      forex_id: 1,
      kline: { Time: 60, Open: 1, High: 2, Low: 1, Close: 1 + i / 10_000, Volume: i, Period: '1min' },
    });
    if (i === 40 || i === 55) {
      // Right after the cookie client got its quotes, so its next ones are most of a second away.
      const from = cookie.events.length;
      await cookie.waitFor((e) => e.event === 'quotes', { from, timeoutMs: 1500 });
      const sent = performance.now();
      if (i === 40) priv.send({ type: 'FOREX_CLOSED', id: [4141] });
      else priv.send(forexTrade(1));
      const got = await cookie.waitFor((e) => e.event === (i === 40 ? 'closed' : 'account'), { from });
      latency.push({ event: got.event, ms: got.receivedAt - sent });
    }
    await sleep(40);
  }
  const last = i;
  // With no more ticks, what each low-data client is still owed arrives within its next second.
  for (const s of [saveData, cookie]) {
    await s.waitFor(
      hasQuote((q) => q.price === 1 + last / 10_000),
      { timeoutMs: 1500 },
    );
    await s.waitFor(
      hasQuote((q) => q.price === 2 + last / 10_000),
      { timeoutMs: 1500 },
    );
  }
  await saveData.waitFor((e) => e.event === 'kline' && (e.json as KlineData).close === 1 + last / 10_000, { timeoutMs: 1500 });
  await normal.waitFor((e) => e.event === 'kline' && (e.json as KlineData).close === 1 + last / 10_000, { timeoutMs: 500 });

  /** Milliseconds between consecutive events of one kind and instrument, as the reader received them. */
  const gaps = (s: SseStream, event: 'quotes' | 'kline', id: number) => {
    const idsOf = (e: SseEvent) => (event === 'quotes' ? quotesIn(e) : [e.json as KlineData]).map((x) => x.instrumentId);
    const times = s.events.filter((e) => e.event === event && idsOf(e).includes(id)).map((e) => e.receivedAt);
    return times.slice(1).map((t, k) => t - times[k]!);
  };
  for (const [name, s] of [
    ['save-data', saveData],
    ['cookie', cookie],
  ] as const) {
    for (const [symbol, id] of [
      ['EURUSD', 1],
      ['GBPUSD', 2],
    ] as const) {
      const g = gaps(s, 'quotes', id);
      expect(g.length, `${name} ${symbol} quotes`).toBeGreaterThanOrEqual(2);
      // Written a second apart; the loopback reader may see them a few ms closer.
      expect(Math.min(...g), `${name} ${symbol} gaps ${g.join()}`).toBeGreaterThanOrEqual(950);
    }
  }
  const klineGaps = gaps(saveData, 'kline', 1);
  expect(klineGaps.length).toBeGreaterThanOrEqual(2);
  expect(Math.min(...klineGaps), `save-data candle gaps ${klineGaps.join()}`).toBeGreaterThanOrEqual(950);
  // The normal client gets the quotes every flush (250 ms) and the candle on every push.
  const normalGaps = gaps(normal, 'quotes', 1);
  expect(normalGaps.length).toBeGreaterThanOrEqual(9);
  expect(Math.max(...normalGaps), `normal gaps ${normalGaps.join()}`).toBeLessThan(600);
  expect(normal.events.filter((e) => e.event === 'kline').length).toBeGreaterThan(
    3 * saveData.events.filter((e) => e.event === 'kline').length,
  );
  // Private events were not held back with the quotes.
  expect(latency.map((l) => l.event)).toEqual(['closed', 'account']);
  for (const l of latency) expect(l.ms, `${l.event} after ${l.ms} ms`).toBeLessThan(300);
  for (const s of [normal, saveData, cookie]) expectIncreasingIds(s.events);
});

test("the prices' socket tries again at most every few seconds however long the upstream stays away", async () => {
  // Nothing listens on a closed server's port: every attempt is refused at once, and the wait before the next is the backoff.
  const server = net.createServer();
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as net.AddressInfo).port;
  await new Promise((r) => server.close(r));
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval'] });
  cleanup.push(() => vi.useRealTimers());
  // random 1: each wait is the whole ceiling, 500 ms doubling (no jitter to hide a wait above the cap).
  const relay = createRelay({ upstreamUrl: `http://127.0.0.1:${port}`, socket: { random: () => 1 }, log: () => {} });
  cleanup.push(() => relay.close());
  /** Lets the refusal come back (real I/O, not a timer), then says how many attempts there were. */
  const attempts = async () => {
    for (let i = 0; i < 50; i++) await new Promise((r) => setImmediate(r));
    return relay.stats().connects;
  };
  expect(await attempts()).toBe(1);
  const cap = PRICES_RECONNECT_MAX_MS;
  const waits = [500, 1_000, 2_000, cap, cap, cap, cap];
  for (const [i, ms] of waits.entries()) {
    await vi.advanceTimersByTimeAsync(ms);
    expect(await attempts(), `attempt ${i + 2}, ${ms} ms after the one before`).toBe(i + 2);
  }
  expect(relay.stats().upstream).toBe('down');
});
