/**
 * The managed upstream socket against a FAKE upstream (a `ws` server in this test): the real upstream
 * cannot be made to black-hole a connection (keep it open and stop answering), nor to send malformed
 * messages, so this fake simulates both. Short intervals keep it fast.
 */
import net from 'node:net';
import { afterEach, beforeEach, expect, test } from 'vitest';
import type { ServerMessage } from '../../contract/ws';
import { startFakeUpstream, until, type FakeUpstream } from './test-support';
import { UpstreamSocket, upstreamWsUrl, type FeedState } from './upstream-socket';

const FAST = { pingIntervalMs: 40, missedPingsBeforeReconnect: 3, connectTimeoutMs: 300, backoff: { initialMs: 20, maxMs: 80 } };

let fake: FakeUpstream;
const sockets: UpstreamSocket[] = [];
beforeEach(async () => {
  fake = await startFakeUpstream();
});
afterEach(async () => {
  for (const s of sockets.splice(0)) s.close();
  await fake.close();
});

function open(options: Partial<ConstructorParameters<typeof UpstreamSocket>[0]> = {}) {
  const socket = new UpstreamSocket({ url: fake.url, ...FAST, ...options });
  sockets.push(socket);
  const states: FeedState[] = [];
  const messages: ServerMessage[] = [];
  socket.onState((s) => states.push(s));
  socket.onMessage((m) => messages.push(m));
  return { socket, states, messages };
}

test('the websocket URL is <base>/v1/ws', () => {
  expect(upstreamWsUrl('http://127.0.0.1:4000')).toBe('ws://127.0.0.1:4000/v1/ws');
  expect(upstreamWsUrl('https://api.example.com/')).toBe('wss://api.example.com/v1/ws');
  expect(upstreamWsUrl('ws://h:1/v1/ws')).toBe('ws://h:1/v1/ws');
});

test('connects, logs in, subscribes its topics, pings, and stays up while pongs come back', async () => {
  const { socket, states } = open({ token: 'tok', topics: ['DAY_MARKET'] });
  await until(() => fake.connections.length === 1 && fake.connections[0]!.messages.length >= 2);
  const conn = fake.connections[0]!;
  expect(conn.messages.slice(0, 2)).toEqual([
    { type: 'login', params: 'tok' },
    { type: 'sub', params: ['DAY_MARKET'] },
  ]);
  await until(() => conn.received.filter((t) => t === 'ping').length >= 5, 2000, 'five pings');
  expect(states).toEqual(['up']);
  expect(socket.state).toBe('up');
  socket.subscribe(['KLINE.EURUSD', 'DAY_MARKET']);
  socket.unsubscribe(['KLINE.EURUSD', 'KLINE.NOTHELD']);
  await until(() => conn.messages.length >= 4);
  expect(conn.messages.slice(2)).toEqual([
    { type: 'sub', params: ['KLINE.EURUSD'] },
    { type: 'unsub', params: ['KLINE.EURUSD'] },
  ]);
});

test('a black-holed upstream: stale after a missed ping, down after three, then it reconnects, logs in again and re-subscribes', async () => {
  const { socket, states } = open({ token: 'tok', topics: ['DAY_MARKET', 'FOREX_TRADE'] });
  await until(() => socket.state === 'up');
  socket.subscribe(['KLINE.BTCUSD']);
  await until(() => fake.connections[0]!.messages.length >= 3);

  const first = fake.connections[0]!;
  const before = first.received.length;
  fake.blackHoleAll(); // the first connection stays open but never answers again
  await until(() => fake.connections.length === 2, 3000, 'a second connection');
  // Exactly three pings went unanswered before it gave up on the first connection.
  expect(first.received.slice(before)).toEqual(['ping', 'ping', 'ping']);
  await until(() => socket.state === 'up' && fake.connections[1]!.messages.length >= 2);
  expect(states).toEqual(['up', 'stale', 'down', 'up']);
  expect(fake.connections[1]!.messages.slice(0, 2)).toEqual([
    { type: 'login', params: 'tok' },
    { type: 'sub', params: ['DAY_MARKET', 'FOREX_TRADE', 'KLINE.BTCUSD'] },
  ]);
  expect(first.socket.readyState).not.toBe(first.socket.OPEN);
});

