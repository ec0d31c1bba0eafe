/**
 * The relay hub (architecture.md "The live stream"): the upstream websocket relayed to browsers as
 * server-sent events on `GET /stream`.
 *
 * - One shared public upstream socket: `DAY_MARKET` always, `KLINE.<code>` while any stream watches it.
 * - One private upstream socket per signed-in user with an open stream (`FOREX_TRADE`, `FOREX_CLOSED`),
 *   shared by the user's tabs and closed `privateLingerMs` after their last stream closes.
 * - Events: quotes, kline, account, closed, alert, status, resync (see ./events.ts), each with an increasing id.
 *   A flush's quotes go to a stream as one `quotes` event (a phone dispatches one event a round, not one per quote);
 *   a stream that does not ask for it (`v=2`: a tab loaded before it) gets one `quote` event per quote.
 *   Private events (account, closed, alert) are kept in a bounded ring per user and replayed after
 *   `Last-Event-ID`, or `resync` is sent when they are gone.
 * - A slow client never grows memory: quotes and klines coalesce while its socket is backed up, and a
 *   socket backed up for longer than `maxBackedUpMs` (or holding more than `maxBufferedBytes`) is ended.
 * - Nor does it stay behind for long: a client whose peer has left bytes unacknowledged in the kernel
 *   for `maxBehindMs` is ended too (./unacked-bytes.ts), even while node's own buffer stays empty.
 * - Low data (`Save-Data: on` or the low-data cookie, contract/stream.ts): that client's quotes and klines
 *   are owed like a backed-up client's and written at most once per `lowDataIntervalMs`; its private
 *   events and status are written at once.
 * - `?quotes=1,7` (instrument ids; empty: none) narrows a stream's quotes to what its page shows (the trade
 *   screen: its instrument and the one converting its money); those streams share one frame per flush too.
 */
import crypto from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { CHART_PERIODS, type ChartPeriod } from '../../contract/enums';
import { LOW_DATA_INTERVAL_MS, wantsLowData, type WarmMarketState } from '../../contract/stream';
import { AlertDirection } from '../../contract/calls/alerts';
import {
  PRIVATE_TOPICS,
  Topic,
  type AlertPush,
  type DayMarketPush,
  type ForexTradePush,
  type KlinePush,
  type ServerMessage,
} from '../../contract/ws';
import type { AccountData, AlertData, KlineData, QuoteData, ResyncData, StreamEventName } from './events';
import { connectionKey, readUnacked } from './unacked-bytes';
import { UpstreamSocket, type FeedState, type UpstreamSocketOptions } from './upstream-socket';

export interface StreamUser {
  userId: number;
  /** The user's upstream token (never sent to the browser). */
  token: string;
}

/** `?code=EURUSD&period=1min&quotes=1,7` (express's `req.query` fits). */
export type StreamQuery = Readonly<Record<string, unknown>>;

/** The latest day quote of an instrument, as the hub last received it. */
export interface Quote extends QuoteData {
  /** When the hub received it (epoch ms): lets a server render judge freshness. */
  receivedAt: number;
}

/** A quote and the moment (performance.now()) the hub received its tick: what the benchmark probe sees. */
export interface QuoteTick {
  readonly quote: Quote;
  readonly tickAt: number;
}

export interface RelayOptions {
  /** The upstream's base URL, e.g. `http://127.0.0.1:4000` (the websocket is `<base>/v1/ws`). */
  upstreamUrl: string;
  /** Heartbeat and reconnect settings of every upstream socket (defaults: spec §9). */
  socket?: Pick<UpstreamSocketOptions, 'pingIntervalMs' | 'missedPingsBeforeReconnect' | 'connectTimeoutMs' | 'backoff' | 'random'>;
  /** At most one quote flush per client per this many ms. */
  flushIntervalMs?: number;
  /** A tick after a quiet spell waits this long for the rest of its burst before it is flushed. */
  flushGatherMs?: number;
  /** A low-data client (`Save-Data: on` or the low-data cookie) gets quotes and klines at most once per this many ms. */
  lowDataIntervalMs?: number;
  /** A stream with nothing written to it for this long gets a comment heartbeat. */
  heartbeatMs?: number;
  /** The `retry:` sent to EventSource: how soon the browser reconnects. */
  retryMs?: number;
  /** `closed` and `alert` events kept per user for `Last-Event-ID` replay (plus the latest `account`). */
  replayCapacity?: number;
  /** How long a user's private socket outlives their last stream. */
  privateLingerMs?: number;
  /** How long a `KLINE.<code>` subscription outlives its last stream (a reconnect then misses no candle). */
  klineLingerMs?: number;
  /** A client whose unsent bytes exceed this is ended at once. */
  maxBufferedBytes?: number;
  /** A client whose socket stays backed up this long is ended. */
  maxBackedUpMs?: number;
  /** A client whose peer has not caught up with what was sent for this long is ended. */
  maxBehindMs?: number;
  /** How often the kernel is asked how far behind each client is. */
  behindCheckMs?: number;
  log?: (line: string) => void;
  /** Benchmark probe: called after each write of quotes into a client socket. */
  onQuoteWrite?: (quotes: readonly QuoteTick[], writtenAt: number) => void;
}

