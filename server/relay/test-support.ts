/**
 * Test support for the relay: a tiny HTTP server that mounts a hub's `handleStream`, an SSE reader over
 * real HTTP, and a fake upstream websocket server that can be told to black-hole its connections.
 */
import http from 'node:http';
import { type AddressInfo } from 'node:net';
import { WebSocketServer, type WebSocket } from 'ws';
import type { RelayHub } from './hub';
import type { QuoteData } from './events';

export interface SseEvent {
  id: string;
  event: string;
  data: string;
  /** `data` parsed as JSON (every event of the relay carries JSON). */
  json: unknown;
  /** performance.now() when the reader parsed it. */
  receivedAt: number;
}

/** `x-test-user: <userId>:<token>` stands in for the app's session lookup. */
export async function startStreamServer(
  relay: RelayHub,
  options: { lookupDelayMs?: number } = {},
): Promise<{ url: string; close(): Promise<void> }> {
  const server = http.createServer(async (req, res) => {
    const url = new URL(req.url ?? '/', 'http://localhost');
    if (url.pathname !== '/stream') return void res.writeHead(404).end();
    const user = req.headers['x-test-user'];
    const who = typeof user === 'string' ? { userId: Number(user.split(':')[0]), token: user.split(':')[1] ?? '' } : null;
    // As the app's session lookup would, optionally take a while before handing over.
    if (options.lookupDelayMs) await new Promise((r) => setTimeout(r, options.lookupDelayMs));
    relay.handleStream(req, res, who);
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
  /** The first event at index ≥ `from` that matches, waiting for it up to `timeoutMs`. */
  waitFor(match: (e: SseEvent) => boolean, options?: { from?: number; timeoutMs?: number }): Promise<SseEvent>;
  /** Resolves when the server ends the response. */
  ended: Promise<void>;
  /** Aborts the request, as a closed tab does. */
  close(): void;
}

export function openStream(base: string, path = '/stream', headers: Record<string, string> = {}): Promise<SseStream> {
  const batched = new URL(path, base).searchParams.get('v') === '2';
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
            else if (line.startsWith('id: ')) e.id = line.slice(4);
            else if (line.startsWith('event: ')) e.event = line.slice(7);
            else if (line.startsWith('data: ')) {
              e.data = line.slice(6);
              hasData = true;
            }
          }
          if (!hasData) continue;
          // A stream that asked for v=2 must never get the per-quote format (an uncaught error fails the test run).
          if (batched && e.event === 'quote') throw new Error(`a v=2 stream (${path}) got a quote event: ${e.data}`);
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

/** A stream path as today's browser asks for it: quotes in one `quotes` event per write (`v=2`). */
export const asBrowser = (path: string): string => `${path}${path.includes('?') ? '&' : '?'}v=2`;

/** The quotes an event carries, in either format (none for any other event). */
export const quotesIn = (e: SseEvent): QuoteData[] =>
  e.event === 'quotes' ? (e.json as QuoteData[]) : e.event === 'quote' ? [e.json as QuoteData] : [];

/** Matches a `quotes` event that carries a quote matching `match`. */
export const hasQuote =
  (match: (q: QuoteData) => boolean) =>
  (e: SseEvent): boolean =>
    quotesIn(e).some(match);

/** The numeric part of an event id (`<boot>.<seq>`). */
export function seqOf(id: string): number {
  return Number(id.split('.')[1]);
}

export function expectIncreasingIds(events: readonly SseEvent[]): void {
  for (let i = 1; i < events.length; i++) {
    if (!(seqOf(events[i]!.id) > seqOf(events[i - 1]!.id))) {
      throw new Error(`event ids not increasing at ${i}: ${events[i - 1]!.id} then ${events[i]!.id}`);
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