test('any message counts as an answer: a connection that pushes but never pongs stays up', async () => {
  // Pushes come ten times per ping interval, so timer jitter on a busy machine cannot leave a gap.
  const { socket, states } = open({ topics: ['DAY_MARKET'], pingIntervalMs: 200 });
  await until(() => socket.state === 'up');
  const conn = fake.connections[0]!;
  conn.blackHoled = true; // no more pongs…
  const push = {
    type: 'DAY_MARKET',
    symbol: 'EURUSD',
    forex_id: 1,
    market_status: 1,
    quotation: { close: 1, change: 0, high: 1, low: 1, open: 1, volume: 1 },
  };
  const timer = setInterval(() => conn.send(push), 20); // …but pushes keep coming
  await new Promise((r) => setTimeout(r, 1000));
  clearInterval(timer);
  expect(conn.received.filter((t) => t === 'ping').length).toBeGreaterThanOrEqual(4); // pings went unanswered
  expect(states).toEqual(['up']);
  expect(fake.connections).toHaveLength(1);
});

test('malformed messages are ignored and counted; valid ones still arrive', async () => {
  const { socket, messages } = open({ topics: ['DAY_MARKET'] });
  await until(() => socket.state === 'up');
  const conn = fake.connections[0]!;
  conn.send('not json');
  conn.send('{"type":"DAY_MARKET"}');
  conn.send('{"type":"SOMETHING_ELSE","x":1}');
  conn.send('[1,2,3]');
  conn.send('null');
  conn.send(Buffer.from([1, 2, 3]));
  conn.send({ type: 'FOREX_CLOSED', id: ['x'] });
  conn.send({ type: 'FOREX_CLOSED', id: [42] });
  await until(() => messages.length >= 1);
  await new Promise((r) => setTimeout(r, 50));
  // sub_result arrives too; the closed push is the only other thing that got through.
  expect(messages.filter((m) => m.type !== 'sub_result')).toEqual([{ type: 'FOREX_CLOSED', id: [42] }]);
  expect(socket.counters.malformed).toBe(7);
  expect(socket.state).toBe('up');
});

test('connect timeout: a server that accepts TCP but never answers the handshake is abandoned and retried', async () => {
  const accepted: net.Socket[] = [];
  const server = net.createServer((s) => accepted.push(s));
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as net.AddressInfo).port;
  const { socket, states } = open({ url: `http://127.0.0.1:${port}`, connectTimeoutMs: 100 });
  try {
    await until(() => accepted.length >= 3, 3000, 'three attempts');
    expect(socket.state).toBe('down');
    expect(states).toEqual([]);
    expect(socket.counters.connects).toBeGreaterThanOrEqual(3);
    expect(socket.counters.opens).toBe(0);
  } finally {
    socket.close();
    for (const s of accepted) s.destroy();
    await new Promise((r) => server.close(r));
  }
});

test('backoff grows with failed attempts and is capped', async () => {
  // Nothing listens on this port (a closed server's port): every attempt fails at once.
  const server = net.createServer();
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as net.AddressInfo).port;
  await new Promise((r) => server.close(r));
  const { socket } = open({ url: `http://127.0.0.1:${port}`, backoff: { initialMs: 10, maxMs: 40, factor: 2 }, random: () => 1 });
  await new Promise((r) => setTimeout(r, 400));
  // With no jitter (random 1): 10, 20, 40, 40, 40 … ms between attempts: about 10 attempts in 400 ms, not 40.
  expect(socket.counters.connects).toBeGreaterThanOrEqual(5);
  expect(socket.counters.connects).toBeLessThanOrEqual(13);
});

test('close() stops reconnecting', async () => {
  const { socket } = open({ topics: ['DAY_MARKET'] });
  await until(() => socket.state === 'up');
  socket.close();
  await new Promise((r) => setTimeout(r, 200));
  expect(fake.connections).toHaveLength(1);
  expect(fake.connections[0]!.socket.readyState).toBe(fake.connections[0]!.socket.CLOSED);
});
