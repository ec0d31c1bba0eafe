/**
 * The live stream between the web server and the browser.
 *
 * What the browser receives on `GET /stream` (server-sent events). The `event:` name and the JSON in
 * `data:` of each kind. Every event has an `id:` of the form `<boot>.<seq>`, increasing within a stream.
 */
import type { ChartPeriod } from './enums';
/** The upstream feed as the relay sees it. */
export type FeedState = 'up' | 'stale' | 'down';

/** The day quote of one instrument (from DAY_MARKET), as the `quotes` event carries it. */
export interface QuoteData {
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
  quotes: ReadonlyMap<number, QuoteData & { seenAt: number }>;
}

/** `kline`: one candle of the code and period the stream asked for (the shape of the kline call's points). */
export interface KlineData {
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

/** `account`: the signed-in user's figures (from FOREX_TRADE, about once a second while they hold margin). */
export interface AccountData {
  equity: number;
  margin: number;
  /** Equity ÷ used margin × 100; null with no margin in use. */
  risk_rate: number | null;
  /** Floating profit of all holding orders. */
  profit: number;
  balance: number;
  free_margin: number;
  orders: { id: number; profit: number; mark: number }[];
}

/** `closed`: ids of orders closed by take-profit, stop-loss, stop-out or admin. Never dropped. */
export interface ClosedData {
  ids: number[];
}

/** `alert`: one of the user's price alerts fired (issue 13). Never dropped; replayed like `closed`. */
export interface AlertData {
  id: number;
  /** The instrument's code (EURUSD) and display name (EUR/USD). */
  code: string;
  symbol: string;
  /** Decimals of the instrument's prices. */
  precision: number;
  /** The price rose to the level, or fell to it. */
  direction: 'above' | 'below';
  level: number;
  /** The price of the tick that reached the level. */
  price: number;
  note: string;
  /** ISO time it fired. */
  at: string;
}

/** `status`: the upstream feed; sent on connect and on every change. */
export interface StatusData {
  state: FeedState;
}

/** `resync`: the client must revalidate its loaders (private events it may have missed are gone). */
export interface ResyncData {
  reason: 'gone' | 'unknown-id' | 'reconnected' | 'login-failed';
}

export interface StreamEventMap {
  /**
   * The day quotes that changed since the stream's last write, one per instrument (coalesced), in one event: a
   * phone dispatches one event per round of ticks, not one per quote. On connect: the latest of each it carries.
   * For a stream that asks `GET /stream?v=2`.
   */
  quotes: QuoteData[];
  /**
   * One quote per event: what a stream that does not ask for `v=2` gets instead of `quotes` (a tab whose code
   * was loaded before `quotes` existed keeps its live prices), and what a node of the previous release sends to a
   * new page in a rolling deploy. Drop with decision 0026's metric at 0.
   */
  quote: QuoteData;
  kline: KlineData;
  account: AccountData;
  closed: ClosedData;
  alert: AlertData;
  status: StatusData;
  resync: ResyncData;
}
export type StreamEventName = keyof StreamEventMap;

/**
 * Low data (issue 12): a browser that sends `Save-Data: on`, or holds this cookie (the "Low data mode"
 * switch of /mine/system), gets quotes and candles at most once per LOW_DATA_INTERVAL_MS; its private
 * events and the feed status are never delayed.
 */
export const LOW_DATA_COOKIE = '__Host-low-data';
export const LOW_DATA_INTERVAL_MS = 1000;

/** The low-data switch is on in this `Cookie` header (`__Host-low-data=1`). */
export function hasLowDataCookie(cookieHeader: string | null | undefined): boolean {
  if (!cookieHeader) return false;
  for (const part of cookieHeader.split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq).trim() === LOW_DATA_COOKIE && part.slice(eq + 1).trim() === '1') return true;
  }
  return false;
}

/** The browser's data saver is on: its `Save-Data` header says `on`. */
export function isSaveDataOn(saveData: string | null | undefined): boolean {
  return saveData?.trim().toLowerCase() === 'on';
}

/** The request asks for low data: the browser's data saver (`Save-Data: on`) or the switch's cookie. */
export function wantsLowData(saveData: string | null | undefined, cookieHeader: string | null | undefined): boolean {
  return isSaveDataOn(saveData) || hasLowDataCookie(cookieHeader);
}