export interface RelayStats {
  /** Open browser streams. */
  clients: number;
  /** Signed-in users with at least one open stream. */
  users: number;
  /** Private upstream sockets (users with an open stream, and those still lingering). */
  privateSockets: number;
  /** Topics held on the public upstream socket. */
  publicTopics: string[];
  /** The public feed's state, as browsers see it in `status`. */
  upstream: FeedState;
  /** Instruments with a latest quote. */
  quotes: number;
  /** Open streams that did not ask for `v=2` (tabs loaded before it): the per-quote format can go once this stays 0. */
  oldFormatClients: number;
  /** Streams ended because their socket stayed backed up. */
  evicted: number;
  /** Bytes written to streams and not yet taken by their sockets (bounded by maxBufferedBytes per stream). */
  buffered: number;
  /** Upstream messages ignored as malformed (public socket). */
  malformed: number;
  /** Connection attempts of the public socket (the first, then one per reconnect). */
  connects: number;
}

export const STREAM_DEFAULTS = {
  flushIntervalMs: 250,
  flushGatherMs: 10,
  lowDataIntervalMs: LOW_DATA_INTERVAL_MS,
  heartbeatMs: 15_000,
  retryMs: 2_000,
  replayCapacity: 64,
  // Long enough for an EventSource reconnect or a page reload, so the user's private events keep being
  // captured for replay and the upstream socket does not churn.
  privateLingerMs: 10_000,
  klineLingerMs: 10_000,
  maxBufferedBytes: 256 * 1024,
  maxBackedUpMs: 10_000,
  maxBehindMs: 20_000,
  behindCheckMs: 2_000,
} as const;

const CODE_PATTERN = /^[A-Za-z0-9]{1,32}$/;
/** `?quotes=` names at most this many instruments (a longer list is read as every instrument). */
const STREAM_MAX_QUOTES = 64;
const QUOTES_PATTERN = new RegExp(`^(?:[1-9]\\d{0,8}(?:,[1-9]\\d{0,8}){0,${STREAM_MAX_QUOTES - 1}})?$`);
const PERIODS: readonly string[] = CHART_PERIODS;
const HEARTBEAT = Buffer.from(':\n\n');

const SSE_HEADERS = {
  'Content-Type': 'text/event-stream',
  // no-transform: the compression middleware and proxies must neither compress nor buffer the stream.
  'Cache-Control': 'no-store, no-transform',
  'X-Accel-Buffering': 'no',
  Connection: 'keep-alive',
};

interface Client {
  res: ServerResponse;
  feed: UserFeed | null;
  code: string | null;
  period: ChartPeriod | null;
  /** The instruments whose quotes this stream carries (`?quotes=`), or null for every instrument. */
  quotes: ReadonlySet<number> | null;
  /** `quotes` as a key shared by the clients that asked for the same ones: one frame per flush for each set and format. */
  quotesKey: string | null;
  /** Its quotes come in one `quotes` event per write (`v=2`); else one `quote` event each. */
  batched: boolean;
  /** performance.now() when a write last returned false; 0 while the socket keeps up. */
  blockedSince: number;
  /** Instruments whose quote is owed (while blocked, or just drained); never null for a low-data client. */
  pendingQuotes: Set<number> | null;
  /** Latest kline data by candle time, at most two candles (while blocked, or low data). */
  pendingKlines: Map<number, string> | null;
  /** performance.now() of the last write: a stream quiet for heartbeatMs gets a comment. */
  lastWriteAt: number;
  /** Quotes and klines at most once per this many ms (low data), else 0: each shared flush. */
  minIntervalMs: number;
  /** performance.now() when this client last got quotes or klines of its own (on connect, or what it was owed). */
  lastOwedAt: number;
  /** The peer as the kernel's tables name it (null when it is not a TCP connection). */
  peer: { key: string; localPort: number } | null;
  /** performance.now() since which the peer has had bytes unacknowledged; 0 while it keeps up. */
  behindSince: number;
  closed: boolean;
}

interface RingEntry {
  seq: number;
  kind: 'account' | 'closed' | 'alert';
  text: string;
}

interface UserFeed {
  userId: number;
  token: string;
  clients: Set<Client>;
  socket: UpstreamSocket | null;
  /** The latest `closed` and `alert` events, at most replayCapacity. */
  ring: RingEntry[];
  /** The latest `account` event (older ones are superseded, not lost). */
  account: RingEntry | null;
  /** The ring holds every private event after this seq: a Last-Event-ID below it gets `resync`. */
  coveredFrom: number;
  wasUp: boolean;
  lingerTimer: NodeJS.Timeout | null;
}

interface QuoteEntry extends QuoteTick {
  /** The quote's JSON, built once per tick and shared by every client. */
  data: string;
  /** Epoch ms the feed last sent this instrument, changed or not (a reconnect's snapshot resends them all). */
  seenAt: number;
}

interface KlineWatch {
  count: number;
  byPeriod: Map<ChartPeriod, Set<Client>>;
  /** The latest update of each period's last two candles, by candle time: a new stream's snapshot. */
  latest: Map<string, Map<number, string>>;
  /** Set while nobody watches: the subscription is dropped when it fires. */
  lingerTimer: NodeJS.Timeout | null;
}

/**
 * The kernel's tables list every socket of the machine, ours or not: reading them costs in proportion (about
 * 0.2 s of CPU, mostly the kernel's, beside 20,000 streams here). So the next look waits 20 times as long as the
 * last one took (its wall time, waits in the thread pool included: a busy machine looks less often), at least
 * `behindCheckMs` and at most a quarter of `maxBehindMs`, so that a stalled client is still ended within about
 * 1.25 × `maxBehindMs` plus one look.
 */
export function nextBehindCheckMs(
  lastCostMs: number,
  { behindCheckMs, maxBehindMs }: { behindCheckMs: number; maxBehindMs: number },
): number {
  return Math.max(behindCheckMs, Math.min(lastCostMs * 20, maxBehindMs / 4));
}

