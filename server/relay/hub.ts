/**
 * The relay hub (docs/architecture.md §3 "How a price reaches a phone"): the upstream websocket relayed to browsers as
 * server-sent events on `GET /stream`.
 *
 * - One shared public upstream socket: `DAY_MARKET` always, `KLINE.<code>` while any stream watches it
 *   (./chart-watches.ts); one private socket per signed-in user with an open stream (./user-feeds.ts).
 * - Events: quotes, kline, account, closed, alert, status, resync (see ./events.ts, made from the upstream's
 *   pushes in ./upstream-mapping.ts), each with an increasing id.
 *   A stream asks for its format (`v=3`, STREAM_VERSION: the views); one that asks `v=2` or nothing is a tab loaded
 *   before version 3 and gets the shapes before it. Every `status` names the version, so from version 3 on a tab
 *   built for another one reloads.
 *   A flush's quotes go to a stream as one `quotes` event (a phone dispatches one event a round, not one per quote);
 *   a stream that asks for no version (a tab loaded before `v=2`) gets one `quote` event per quote.
 *   Private events (account, closed, alert) are replayed after `Last-Event-ID` (./replay.ts).
 * - A slow client never grows memory: quotes and klines coalesce while its socket is backed up, and one that
 *   stays backed up or behind is ended (./slow-clients.ts).
 * - Low data (`Save-Data: on` or the low-data cookie, contract/stream.ts): that client's quotes and klines
 *   are owed like a backed-up client's and written at most once per `lowDataIntervalMs`; its private
 *   events and status are written at once.
 * - `?quotes=1,7` (instrument ids; empty: none) narrows a stream's quotes to what its page shows (the trade
 *   screen: its instrument and the one converting its money); those streams share one frame per flush too.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { STREAM_VERSION, type WarmMarketState } from '../../contract/stream';
import { Topic, type ServerMessage } from '../../contract/ws';
import { ChartWatches, keepLastTwo } from './chart-watches';
import { LatestQuotes, type LatestQuote } from './latest-quotes';
import { STREAM_DEFAULTS, type Quote, type RelayOptions, type RelayStats } from './relay-options';
import { EventIds, packReplay, replay, resync, unpackReplay } from './replay';
import { SlowClients } from './slow-clients';
import { bytesOf, pick, readsLegacy, streamClient, tally, wants, type StreamClient } from './stream-client';
import { lastEventIdOf, parseStreamQuery, streamQueryOf, type StreamQuery } from './stream-query';
import { publicPushOf, sseFrame, statusData, type CandlePush, type EventData } from './upstream-mapping';
import { UpstreamSocket } from './upstream-socket';
import { UserFeeds, type StreamUser } from './user-feeds';

export { STREAM_DEFAULTS, type Quote, type QuoteTick, type RelayOptions, type RelayStats } from './relay-options';
export { lastEventIdOf, parseStreamQuery, type StreamQuery } from './stream-query';
export { nextBehindCheckMs } from './slow-clients';
export type { StreamUser } from './user-feeds';

// An event, not a comment: a browser hears it (EventSource drops comments), so it can tell a silent stream from a dead one.
const HEARTBEAT = Buffer.from('event: ping\ndata: {}\n\n');

/**
 * The prices' socket, one per process, waits at most this long between attempts: prices are back within seconds of the
 * upstream's return (decision 0046). A refused connect every few seconds from each process costs the upstream nothing;
 * the users' sockets, thousands, keep the slower default.
 */
export const PRICES_RECONNECT_MAX_MS = 4_000;

const SSE_HEADERS = {
  'Content-Type': 'text/event-stream',
  // no-transform: the compression middleware and proxies must neither compress nor buffer the stream.
  'Cache-Control': 'no-store, no-transform',
  'X-Accel-Buffering': 'no',
  Connection: 'keep-alive',
};

export class RelayHub {
  private readonly options: Required<Omit<RelayOptions, 'socket' | 'onQuoteWrite' | 'log'>> & Pick<RelayOptions, 'socket' | 'onQuoteWrite'>;
  private readonly log: (line: string) => void;
  private readonly ids = new EventIds();
  private closed = false;

  private readonly publicSocket: UpstreamSocket;
  private readonly clients = new Set<StreamClient>();
  private readonly feeds: UserFeeds<StreamClient>;
  private readonly charts: ChartWatches<StreamClient, EventData>;
  private readonly slow: SlowClients<StreamClient>;
  private readonly quotes = new LatestQuotes();

