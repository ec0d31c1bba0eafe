/**
 * What a browser asks of `GET /stream`: the chart it draws (`code`, `period`), the instruments whose quotes
 * its page shows (`quotes`), the event format it reads (`v=`) and the last event it saw.
 */
import type { IncomingMessage } from 'node:http';
import { CHART_PERIODS, type ChartPeriod } from '../../contract/enums';
import { STREAM_VERSION } from '../../contract/stream';

/**
 * The format a stream reads: 3 (STREAM_VERSION), the views; 2, the shapes before them with a round's quotes in one
 * `quotes` event; 1 (no `v`), those shapes with one `quote` event per quote (a tab loaded before `v=2`).
 */
export type StreamFormat = 1 | 2 | typeof STREAM_VERSION;

/** `?code=EURUSD&period=1min&quotes=1,7` (express's `req.query` fits). */
export type StreamQuery = Readonly<Record<string, unknown>>;

export interface StreamAsk {
  /** The chart's instrument code and period, or null for a stream without a chart. */
  code: string | null;
  period: ChartPeriod | null;
  /** The instruments whose quotes the stream carries, or null for every instrument. */
  quotes: ReadonlySet<number> | null;
  format: StreamFormat;
}

const CODE_PATTERN = /^[A-Za-z0-9]{1,32}$/;
/** `?quotes=` names at most this many instruments (a longer list is read as every instrument). */
const STREAM_MAX_QUOTES = 64;
const QUOTES_PATTERN = new RegExp(`^(?:[1-9]\\d{0,8}(?:,[1-9]\\d{0,8}){0,${STREAM_MAX_QUOTES - 1}})?$`);
const PERIODS: readonly string[] = CHART_PERIODS;

/**
 * `code`: letters and digits, at most 32; `period`: one of the chart periods, required with a code.
 * `quotes`: the instrument ids whose quotes the page shows, comma-separated (at most 64; empty: none); absent or
 * unreadable: all. `v`: the format (StreamFormat); a version newer than this server's gets this server's (its status
 * event names it, and the tab reloads).
 */
export function parseStreamQuery(query: StreamQuery): StreamAsk | { error: string } {
  const { code, period, quotes: quotesParam } = query;
  const format = formatOf(query.v);
  // Only a hint to carry less: a list it cannot take (malformed, or too long) gets every instrument, since a
  // 400 would end the EventSource for good, and the user's private events with it.
  const quotes =
    typeof quotesParam === 'string' && QUOTES_PATTERN.test(quotesParam)
      ? new Set(quotesParam === '' ? [] : quotesParam.split(',').map(Number))
      : null;
  if (code === undefined || code === '') return { code: null, period: null, quotes, format };
  if (typeof code !== 'string' || !CODE_PATTERN.test(code)) return { error: 'code must be 1 to 32 letters or digits' };
  if (typeof period !== 'string' || !PERIODS.includes(period)) return { error: `period must be one of ${CHART_PERIODS.join(', ')}` };
  return { code, period: period as ChartPeriod, quotes, format };
}

function formatOf(v: unknown): StreamFormat {
  const version = typeof v === 'string' && /^\d{1,3}$/.test(v) ? Number(v) : 1;
  return version >= STREAM_VERSION ? STREAM_VERSION : version === 2 ? 2 : 1;
}

/** The same key for the same instruments in any order: streams that asked for them share one frame per flush. */
export function quotesKeyOf(quotes: ReadonlySet<number> | null): string | null {
  return quotes && [...quotes].sort((a, b) => a - b).join(',');
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

/** The query the caller parsed (express's `req.query`), or else the request URL's. */
export function streamQueryOf(req: IncomingMessage, query: StreamQuery | undefined): StreamQuery {
  return query ?? Object.fromEntries(new URL(req.url ?? '/', 'http://localhost').searchParams);
}