export class RelayHub {
  private readonly options: Required<Omit<RelayOptions, 'socket' | 'onQuoteWrite' | 'log'>> & Pick<RelayOptions, 'socket' | 'onQuoteWrite'>;
  private readonly log: (line: string) => void;
  /** Distinguishes ids of this process from an earlier one's (a Last-Event-ID after a restart is unknown). */
  private readonly boot = crypto.randomBytes(4).toString('hex');
  private seq = 0;
  private closed = false;

  private readonly publicSocket: UpstreamSocket;
  private readonly clients = new Set<Client>();
  private readonly feeds = new Map<number, UserFeed>();
  private readonly klines = new Map<string, KlineWatch>();
  private readonly quotes = new Map<number, QuoteEntry>();

  /** Instruments ticked since the last flush. */
  private readonly dirty = new Set<number>();
  /** Clients owed quotes or klines. */
  private readonly withPending = new Set<Client>();
  private readonly blocked = new Set<Client>();
  private flushScheduled = false;
  private flushTimer: NodeJS.Timeout | null = null;
  /** Wakes when the earliest low-data client is due what it is owed (between ticks too). */
  private owedTimer: NodeJS.Timeout | null = null;
  private owedTimerAt = Infinity;
  private lastFlushAt = -Infinity;
  private readonly sweepTimer: NodeJS.Timeout;
  private behindTimer: NodeJS.Timeout | null = null;
  private evicted = 0;

  constructor(options: RelayOptions) {
    const given = Object.fromEntries(Object.entries(options).filter(([, v]) => v !== undefined)) as RelayOptions;
    this.options = { ...STREAM_DEFAULTS, ...given };
    this.log = options.log ?? ((line) => console.log(`[relay] ${line}`));
    this.publicSocket = new UpstreamSocket({
      ...options.socket,
      url: options.upstreamUrl,
      topics: [Topic.DayMarket],
      name: 'public socket',
      log: this.log,
    });
    this.publicSocket.onMessage((m) => this.onPublicMessage(m));
    this.publicSocket.onState((state, previous) => {
      this.log(`upstream feed ${previous} → ${state}`);
      this.broadcast(Buffer.from(this.frame('status', JSON.stringify({ state }))));
    });
    const { heartbeatMs, maxBackedUpMs } = this.options;
    // One housekeeping timer for every client (heartbeats and slow-client eviction), not one per client.
    this.sweepTimer = setInterval(() => this.sweep(), Math.max(10, Math.min(1000, heartbeatMs / 4, maxBackedUpMs / 2)));
    this.sweepTimer.unref();
    this.scheduleBehindCheck(0);
  }

  /**
   * `GET /stream`. Call it with node's request and response (express's fit), the signed-in user or null,
   * and the query (`code` and `period` for klines; parsed from `req.url` when omitted).
   */
  readonly handleStream = (
    req: IncomingMessage,
    res: ServerResponse,
    who: StreamUser | null,
    query?: StreamQuery,
    /** What another process replayed for a Last-Event-ID it issued (see `replayFor`), used instead of this hub's own. */
    replayedElsewhere?: string | null,
  ): void => {
    if (this.closed) {
      // Shutting down: a 200 that only says when to come back, so EventSource reconnects (to another process
      // or node) where an error status would make it give up.
      res.writeHead(200, SSE_HEADERS).end(this.comeBackLater());
      return;
    }
    const parsed = parseStreamQuery(streamQueryOf(req, query));
    if ('error' in parsed) {
      // A 4xx makes EventSource give up instead of retrying a request that can never succeed.
      res.writeHead(400, { 'Content-Type': 'text/plain; charset=utf-8', 'Cache-Control': 'no-store' }).end(`${parsed.error}\n`);
      return;
    }
    // The caller may have awaited a session lookup: a tab closed meanwhile has already fired 'close'.
    if (res.destroyed || res.writableEnded || req.socket.destroyed) return;
    // A HEAD has no body to stream: answer it rather than hold a subscriber that can never receive anything.
    if (req.method === 'HEAD') return void res.writeHead(200, SSE_HEADERS).end();
    res.writeHead(200, SSE_HEADERS);
    req.socket.setNoDelay(true);

    const saveData = req.headers['save-data'];
    const lowData = wantsLowData(typeof saveData === 'string' ? saveData : undefined, req.headers.cookie);
    const client: Client = {
      res,
      feed: who ? this.attachFeed(who) : null,
      code: parsed.code,
      period: parsed.period,
      quotes: parsed.quotes,
      quotesKey: parsed.quotes && [...parsed.quotes].sort((a, b) => a - b).join(','),
      batched: parsed.batched,
      blockedSince: 0,
      lastWriteAt: 0,
      minIntervalMs: lowData ? this.options.lowDataIntervalMs : 0,
      // The connect write below carries the latest quote of every instrument it asked for.
      lastOwedAt: performance.now(),
      // Never null for a low-data client: the shared flush then takes it the owed way, at no cost to the others.
      pendingQuotes: lowData ? new Set() : null,
      pendingKlines: null,
      peer:
        req.socket.remoteAddress && req.socket.remotePort && req.socket.localPort
          ? { key: connectionKey(req.socket.remoteAddress, req.socket.remotePort), localPort: req.socket.localPort }
          : null,
      behindSince: 0,
      closed: false,
    };

    // 'close' on the response, not the request's abort signal (which can fail to fire: architecture.md).
    res.on('close', () => this.detach(client));
    res.on('drain', () => {
      client.blockedSince = 0;
      this.blocked.delete(client);
      if (this.withPending.has(client)) this.scheduleFlush();
    });

    // Replayed events carry their old ids, so they go first; everything after gets fresh, larger ids.
    let head = `retry: ${this.options.retryMs}\n\n`;
    const lastEventId = lastEventIdOf(req, query);
    if (replayedElsewhere) head += replayedElsewhere;
    else if (lastEventId) head += this.replay(client.feed, lastEventId);
    head += this.frame('status', JSON.stringify({ state: this.publicSocket.state }));
    // The latest quote of each instrument it carries instead of a replay of quotes.
    head += this.quoteFrames(
      client,
      [...this.quotes].filter(([id]) => wants(client, id)).map(([, entry]) => entry),
    );

    this.clients.add(client);
    client.feed?.clients.add(client);
    if (client.code && client.period) {
      this.watchKline(client, client.code, client.period);
      // The chart's last two candles as the hub last heard them (in time order), as the quotes above.
      for (const data of this.klines.get(client.code)?.latest.get(client.period)?.values() ?? []) head += this.frame('kline', data);
    }
    this.write(client, head);
  };

