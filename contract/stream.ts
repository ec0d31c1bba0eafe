/**
 * The live stream between the web server and the browser.
 *
 * What the browser receives on `GET /stream` (server-sent events). The `event:` name and the JSON in
 * `data:` of each kind. Every event has an `id:` of the form `<boot>.<seq>`, increasing within a stream.
 */
import { cookieValue } from './cookies';
import type { ChartPeriod } from './enums';
import type { Candle, LiveAccount, PriceAlert, Quote } from './views';
/** The upstream feed as the relay sees it. */
export type FeedState = 'up' | 'stale' | 'down';

/**
 * The stream's version: the shapes of its events. A tab asks `GET /stream?v=<the version it was built with>`; the
 * `status` event names the server's, and a tab built with another reloads itself (its code would misread them).
 */
export const STREAM_VERSION = 3;

/**
 * A stream with nothing else to say for this long gets a `ping`; a browser that hears nothing at all for
 * STREAM_SILENT_MS takes the stream for dead (a connection that died without a word: a phone's network changed, a
 * proxy dropped it) and opens another, showing its prices as stale meanwhile.
 */
export const STREAM_HEARTBEAT_MS = 15_000;
export const STREAM_SILENT_MS = 3 * STREAM_HEARTBEAT_MS;

/**
 * What the web server's relay holds of the public feed, read by server rendering (the app's load context
 * `market`). Raw facts only: whether they are fresh enough is the app's rule (app/upstream/warm-market.server.ts).
 */
export interface WarmMarketState {
  feed: FeedState;
  /** Epoch ms of the last message of any kind (a pong too): every push the upstream sent before it has arrived. */
  heardAt: number;
  /** Epoch ms when the feed's current connection opened (0: never); its `sub` makes the upstream send every quote again. */
  connectedAt: number;
  /** The latest quote of each instrument, by id, with the epoch ms the feed last sent it (changed or not). */
  quotes: ReadonlyMap<number, Quote & { seenAt: number }>;
}

/** `kline`: one candle of the chart (instrument and period) the stream asked for. */
export interface KlineData extends Candle {
  instrumentId: number;
  /** The instrument's code (EURUSD). */
  code: string;
  period: ChartPeriod;
}

/** `closed`: ids of orders closed by take-profit, stop-loss, stop-out or admin. Never dropped. */
export interface ClosedData {
  ids: number[];
}

/** `status`: the upstream feed, and the stream's version; sent on connect and on every change. */
export interface StatusData {
  state: FeedState;
  /** STREAM_VERSION of the server (absent from a server before version 3). */
  version?: number;
}

/** `resync`: the client must revalidate its loaders (private events it may have missed are gone). */
export interface ResyncData {
  reason: 'gone' | 'unknown-id' | 'reconnected' | 'login-failed';
}

/** The events of a stream that asks `v=3` (STREAM_VERSION): the views of contract/views.ts. */
export interface StreamEventMap {
  /**
   * The day quotes that changed since the stream's last write, one per instrument (coalesced), in one event: a
   * phone dispatches one event per round of ticks, not one per quote. On connect: the latest of each it carries.
   */
  quotes: Quote[];
  kline: KlineData;
  /** The signed-in user's figures (about once a second while they hold margin) and their positions' marks. */
  account: LiveAccount;
  closed: ClosedData;
  /** One of the user's price alerts fired (issue 13), `triggered` set. Never dropped; replayed like `closed`. */
  alert: PriceAlert;
  status: StatusData;
  resync: ResyncData;
  /** The heartbeat of a quiet stream (STREAM_HEARTBEAT_MS): `{}`, sent without an id. */
  ping: Record<string, never>;
}
export type StreamEventName = keyof StreamEventMap | LegacyEventName;

// ── The shapes of streams before version 3 (`v=2` or no `v`): tabs loaded before it still read them. ─────────────
// Drop once the relay's legacyClients stays at 0 (from version 3 on, a tab hears the version and reloads).

/** The day quote of one instrument (from DAY_MARKET), as `quotes` (v=2) and `quote` carried it. */
export interface LegacyQuoteData {
  forex_id: number;
  symbol: string;
  close: number;
  change: number;
  high: number;
  low: number;
  open: number;
  volume: number;
  /** MarketStatus: 1 open. */
  market_status: number;
}

/** `kline` before version 3 (the shape of the kline call's points). */
export interface LegacyKlineData {
  forex_id: number;
  symbol: string;
  Period: ChartPeriod;
  Time: number;
  Open: number;
  High: number;
  Low: number;
  Close: number;
  Volume: number;
}

/** `account` before version 3. */
export interface LegacyAccountData {
  equity: number;
  margin: number;
  risk_rate: number | null;
  profit: number;
  balance: number;
  free_margin: number;
  orders: { id: number; profit: number; mark: number }[];
}

/** `alert` before version 3. */
export interface LegacyAlertData {
  id: number;
  code: string;
  symbol: string;
  precision: number;
  direction: 'above' | 'below';
  level: number;
  price: number;
  note: string;
  /** ISO time it fired. */
  at: string;
}

/**
 * The events of a stream before version 3. `quotes` with `v=2`; one `quote` per event without it (a tab whose
 * code was loaded before `quotes` existed). Drop with decision 0026's metric at 0.
 */
export interface LegacyStreamEventMap {
  quotes: LegacyQuoteData[];
  quote: LegacyQuoteData;
  kline: LegacyKlineData;
  account: LegacyAccountData;
  closed: ClosedData;
  alert: LegacyAlertData;
  status: StatusData;
  resync: ResyncData;
}
type LegacyEventName = keyof LegacyStreamEventMap;

/**
 * Low data (issue 12): a browser that sends `Save-Data: on`, or holds this cookie (the "Low data mode"
 * switch of /mine/system), gets quotes and candles at most once per LOW_DATA_INTERVAL_MS; its private
 * events and the feed status are never delayed.
 */
export const LOW_DATA_COOKIE = '__Host-low-data';
export const LOW_DATA_INTERVAL_MS = 1000;

/** The low-data switch is on in this `Cookie` header (`__Host-low-data=1`). */
export function hasLowDataCookie(cookieHeader: string | null | undefined): boolean {
  return cookieValue(cookieHeader, LOW_DATA_COOKIE) === '1';
}

/** The browser's data saver is on: its `Save-Data` header says `on`. */
export function isSaveDataOn(saveData: string | null | undefined): boolean {
  return saveData?.trim().toLowerCase() === 'on';
}

/** The request asks for low data: the browser's data saver (`Save-Data: on`) or the switch's cookie. */
export function wantsLowData(saveData: string | null | undefined, cookieHeader: string | null | undefined): boolean {
  return isSaveDataOn(saveData) || hasLowDataCookie(cookieHeader);
}
