/**
 * Test support for the relay: a tiny HTTP server that mounts a hub's `handleStream`, an SSE reader over
 * real HTTP, and a fake upstream websocket server that can be told to black-hole its connections.
 */
import http from 'node:http';
import { type AddressInfo } from 'node:net';
import { WebSocketServer, type WebSocket } from 'ws';
import type { Quote } from '../../contract/views';
import type { LegacyQuoteData } from './events';
import type { RelayHub } from './hub';

export interface SseEvent {
  id: string;
  event: string;
  data: string;
  /** `data` parsed as JSON (every event of the relay carries JSON). */
  json: unknown;
  /** performance.now() when the reader parsed it. */
  receivedAt: number;
}

/**
 * `x-test-user: <userId>:<token>` stands in for the app's session lookup. With `replayFrom`, a reconnect naming an
 * id this relay did not issue gets that relay's replay, as server/web.ts asks another process for it.
 */
export async function startStreamServer(
  relay: RelayHub,
  options: { lookupDelayMs?: number; replayFrom?: RelayHub } = {},
): Promise<{ url: string; close(): Promise<void> }> {
  const server = http.createServer(async (req, res) => {
    const url = new URL(req.url ?? '/', 'http://localhost');
    if (url.pathname !== '/stream') return void res.writeHead(404).end();
    const user = req.headers['x-test-user'];
    const who = typeof user === 'string' ? { userId: Number(user.split(':')[0]), token: user.split(':')[1] ?? '' } : null;
    // As the app's session lookup would, optionally take a while before handing over.
    if (options.lookupDelayMs) await new Promise((r) => setTimeout(r, options.lookupDelayMs));
    const lastEventId = req.headers['last-event-id'];
    const replayed =
      who && options.replayFrom && typeof lastEventId === 'string' && !relay.issued(lastEventId)
        ? options.replayFrom.replayFor(who.userId, lastEventId)
        : null;
    relay.handleStream(req, res, who, undefined, replayed);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export interface SseStream {
  status: number;
  headers: http.IncomingHttpHeaders;
  /** Every event received so far, in order. */
  events: SseEvent[];
  /** Comment lines (heartbeats) received so far. */
  comments: number;
  /** The last `retry:` received (ms), or null. */
  retry: number | null;
  /** The first event at index ≥ `from` that matches, waiting for it up to `timeoutMs`. */
  waitFor(match: (e: SseEvent) => boolean, options?: { from?: number; timeoutMs?: number }): Promise<SseEvent>;
  /** Resolves when the server ends the response. */
  ended: Promise<void>;
  /** Aborts the request, as a closed tab does. */
  close(): void;
}

/** Upstream field names: a stream of version 3 carries none (a test that finds one fails). */
const UPSTREAM_NAMES = /"(forex_id|show_code|market_status|free_margin|risk_rate|orders|precision|Time|Open|Close|Period)":/;

export function openStream(base: string, path = '/stream', headers: Record<string, string> = {}): Promise<SseStream> {
  const version = Number(new URL(path, base).searchParams.get('v') ?? 1);
  return new Promise((resolve, reject) => {
    const req = http.get(`${base}${path}`, { headers: { accept: 'text/event-stream', ...headers } }, (res) => {
      res.setEncoding('utf8');
      const waiters: { from: number; match: (e: SseEvent) => boolean; resolve: (e: SseEvent) => void }[] = [];
      let buffer = '';
      let endedResolve!: () => void;
      const stream: SseStream = {
        status: res.statusCode ?? 0,
        headers: res.headers,
        events: [],
        comments: 0,
        retry: null,
        waitFor(match, { from = 0, timeoutMs = 3000 } = {}) {
          const seen = stream.events.slice(from).find(match);
          if (seen) return Promise.resolve(seen);
          return new Promise((ok, fail) => {
            const stack = new Error('no matching event').stack;
            const timer = setTimeout(() => {
              waiters.splice(waiters.indexOf(waiter), 1);
              const err = new Error(
                `no matching event within ${timeoutMs} ms; got ${JSON.stringify(stream.events.slice(from).map((e) => [e.event, e.data]))}`,
              );
              err.stack = stack;
              fail(err);
            }, timeoutMs);
            const waiter = { from, match, resolve: (e: SseEvent) => (clearTimeout(timer), ok(e)) };
            waiters.push(waiter);
          });
        },
        ended: new Promise((r) => (endedResolve = r)),
        close: () => req.destroy(),
      };
      res.on('data', (chunk: string) => {
        buffer += chunk;
        let end: number;
        while ((end = buffer.indexOf('\n\n')) >= 0) {
          const block = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          const e: SseEvent = { id: '', event: 'message', data: '', json: null, receivedAt: performance.now() };
          let hasData = false;
          for (const line of block.split('\n')) {
            if (line.startsWith(':')) stream.comments++;
            else if (line.startsWith('retry: ')) stream.retry = Number(line.slice(7));
            else if (line.startsWith('id: ')) e.id = line.slice(4);
            else if (line.startsWith('event: ')) e.event = line.slice(7);
            else if (line.startsWith('data: ')) {
              e.data = line.slice(6);
              hasData = true;
            }
          }
          if (!hasData) continue;
          // A stream that asked for v=2 or later must never get the per-quote format, nor one of version 3 an upstream
          // field name (an uncaught error fails the test run).
          if (version >= 2 && e.event === 'quote') throw new Error(`a v=${version} stream (${path}) got a quote event: ${e.data}`);
          if (version >= 3 && UPSTREAM_NAMES.test(e.data))
            throw new Error(`a v=${version} stream (${path}) got an upstream name: ${e.data}`);
          e.json = JSON.parse(e.data);
          const index = stream.events.push(e) - 1;
          for (const w of [...waiters]) {
            if (index >= w.from && w.match(e)) {
              waiters.splice(waiters.indexOf(w), 1);
              w.resolve(e);
            }
          }
        }
      });
      res.on('close', () => endedResolve());
      res.on('error', () => endedResolve());
      resolve(stream);
    });
    req.on('error', reject);
  });
}

/** A stream path as today's browser asks for it: the views of version 3 (`v=3`, STREAM_VERSION). */
export const asBrowser = (path: string): string => `${path}${path.includes('?') ? '&' : '?'}v=3`;

/** A stream path as a tab loaded before version 3 asks for it: the shapes before it, quotes batched (`v=2`). */
export const asVersion2 = (path: string): string => `${path}${path.includes('?') ? '&' : '?'}v=2`;

/** The quotes a `quotes` event of a version 3 stream carries (none for any other event). */
export const quotesIn = (e: SseEvent): Quote[] => (e.event === 'quotes' ? (e.json as Quote[]) : []);

/** Matches a `quotes` event that carries a quote matching `match`. */
export const hasQuote =
  (match: (q: Quote) => boolean) =>
  (e: SseEvent): boolean =>
    quotesIn(e).some(match);

/** The quotes an event of a stream before version 3 carries, in either of its formats (none for any other event). */
export const legacyQuotesIn = (e: SseEvent): LegacyQuoteData[] =>
  e.event === 'quotes' ? (e.json as LegacyQuoteData[]) : e.event === 'quote' ? [e.json as LegacyQuoteData] : [];

/** Matches an event of a stream before version 3 that carries a quote matching `match`. */
export const hasLegacyQuote =
  (match: (q: LegacyQuoteData) => boolean) =>
  (e: SseEvent): boolean =>
    legacyQuotesIn(e).some(match);

/** The numeric part of an event id (`<boot>.<seq>`). */
export function seqOf(id: string): number {
  return Number(id.split('.')[1]);
}

/** The ids of the events that have one (a connect's status has none) increase. */
export function expectIncreasingIds(events: readonly SseEvent[]): void {
  const withIds = events.filter((e) => e.id !== '');
  for (let i = 1; i < withIds.length; i++) {
    if (!(seqOf(withIds[i]!.id) > seqOf(withIds[i - 1]!.id))) {
      throw new Error(`event ids not increasing at ${i}: ${withIds[i - 1]!.id} then ${withIds[i]!.id}`);
    }
  }
}

export async function until(condition: () => boolean, timeoutMs = 3000, what = 'condition'): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

export const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/** One upstream connection as the fake upstream sees it. */
export interface FakeConnection {
  socket: WebSocket;
  /** Text messages received (pings included). */
  received: string[];
  /** JSON messages received (login, sub, unsub, logout). */
  messages: { type: string; params?: unknown }[];
  /** When true the connection neither answers nor sends anything: a black-holed upstream. */
  blackHoled: boolean;
  send(message: unknown): void;
}

export interface FakeUpstream {
  url: string;
  connections: FakeConnection[];
  /** Black-holes every connection open now (new ones answer normally). */
  blackHoleAll(): void;
  close(): Promise<void>;
}

/**
 * A fake `/v1/ws` for what the real upstream cannot do: stop answering without closing (black hole) and
 * send malformed messages. It answers `ping` with `pong`, `login` with code 1 (999 for the token "bad"),
 * and `sub`/`unsub` with their results.
 */
export async function startFakeUpstream(): Promise<FakeUpstream> {
  const wss = new WebSocketServer({ host: '127.0.0.1', port: 0 });
  await new Promise<void>((resolve) => wss.once('listening', () => resolve()));
  const connections: FakeConnection[] = [];
  wss.on('connection', (socket) => {
    const conn: FakeConnection = {
      socket,
      received: [],
      messages: [],
      blackHoled: false,
      send: (m) => socket.send(typeof m === 'string' || Buffer.isBuffer(m) ? m : JSON.stringify(m)),
    };
    connections.push(conn);
    socket.on('message', (data) => {
      const text = data.toString();
      conn.received.push(text);
      if (conn.blackHoled) return;
      if (text === 'ping') return socket.send('pong');
      const msg = JSON.parse(text) as { type: string; params?: unknown };
      conn.messages.push(msg);
      if (msg.type === 'login') socket.send(JSON.stringify({ type: 'login_result', code: msg.params === 'bad' ? 999 : 1 }));
      if (msg.type === 'sub' || msg.type === 'unsub')
        socket.send(JSON.stringify({ type: `${msg.type}_result`, code: 1, topics: msg.params }));
    });
    socket.on('error', () => {});
  });
  const { port } = wss.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    connections,
    blackHoleAll: () => connections.forEach((c) => (c.blackHoled = true)),
    close: () =>
      new Promise<void>((resolve) => {
        for (const c of wss.clients) c.terminate();
        wss.close(() => resolve());
      }),
  };
}