  /** Whether this hub issued the id (another process's ids carry another prefix). */
  readonly issued = (lastEventId: string): boolean => this.parseId(lastEventId) !== null;

  /**
   * For another process whose stream was given this hub's id (a reconnect that landed there): the user's
   * private events after it, or `resync` when they are gone; null when the id is not this hub's.
   */
  readonly replayFor = (userId: number, lastEventId: string): string | null => {
    if (!this.issued(lastEventId)) return null;
    const feed = this.feeds.get(userId);
    return feed ? this.replay(feed, lastEventId) : this.frame('resync', JSON.stringify({ reason: 'gone' } satisfies ResyncData));
  };

  /** The latest quote of every instrument (empty until the public socket has received its snapshot). */
  readonly latestQuotes = (): Quote[] => [...this.quotes.values()].map((e) => e.quote).sort((a, b) => a.forex_id - b.forex_id);

  /** The public feed's warm state for server rendering (the app decides whether it is fresh enough). */
  readonly warmMarket = (): WarmMarketState => {
    const quotes = new Map<number, QuoteData & { seenAt: number }>();
    for (const [id, e] of this.quotes) quotes.set(id, { ...e.quote, seenAt: e.seenAt });
    const socket = this.publicSocket;
    return { feed: socket.state, heardAt: socket.lastMessageAt, connectedAt: socket.openedAt, quotes };
  };

  /**
   * What a kept page of the market depends on besides prices: the feed's state and each instrument's market
   * status (server/page-cache.ts keys on it, so a market that closes is never shown open from a copy).
   */
  readonly marketStateKey = (): string => {
    let key = this.publicSocket.state;
    for (const [id, e] of this.quotes) key += `,${id}:${e.quote.market_status}`;
    return key;
  };

  readonly stats = (): RelayStats => {
    let users = 0;
    let privateSockets = 0;
    let buffered = 0;
    let oldFormatClients = 0;
    for (const c of this.clients) {
      buffered += c.res.writableLength;
      if (!c.batched) oldFormatClients++;
    }
    for (const feed of this.feeds.values()) {
      if (feed.clients.size > 0) users++;
      if (feed.socket) privateSockets++;
    }
    return {
      clients: this.clients.size,
      oldFormatClients,
      users,
      privateSockets,
      publicTopics: [...this.publicSocket.topics],
      upstream: this.publicSocket.state,
      quotes: this.quotes.size,
      evicted: this.evicted,
      buffered,
      malformed: this.publicSocket.counters.malformed,
      connects: this.publicSocket.counters.connects,
    };
  };

  /** At logout: tells the user's upstream socket, closes it, and ends the user's streams (they reconnect signed out). */
  readonly logout = (userId: number): void => {
    const feed = this.feeds.get(userId);
    if (!feed) return;
    feed.socket?.logout();
    const clients = [...feed.clients];
    this.dropFeed(feed);
    for (const c of clients) {
      c.feed = null;
      c.res.end();
      this.detach(c);
    }
  };

  readonly close = (): void => {
    if (this.closed) return;
    this.closed = true;
    clearInterval(this.sweepTimer);
    if (this.behindTimer) clearTimeout(this.behindTimer);
    if (this.flushTimer) clearTimeout(this.flushTimer);
    if (this.owedTimer) clearTimeout(this.owedTimer);
    for (const watch of this.klines.values()) if (watch.lingerTimer) clearTimeout(watch.lingerTimer);
    this.publicSocket.close();
    for (const feed of [...this.feeds.values()]) this.dropFeed(feed);
    for (const c of [...this.clients]) {
      c.feed = null;
      c.res.end(this.comeBackLater());
      this.detach(c);
    }
  };

  /** At shutdown: reconnect after a delay spread over `retryMs`..4×`retryMs`, so the streams of a stopping process do not all land at once. */
  private comeBackLater(): string {
    const { retryMs } = this.options;
    return `retry: ${retryMs + Math.floor(Math.random() * 3 * retryMs)}\n\n`;
  }

  // ── upstream → hub ─────────────────────────────────────────────────────────────────────────────────

  private onPublicMessage(m: ServerMessage): void {
    if (m.type === 'DAY_MARKET') this.onDayMarket(m);
    else if (m.type === 'KLINE') this.onKline(m);
  }