  /** Instruments ticked since the last flush. */
  private readonly dirty = new Set<number>();
  /** Clients owed quotes or klines. */
  private readonly withPending = new Set<StreamClient>();
  private flushScheduled = false;
  private flushTimer: NodeJS.Timeout | null = null;
  /** Wakes when the earliest low-data client is due what it is owed (between ticks too). */
  private owedTimer: NodeJS.Timeout | null = null;
  private owedTimerAt = Infinity;
  private lastFlushAt = -Infinity;
  private readonly sweepTimer: NodeJS.Timeout;

  constructor(options: RelayOptions) {
    const given = Object.fromEntries(Object.entries(options).filter(([, v]) => v !== undefined)) as RelayOptions;
    this.options = { ...STREAM_DEFAULTS, ...given };
    this.log = options.log ?? ((line) => console.log(`[relay] ${line}`));
    this.publicSocket = new UpstreamSocket({
      ...options.socket,
      backoff: { maxMs: PRICES_RECONNECT_MAX_MS, ...options.socket?.backoff },
      url: options.upstreamUrl,
      topics: [Topic.DayMarket],
      name: 'public socket',
      log: this.log,
    });
    this.publicSocket.onMessage((m) => this.onPublicMessage(m));
    this.publicSocket.onState((state, previous) => {
      this.log(`upstream feed ${previous} → ${state}`);
      this.broadcast(Buffer.from(this.ids.frame('status', statusData(state))));
    });
    this.feeds = new UserFeeds({
      upstreamUrl: options.upstreamUrl,
      socket: options.socket,
      lingerMs: this.options.privateLingerMs,
      replayCapacity: this.options.replayCapacity,
      ids: this.ids,
      log: this.log,
      write: (clients, frames) => {
        const bytes = bytesOf(frames);
        for (const c of clients) this.write(c, bytes(c));
      },
      // A revoked token's streams end; they reconnect as the session now is (signed out: a visitor's stream).
      end: (clients) => this.endStreams(clients),
    });
    this.charts = new ChartWatches({
      lingerMs: this.options.klineLingerMs,
      subscribe: (code) => this.publicSocket.subscribe([Topic.kline(code)]),
      unsubscribe: (code) => this.publicSocket.unsubscribe([Topic.kline(code)]),
    });
    const { heartbeatMs, maxBackedUpMs, maxBehindMs, behindCheckMs } = this.options;
    // One housekeeping timer for every client (heartbeats and slow-client eviction), not one per client.
    this.sweepTimer = setInterval(() => this.sweep(), Math.max(10, Math.min(1000, heartbeatMs / 4, maxBackedUpMs / 2)));
    this.sweepTimer.unref();
    this.slow = new SlowClients({ maxBackedUpMs, maxBehindMs, behindCheckMs, log: this.log }, this.clients, (c) => this.detach(c));
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
      res.writeHead(200, SSE_HEADERS).end(this.retryFrame());
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

    // A token the upstream refused lately (its device was signed out) gets a visitor's stream.
    const user = who && !this.feeds.isRefused(who.token) ? who : null;
    const client = streamClient(req, res, parsed, user ? this.feeds.attach(user) : null, this.options.lowDataIntervalMs);

    // 'close' on the response, not the request's abort signal (which can fail to fire).
    res.on('close', () => this.detach(client));
    res.on('drain', () => {
      this.slow.drained(client);
      if (this.withPending.has(client)) this.scheduleFlush();
    });

    // The feed's status and version first, without an id (it is no event to replay): a tab reads what follows only
    // once it knows the stream speaks its version. Replayed events carry their old ids, so they come next; everything
    // after gets fresh, larger ids.
    let head = `${this.retryFrame()}${sseFrame(null, 'status', statusData(this.publicSocket.state))}`;
    const lastEventId = lastEventIdOf(req, query);
    const legacy = readsLegacy(client);
    if (replayedElsewhere) head += unpackReplay(replayedElsewhere, legacy) ?? resync(this.ids, 'unknown-id').text;
    else if (lastEventId) head += pick(replay(this.ids, client.feed?.replay ?? null, lastEventId), legacy);
    // The latest quote of each instrument it carries instead of a replay of quotes.
    head += this.quoteFrames(
      client,
      [...this.quotes.values()].filter((e) => wants(client, e.instrumentId)),
    );

    this.clients.add(client);
    if (client.feed && user) this.feeds.join(client.feed, client, user.token);
    if (client.code && client.period) {
      this.charts.watch(client, client.code, client.period);
      // The chart's last two candles as the hub last heard them (in time order), as the quotes above.
      for (const data of this.charts.latest(client.code, client.period)) head += this.ids.frame('kline', legacy ? data.legacy : data.data);
    }
    this.write(client, head);
  };

