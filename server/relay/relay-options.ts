/**
 * What a relay is made with and what it tells: its options and their defaults, its stats, and the quotes it
 * hands to server rendering and the benchmark.
 */
import { LOW_DATA_INTERVAL_MS, STREAM_HEARTBEAT_MS } from '../../contract/stream';
import type { Quote as QuoteView } from '../../contract/views';
import type { FeedState, UpstreamSocketOptions } from './upstream-socket';

/** The latest day quote of an instrument, as the hub last received it. */
export interface Quote extends QuoteView {
  /** The instrument's code (EURUSD). */
  code: string;
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
  /** A stream with nothing written to it for this long gets a `ping` event. */
  heartbeatMs?: number;
  /** How soon EventSource reconnects: each stream is told a `retry:` drawn over ½×..2½× this (the hub's retryFrame). */
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
  /** Open streams that read the shapes before version 3 (`v=2` or no `v`): their mappers can go once this stays 0. */
  legacyClients: number;
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
  heartbeatMs: STREAM_HEARTBEAT_MS,
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