  private onDayMarket(m: DayMarketPush): void {
    const { quotation: q } = m;
    const quote: QuoteData = {
      forex_id: m.forex_id,
      symbol: m.symbol,
      close: q.close,
      change: q.change,
      high: q.high,
      low: q.low,
      open: q.open,
      volume: q.volume,
      market_status: m.market_status,
    };
    const data = JSON.stringify(quote);
    const previous = this.quotes.get(m.forex_id);
    const now = Date.now();
    // The upstream repeats its snapshot on every (re)subscribe; an unchanged quote is not news, but it is confirmed.
    if (previous?.data === data) {
      previous.seenAt = now;
      return;
    }
    this.quotes.set(m.forex_id, { quote: { ...quote, receivedAt: now }, data, tickAt: performance.now(), seenAt: now });
    this.dirty.add(m.forex_id);
    this.scheduleFlush();
  }

  private onKline(m: KlinePush): void {
    const watch = this.klines.get(m.symbol);
    if (!watch) return;
    const candle: KlineData = { forex_id: m.forex_id, symbol: m.symbol, ...m.kline };
    const data = JSON.stringify(candle);
    keepLastTwo(watch.latest, m.kline.Period, m.kline.Time, data);
    const watchers = watch.byPeriod.get(m.kline.Period);
    if (!watchers || watchers.size === 0) return;
    const text = Buffer.from(this.frame('kline', data));
    for (const c of watchers) {
      if (c.blockedSince === 0 && c.minIntervalMs === 0) {
        this.write(c, text);
        continue;
      }
      // Backed up or low data: keep only the newest update of the last two candles (an older candle's final close survives).
      const pending = (c.pendingKlines ??= new Map());
      setLastTwo(pending, m.kline.Time, data);
      this.withPending.add(c);
      if (c.blockedSince === 0) this.scheduleOwed(c.lastOwedAt + c.minIntervalMs);
    }
  }

  private onPrivateMessage(feed: UserFeed, socket: UpstreamSocket, m: ServerMessage): void {
    if (feed.socket !== socket) return;
    switch (m.type) {
      case 'FOREX_TRADE':
        return this.pushPrivate(feed, 'account', JSON.stringify(accountData(m)));
      case 'FOREX_CLOSED':
        return this.pushPrivate(feed, 'closed', JSON.stringify({ ids: m.id }));
      case 'ALERT':
        return this.pushPrivate(feed, 'alert', JSON.stringify(alertData(m)));
      case 'login_result':
        if (m.code === 1) return;
        // The token no longer works upstream: stop this socket and let the pages revalidate (their loaders
        // get code 999 and sign the user out). A stream with a new token opens a new socket.
        this.log(`user ${feed.userId}: upstream login refused (code ${m.code})`);
        socket.close();
        feed.socket = null;
        this.sendResync(feed.clients, 'login-failed');
        return;
      default:
        return;
    }
  }

  private onPrivateState(feed: UserFeed, socket: UpstreamSocket, state: FeedState, previous: FeedState): void {
    if (feed.socket !== socket || state !== 'up' || previous !== 'down') return;
    if (feed.wasUp) {
      // Pushes during the outage are lost upstream: nothing before now can be replayed, and open pages revalidate.
      feed.coveredFrom = this.seq + 1;
      this.sendResync(feed.clients, 'reconnected');
    }
    feed.wasUp = true;
  }

  private pushPrivate(feed: UserFeed, kind: RingEntry['kind'], data: string): void {
    const seq = ++this.seq;
    const text = this.frameWith(seq, kind, data);
    if (kind === 'account') {
      // Only the newest account figures are worth replaying: they replace the previous ones.
      feed.account = { seq, kind, text };
    } else {
      feed.ring.push({ seq, kind, text });
      if (feed.ring.length > this.options.replayCapacity) feed.coveredFrom = Math.max(feed.coveredFrom, feed.ring.shift()!.seq);
    }
    // Private events are always written (never coalesced); a client that cannot take them is ended by the
    // buffer bounds and gets them back by replay when it reconnects.
    const buf = Buffer.from(text);
    for (const c of feed.clients) this.write(c, buf);
  }

  // ── hub → browsers ─────────────────────────────────────────────────────────────────────────────────

  private scheduleFlush(): void {
    if (this.flushScheduled || this.closed) return;
    this.flushScheduled = true;
    // A tick after a quiet window goes out after only flushGatherMs: an upstream round's burst of pushes
    // arrives as several socket reads, and without the gather its tail would wait a whole window (measured).
    const wait = Math.max(this.options.flushGatherMs, this.lastFlushAt + this.options.flushIntervalMs - performance.now());
    this.flushTimer = setTimeout(this.flush, wait);
  }

  /** The one flush for all clients: each flush builds the frames of each set of quotes and format once and shares the bytes. */
  private readonly flush = (): void => {
    this.flushScheduled = false;
    this.flushTimer = null;
    const now = (this.lastFlushAt = performance.now());
    const probe = this.options.onQuoteWrite;
    if (this.dirty.size > 0) {
      const entries: QuoteEntry[] = [];
      for (const id of this.dirty) {
        const entry = this.quotes.get(id);
        if (entry) entries.push(entry);
      }
      type Batch = { buf: Buffer; entries: QuoteEntry[] } | null;
      // Built when the first stream needs it: one for the streams that carry every instrument, and one per set asked
      // for (`?quotes=`), null when none of its instruments ticked; in each format streams ask for.
      const batches = new Map<string, Batch>();
      const batchFor = (c: Client): Batch => {
        const key = `${c.batched ? 2 : 1}:${c.quotesKey ?? '*'}`;
        let b = batches.get(key);
        if (b === undefined) {
          const mine = c.quotes ? entries.filter((e) => c.quotes!.has(e.quote.forex_id)) : entries;
          batches.set(key, (b = mine.length === 0 ? null : { buf: Buffer.from(this.quoteFrames(c, mine)), entries: mine }));
        }
        return b;
      };
      for (const c of this.clients) {
        if (c.blockedSince !== 0) {
          const pending = (c.pendingQuotes ??= new Set());
          for (const id of this.dirty) pending.add(id);
          this.withPending.add(c);
        } else if (c.pendingQuotes || c.pendingKlines) {
          this.owe(c, this.dirty, now);
        } else {
          const b = batchFor(c);
          if (!b) continue;
          this.write(c, b.buf);
          if (probe) probe(b.entries, performance.now());
        }
      }
      this.dirty.clear();
    }
    this.writeOwed(now);
  };

