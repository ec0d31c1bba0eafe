/**
 * One browser's stream as the hub keeps it: what it asked for (./stream-query.ts), and how it takes quotes and
 * candles: at each shared flush, or owed (while its socket is backed up, and always for a low-data client).
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { ChartPeriod } from '../../contract/enums';
import { STREAM_VERSION, wantsLowData } from '../../contract/stream';
import { peerOf, type WatchedClient } from './slow-clients';
import { quotesKeyOf, type StreamAsk, type StreamFormat } from './stream-query';
import type { Frames } from './replay';
import type { EventData } from './upstream-mapping';
import type { UserFeed } from './user-feeds';

export interface StreamClient extends WatchedClient {
  feed: UserFeed<StreamClient> | null;
  code: string | null;
  period: ChartPeriod | null;
  /** The instruments whose quotes this stream carries (`?quotes=`), or null for every instrument. */
  quotes: ReadonlySet<number> | null;
  /** `quotes` as a key shared by the clients that asked for the same ones: one frame per flush for each set and format. */
  quotesKey: string | null;
  /** The shapes of its events, and whether its quotes come in one `quotes` event per write (2 and up) or one `quote` event each. */
  format: StreamFormat;
  /** performance.now() of the last write: a stream quiet for heartbeatMs gets a comment. */
  lastWriteAt: number;
  /** Quotes and klines at most once per this many ms (low data), else 0: each shared flush. */
  minIntervalMs: number;
  /** performance.now() when this client last got quotes or klines of its own (on connect, or what it was owed). */
  lastOwedAt: number;
  /** Instruments whose quote is owed (while blocked, or just drained); never null for a low-data client. */
  pendingQuotes: Set<number> | null;
  /** Latest kline data by candle time, at most two candles (while blocked, or low data). */
  pendingKlines: Map<number, EventData> | null;
}

/** A new stream; low data (`Save-Data: on` or the low-data cookie) takes quotes and candles once per `lowDataIntervalMs`. */
export function streamClient(
  req: IncomingMessage,
  res: ServerResponse,
  asked: StreamAsk,
  feed: UserFeed<StreamClient> | null,
  lowDataIntervalMs: number,
): StreamClient {
  const saveData = req.headers['save-data'];
  const lowData = wantsLowData(typeof saveData === 'string' ? saveData : undefined, req.headers.cookie);
  return {
    res,
    feed,
    code: asked.code,
    period: asked.period,
    quotes: asked.quotes,
    quotesKey: quotesKeyOf(asked.quotes),
    format: asked.format,
    blockedSince: 0,
    lastWriteAt: 0,
    minIntervalMs: lowData ? lowDataIntervalMs : 0,
    // The connect write carries the latest quote of every instrument it asked for.
    lastOwedAt: performance.now(),
    // Never null for a low-data client: the shared flush then takes it the owed way, at no cost to the others.
    pendingQuotes: lowData ? new Set() : null,
    pendingKlines: null,
    peer: peerOf(req.socket),
    behindSince: 0,
    closed: false,
  };
}

/** Whether a stream reads the shapes before version 3 (./upstream-mapping.ts). */
export function readsLegacy(c: Pick<StreamClient, 'format'>): boolean {
  return c.format < STREAM_VERSION;
}

/** Whether a stream carries this instrument's quotes. */
export function wants(c: StreamClient, instrumentId: number): boolean {
  return c.quotes === null || c.quotes.has(instrumentId);
}

/** The frame a client reads of an event. */
export function pick(frames: Frames, legacy: boolean): string {
  return legacy ? frames.legacy : frames.text;
}

/** An event's bytes for each client, made once per shape. */
export function bytesOf(frames: Frames): (c: StreamClient) => Buffer {
  const text = Buffer.from(frames.text);
  const legacy = frames.legacy === frames.text ? text : Buffer.from(frames.legacy);
  return (c) => (readsLegacy(c) ? legacy : text);
}

/** The streams' unsent bytes, and how many read an older shape (stats). */
export function tally(clients: Iterable<StreamClient>): { buffered: number; oldFormatClients: number; legacyClients: number } {
  let buffered = 0;
  let oldFormatClients = 0;
  let legacyClients = 0;
  for (const c of clients) {
    buffered += c.res.writableLength;
    if (c.format === 1) oldFormatClients++;
    if (readsLegacy(c)) legacyClients++;
  }
  return { buffered, oldFormatClients, legacyClients };
}