  /** Whether this hub issued the id (another process's ids carry another prefix). */
  readonly issued = (lastEventId: string): boolean => this.ids.seqOf(lastEventId) !== null;

  /**
   * For another process whose stream was given this hub's id (a reconnect that landed there): the user's
   * private events after it, or `resync` when they are gone, packed for `handleStream`'s `replayedElsewhere`;
   * null when the id is not this hub's.
   */
  readonly replayFor = (userId: number, lastEventId: string): string | null => {
    if (!this.issued(lastEventId)) return null;
    const feed = this.feeds.get(userId);
    return packReplay(feed ? replay(this.ids, feed.replay, lastEventId) : resync(this.ids, 'gone'));
  };

  /** The latest quote of every instrument (empty until the public socket has received its snapshot). */
  readonly latestQuotes = (): Quote[] => this.quotes.list();

  /** The public feed's warm state for server rendering (the app decides whether it is fresh enough). */
  readonly warmMarket = (): WarmMarketState => this.quotes.warm(this.publicSocket);

  readonly stats = (): RelayStats => {
    return {
      clients: this.clients.size,
      ...tally(this.clients),
      ...this.feeds.counts(),
      publicTopics: [...this.publicSocket.topics],
      upstream: this.publicSocket.state,
      quotes: this.quotes.size,
      evicted: this.slow.evicted,
      malformed: this.publicSocket.counters.malformed,
      connects: this.publicSocket.counters.connects,
    };
  };

  /** At logout: tells the user's upstream socket, closes it, and ends the user's streams (they reconnect signed out). */
  readonly logout = (userId: number): void => this.endStreams(this.feeds.logout(userId));

  private endStreams(clients: readonly StreamClient[]): void {
    for (const c of clients) {
      c.feed = null;
      c.res.end();
      this.detach(c);
    }
  }

  readonly close = (): void => {
    if (this.closed) return;
    this.closed = true;
    clearInterval(this.sweepTimer);
    this.slow.stop();
    if (this.flushTimer) clearTimeout(this.flushTimer);
    if (this.owedTimer) clearTimeout(this.owedTimer);
    this.charts.close();
    this.publicSocket.close();
    this.feeds.close();
    for (const c of [...this.clients]) {
      c.feed = null;
      c.res.end(this.retryFrame());
      this.detach(c);
    }
  };

  /**
   * When to reconnect, drawn per stream over ½×`retryMs`..2½×`retryMs` (1–5 s by default): sent when a stream opens
   * and again when a stopping process ends it, so the streams of a process that stops or crashes (it cannot say
   * anything then) come back spread over seconds rather than all at once; a trader's prices, marked stale
   * meanwhile, are back within five seconds.
   */
  private retryFrame(): string {
    const { retryMs } = this.options;
    return `retry: ${Math.floor(retryMs / 2 + Math.random() * 2 * retryMs)}\n\n`;
  }

  // ── upstream → hub ─────────────────────────────────────────────────────────────────────────────────

  private onPublicMessage(m: ServerMessage): void {
    const push = publicPushOf(m);
    if (push?.kind === 'quote') {
      if (!this.quotes.take(push)) return;
      this.dirty.add(push.instrumentId);
      this.scheduleFlush();
    } else if (push?.kind === 'candle') this.onCandle(push);
  }