  /** A client with quotes owed (just drained, or low data) gets them with these, or owes these too until it is due. */
  private owe(c: Client, ids: ReadonlySet<number>, now: number): void {
    if (c.lastOwedAt + c.minIntervalMs <= now) return this.writePending(c, ids);
    const pending = (c.pendingQuotes ??= new Set());
    for (const id of ids) pending.add(id);
    this.withPending.add(c);
  }

  /** Writes what is owed to every client that can take it and is due; wakes again for the next one due. */
  private writeOwed(now: number): void {
    let next = Infinity;
    for (const c of this.withPending) {
      if (c.blockedSince !== 0) continue; // its 'drain' schedules a flush
      const due = c.lastOwedAt + c.minIntervalMs;
      if (due <= now) this.writePending(c, null);
      else if (due < next) next = due;
    }
    if (next !== Infinity) this.scheduleOwed(next);
  }

  private scheduleOwed(at: number): void {
    if (this.closed || at >= this.owedTimerAt) return;
    if (this.owedTimer) clearTimeout(this.owedTimer);
    this.owedTimerAt = at;
    this.owedTimer = setTimeout(this.onOwedTimer, Math.max(0, at - performance.now()));
  }

  private readonly onOwedTimer = (): void => {
    this.owedTimer = null;
    this.owedTimerAt = Infinity;
    this.writeOwed(performance.now());
  };

  /** A client that was backed up, or a low-data client that is due, gets what it is owed, built for it alone (fresh ids keep its stream in order). */
  private writePending(c: Client, extra: ReadonlySet<number> | null): void {
    const ids = c.pendingQuotes ?? new Set<number>();
    if (extra) for (const id of extra) ids.add(id);
    const entries: QuoteEntry[] = [];
    for (const id of ids) {
      const entry = this.quotes.get(id);
      // What it is owed is written here only: the quotes its stream carries.
      if (entry && wants(c, id)) entries.push(entry);
    }
    let text = this.quoteFrames(c, entries);
    if (c.pendingKlines) for (const data of c.pendingKlines.values()) text += this.frame('kline', data);
    // A low-data client keeps its (emptied) set: the shared flush keeps taking it the owed way.
    if (c.minIntervalMs > 0) ids.clear();
    c.pendingQuotes = c.minIntervalMs > 0 ? ids : null;
    c.pendingKlines = null;
    this.withPending.delete(c);
    if (text === '') return;
    c.lastOwedAt = performance.now();
    this.write(c, text);
    if (entries.length && this.options.onQuoteWrite) this.options.onQuoteWrite(entries, performance.now());
  }

  private write(c: Client, chunk: Buffer | string): void {
    if (c.closed) return;
    const res = c.res;
    // No cork()/uncork() here: node's http already corks a response's socket until the next tick, so each
    // client's writes of one flush leave as one writev after the loop (an uncork per write measured ~10× slower).
    const ok = res.write(chunk);
    c.lastWriteAt = performance.now();
    if (!ok && c.blockedSince === 0) {
      c.blockedSince = c.lastWriteAt || 1;
      this.blocked.add(c);
    }
    if (res.writableLength > this.options.maxBufferedBytes) this.evict(c);
  }

  private broadcast(chunk: Buffer): void {
    for (const c of this.clients) this.write(c, chunk);
  }

  private sendResync(clients: Iterable<Client>, reason: ResyncData['reason']): void {
    const buf = Buffer.from(this.frame('resync', JSON.stringify({ reason })));
    for (const c of clients) this.write(c, buf);
  }

  private sweep(): void {
    const now = performance.now();
    for (const c of this.blocked) if (now - c.blockedSince > this.options.maxBackedUpMs) this.evict(c);
    // Only quiet streams need the heartbeat (a stream that just got quotes is alive), and they come due at
    // different times, so this never becomes one more write to every client at once.
    const quietSince = now - this.options.heartbeatMs;
    for (const c of this.clients) if (c.lastWriteAt <= quietSince && c.blockedSince === 0) this.write(c, HEARTBEAT);
  }

  /** Looks at the kernel's tables again after `nextBehindCheckMs`. */
  private scheduleBehindCheck(lastCostMs: number): void {
    if (this.closed) return;
    const wait = nextBehindCheckMs(lastCostMs, this.options);
    this.behindTimer = setTimeout(() => {
      const started = performance.now();
      void this.checkBehind()
        .catch((error: unknown) => {
          try {
            this.log(`kernel table check failed: ${String(error)}`);
          } catch {
            // a log that fails must not stop the checks (nor become an unhandled rejection)
          }
        })
        .then(() => this.scheduleBehindCheck(performance.now() - started));
    }, wait);
    this.behindTimer.unref();
  }

  /** Asks the kernel which peers have bytes unacknowledged; ends those that have stayed behind too long. */
  private async checkBehind(): Promise<void> {
    if (this.clients.size === 0) return;
    const ports = new Set<number>();
    for (const c of this.clients) if (c.peer) ports.add(c.peer.localPort);
    for (const port of ports) {
      const unacked = await readUnacked(port);
      if (!unacked) return; // not Linux: the byte and back-pressure bounds still hold
      const now = performance.now();
      for (const c of this.clients) {
        if (c.peer?.localPort !== port) continue;
        if (!unacked.has(c.peer.key) && c.res.writableLength === 0) c.behindSince = 0;
        else if (c.behindSince === 0) c.behindSince = now;
        else if (now - c.behindSince > this.options.maxBehindMs) this.evict(c);
      }
    }
  }

  /** Ends a client that cannot keep up; its EventSource reconnects (and gets private events replayed). */
  private evict(c: Client): void {
    if (c.closed) return;
    this.evicted++;
    c.res.destroy();
    this.detach(c);
  }

  private detach(c: Client): void {
    if (c.closed) return;
    c.closed = true;
    this.clients.delete(c);
    this.blocked.delete(c);
    this.withPending.delete(c);
    c.pendingQuotes = null;
    c.pendingKlines = null;
    if (c.code && c.period) this.unwatchKline(c, c.code, c.period);
    const feed = c.feed;
    if (feed && feed.clients.delete(c) && feed.clients.size === 0) this.linger(feed);
  }

  // ── topics and users ───────────────────────────────────────────────────────────────────────────────

  private watchKline(c: Client, code: string, period: ChartPeriod): void {
    let watch = this.klines.get(code);
    if (!watch) {
      this.klines.set(code, (watch = { count: 0, byPeriod: new Map(), latest: new Map(), lingerTimer: null }));
      this.publicSocket.subscribe([Topic.kline(code)]);
    }
    if (watch.lingerTimer) clearTimeout(watch.lingerTimer);
    watch.lingerTimer = null;
    watch.count++;
    let set = watch.byPeriod.get(period);
    if (!set) watch.byPeriod.set(period, (set = new Set()));
    set.add(c);
  }

  private unwatchKline(c: Client, code: string, period: ChartPeriod): void {
    const watch = this.klines.get(code);
    if (!watch) return;
    const set = watch.byPeriod.get(period);
    if (!set?.delete(c)) return;
    if (set.size === 0) watch.byPeriod.delete(period);
    if (--watch.count > 0) return;
    // Kept a while: a page reload, a reconnect or the drawer's wider stream comes straight back, and its
    // snapshot then has the candles the gap would have lost (a candle that closed meanwhile keeps its close).
    const drop = () => {
      this.klines.delete(code);
      this.publicSocket.unsubscribe([Topic.kline(code)]);
    };
    if (this.options.klineLingerMs <= 0 || this.closed) return drop();
    watch.lingerTimer = setTimeout(drop, this.options.klineLingerMs);
    watch.lingerTimer.unref();
  }

  private attachFeed(who: StreamUser): UserFeed {
    let feed = this.feeds.get(who.userId);
    if (!feed) {
      feed = {
        userId: who.userId,
        token: who.token,
        clients: new Set(),
        socket: null,
        ring: [],
        account: null,
        // Nothing was captured for this user before now: any Last-Event-ID gets resync.
        coveredFrom: this.seq + 1,
        wasUp: false,
        lingerTimer: null,
      };
      this.feeds.set(who.userId, feed);
      this.openPrivateSocket(feed);
      return feed;
    }
    if (feed.lingerTimer) {
      clearTimeout(feed.lingerTimer);
      feed.lingerTimer = null;
    }
    if (feed.token !== who.token) {
      feed.token = who.token;
      if (feed.socket) feed.socket.setToken(who.token);
      else this.openPrivateSocket(feed);
    }
    return feed;
  }

  private openPrivateSocket(feed: UserFeed): void {
    const socket = new UpstreamSocket({
      ...this.options.socket,
      url: this.options.upstreamUrl,
      token: feed.token,
      topics: PRIVATE_TOPICS,
      name: `user ${feed.userId} socket`,
      // Per-user socket trouble is visible in the public feed's log already; keep the log readable.
      log: () => {},
    });
    feed.socket = socket;
    feed.wasUp = false;
    socket.onMessage((m) => this.onPrivateMessage(feed, socket, m));
    socket.onState((state, previous) => this.onPrivateState(feed, socket, state, previous));
  }

  private linger(feed: UserFeed): void {
    if (this.closed || this.feeds.get(feed.userId) !== feed) return;
    if (this.options.privateLingerMs <= 0) return this.dropFeed(feed);
    feed.lingerTimer = setTimeout(() => {
      feed.lingerTimer = null;
      if (feed.clients.size === 0) this.dropFeed(feed);
    }, this.options.privateLingerMs);
    feed.lingerTimer.unref();
  }

  private dropFeed(feed: UserFeed): void {
    if (feed.lingerTimer) clearTimeout(feed.lingerTimer);
    feed.lingerTimer = null;
    feed.socket?.close();
    feed.socket = null;
    if (this.feeds.get(feed.userId) === feed) this.feeds.delete(feed.userId);
  }

  // ── ids and frames ─────────────────────────────────────────────────────────────────────────────────