  private onCandle({ code, period, time, data, legacy }: CandlePush): void {
    const candle = { data, legacy };
    const watchers = this.charts.update(code, period, time, candle);
    if (!watchers || watchers.size === 0) return;
    let bytes: ((c: StreamClient) => Buffer) | null = null;
    for (const c of watchers) {
      if (c.blockedSince === 0 && c.minIntervalMs === 0) {
        bytes ??= bytesOf(this.ids.frames('kline', candle));
        this.write(c, bytes(c));
        continue;
      }
      // Backed up or low data: keep only the newest update of the last two candles (an older candle's final close survives).
      const pending = (c.pendingKlines ??= new Map());
      keepLastTwo(pending, time, candle);
      this.withPending.add(c);
      if (c.blockedSince === 0) this.scheduleOwed(c.lastOwedAt + c.minIntervalMs);
    }
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
      const entries: LatestQuote[] = [];
      for (const id of this.dirty) {
        const entry = this.quotes.get(id);
        if (entry) entries.push(entry);
      }
      type Batch = { buf: Buffer; entries: LatestQuote[] } | null;
      // Built when the first stream needs it: one for the streams that carry every instrument, and one per set asked
      // for (`?quotes=`), null when none of its instruments ticked; in each format streams ask for.
      const batches = new Map<string, Batch>();
      const batchFor = (c: StreamClient): Batch => {
        const key = `${c.format}:${c.quotesKey ?? '*'}`;
        let b = batches.get(key);
        if (b === undefined) {
          const mine = c.quotes ? entries.filter((e) => c.quotes!.has(e.instrumentId)) : entries;
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
  private owe(c: StreamClient, ids: ReadonlySet<number>, now: number): void {
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
  private writePending(c: StreamClient, extra: ReadonlySet<number> | null): void {
    const ids = c.pendingQuotes ?? new Set<number>();
    if (extra) for (const id of extra) ids.add(id);
    const entries: LatestQuote[] = [];
    for (const id of ids) {
      const entry = this.quotes.get(id);
      // What it is owed is written here only: the quotes its stream carries.
      if (entry && wants(c, id)) entries.push(entry);
    }
    let text = this.quoteFrames(c, entries);
    if (c.pendingKlines)
      for (const data of c.pendingKlines.values()) text += this.ids.frame('kline', readsLegacy(c) ? data.legacy : data.data);
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

  private write(c: StreamClient, chunk: Buffer | string): void {
    if (c.closed) return;
    const res = c.res;
    // No cork()/uncork() here: node's http already corks a response's socket until the next tick, so each
    // client's writes of one flush leave as one writev after the loop (an uncork per write measured ~10× slower).
    const ok = res.write(chunk);
    c.lastWriteAt = performance.now();
    if (!ok && c.blockedSince === 0) this.slow.backedUp(c, c.lastWriteAt);
    if (res.writableLength > this.options.maxBufferedBytes) this.slow.evict(c);
  }

  private broadcast(chunk: Buffer): void {
    for (const c of this.clients) this.write(c, chunk);
  }

  private sweep(): void {
    const now = performance.now();
    this.slow.evictBackedUp(now);
    // Only quiet streams need the heartbeat (a stream that just got quotes is alive), and they come due at
    // different times, so this never becomes one more write to every client at once.
    const quietSince = now - this.options.heartbeatMs;
    for (const c of this.clients) if (c.lastWriteAt <= quietSince && c.blockedSince === 0) this.write(c, HEARTBEAT);
  }

  private detach(c: StreamClient): void {
    if (c.closed) return;
    c.closed = true;
    this.clients.delete(c);
    this.slow.blocked.delete(c);
    this.withPending.delete(c);
    c.pendingQuotes = null;
    c.pendingKlines = null;
    if (c.code && c.period) this.charts.unwatch(c, c.code, c.period);
    if (c.feed) this.feeds.leave(c.feed, c);
  }

  // ── frames ─────────────────────────────────────────────────────────────────────────────────────────

  /**
   * These quotes as the client reads them: one `quotes` event (their JSON, built once per tick, in an array), or a
   * `quote` event each (a tab loaded before `v=2`).
   */
  private quoteFrames(c: StreamClient, entries: readonly LatestQuote[]): string {
    if (entries.length === 0) return '';
    if (c.format === STREAM_VERSION) return this.ids.frame('quotes', `[${entries.map((e) => e.data).join(',')}]`);
    if (c.format === 2) return this.ids.frame('quotes', `[${entries.map((e) => e.legacy).join(',')}]`);
    return entries.map((e) => this.ids.frame('quote', e.legacy)).join('');
  }
}

export function createRelay(options: RelayOptions): RelayHub {
  return new RelayHub(options);
}