  /** The private events a reconnecting stream missed, or a resync when they are gone or the id is unknown. */
  private replay(feed: UserFeed | null, lastEventId: string): string {
    const seq = this.parseId(lastEventId);
    if (seq === null) return this.frame('resync', JSON.stringify({ reason: 'unknown-id' } satisfies ResyncData));
    if (!feed) return '';
    if (seq < feed.coveredFrom) return this.frame('resync', JSON.stringify({ reason: 'gone' } satisfies ResyncData));
    const missed = feed.ring.filter((e) => e.seq > seq);
    if (feed.account && feed.account.seq > seq) missed.push(feed.account);
    return missed
      .sort((a, b) => a.seq - b.seq)
      .map((e) => e.text)
      .join('');
  }

  private parseId(id: string): number | null {
    const dot = id.indexOf('.');
    if (dot < 0 || id.slice(0, dot) !== this.boot) return null;
    const digits = id.slice(dot + 1);
    if (!/^\d{1,15}$/.test(digits)) return null;
    const seq = Number(digits);
    return seq <= this.seq ? seq : null;
  }

  private frame(event: StreamEventName, data: string): string {
    return this.frameWith(++this.seq, event, data);
  }

  /** These quotes as the client reads them: one `quotes` event (their JSON, built once per tick, in an array), or a `quote` event each. */
  private quoteFrames(c: Client, entries: readonly QuoteEntry[]): string {
    if (entries.length === 0) return '';
    if (c.batched) return this.frame('quotes', `[${entries.map((e) => e.data).join(',')}]`);
    return entries.map((e) => this.frame('quote', e.data)).join('');
  }

  private frameWith(seq: number, event: StreamEventName, data: string): string {
    return `id: ${this.boot}.${seq}\nevent: ${event}\ndata: ${data}\n\n`;
  }
}

/**
 * The id a reconnecting stream names: EventSource sends the header when it reconnects by itself; a new
 * EventSource (after the tab wakes or the network returns) can only name it in the query.
 */
export function lastEventIdOf(req: IncomingMessage, query?: StreamQuery): string | null {
  const header = req.headers['last-event-id'];
  const id = typeof header === 'string' && header !== '' ? header : streamQueryOf(req, query).lastEventId;
  return typeof id === 'string' && id !== '' ? id.slice(0, 64) : null;
}

function streamQueryOf(req: IncomingMessage, query: StreamQuery | undefined): StreamQuery {
  return query ?? Object.fromEntries(new URL(req.url ?? '/', 'http://localhost').searchParams);
}

export function createRelay(options: RelayOptions): RelayHub {
  return new RelayHub(options);
}

/**
 * `code`: letters and digits, at most 32; `period`: one of the chart periods, required with a code.
 * `quotes`: the instrument ids whose quotes the page shows, comma-separated (at most 64; empty: none); absent or
 * unreadable: all. `v=2`: quotes in one `quotes` event per write.
 */
export function parseStreamQuery(
  query: StreamQuery,
): { code: string | null; period: ChartPeriod | null; quotes: ReadonlySet<number> | null; batched: boolean } | { error: string } {
  const { code, period, quotes: quotesParam } = query;
  const batched = query.v === '2';
  // Only a hint to carry less: a list it cannot take (malformed, or too long) gets every instrument, since a
  // 400 would end the EventSource for good, and the user's private events with it.
  const quotes =
    typeof quotesParam === 'string' && QUOTES_PATTERN.test(quotesParam)
      ? new Set(quotesParam === '' ? [] : quotesParam.split(',').map(Number))
      : null;
  if (code === undefined || code === '') return { code: null, period: null, quotes, batched };
  if (typeof code !== 'string' || !CODE_PATTERN.test(code)) return { error: 'code must be 1 to 32 letters or digits' };
  if (typeof period !== 'string' || !PERIODS.includes(period)) return { error: `period must be one of ${CHART_PERIODS.join(', ')}` };
  return { code, period: period as ChartPeriod, quotes, batched };
}

/** Keeps the newest update of the last two candles, in time order (an older candle's final close survives). */
function setLastTwo(candles: Map<number, string>, time: number, data: string): void {
  // Nearly every push updates a candle already kept, or starts the next one: no reordering then.
  const kept = candles.has(time);
  const newest = !kept && (candles.size === 0 || time > Math.max(...candles.keys()));
  candles.set(time, data);
  if (kept) return;
  if (newest) {
    if (candles.size > 2) candles.delete(candles.keys().next().value!);
    return;
  }
  const lastTwo = [...candles].sort((a, b) => a[0] - b[0]).slice(-2);
  candles.clear();
  for (const [t, d] of lastTwo) candles.set(t, d);
}

function keepLastTwo(byPeriod: Map<string, Map<number, string>>, period: string, time: number, data: string): void {
  let candles = byPeriod.get(period);
  if (!candles) byPeriod.set(period, (candles = new Map()));
  setLastTwo(candles, time, data);
}

/** Whether a stream carries this instrument's quotes. */
function wants(c: Client, id: number): boolean {
  return c.quotes === null || c.quotes.has(id);
}

function alertData({ alert: a }: AlertPush): AlertData {
  return {
    id: a.id,
    code: a.code,
    symbol: a.show_code,
    precision: a.precision,
    direction: a.direction === AlertDirection.Above ? 'above' : 'below',
    level: a.price,
    price: a.triggered_price ?? a.price,
    note: a.note,
    at: a.triggered_at ?? '',
  };
}

function accountData(m: ForexTradePush): AccountData {
  return {
    equity: m.OriginCautionMoneyTotal,
    margin: m.CautionMoneyAll,
    risk_rate: m.HazardRate,
    profit: m.ProfitsTotal,
    balance: m.Balance,
    free_margin: m.FreeMargin,
    orders: m.TransOrder.map((o) => ({ id: o.Id, profit: o.FactProfits, mark: o.UpdatePrice })),
  };
}
