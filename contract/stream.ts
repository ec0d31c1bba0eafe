/**
 * The live stream between the web server and the browser.
 *
 * What the browser receives on `GET /stream` (server-sent events). The `event:` name and the JSON in
 * `data:` of each kind. Every event has an `id:` of the form `<boot>.<seq>`, increasing within a stream.
 */
import type { ChartPeriod } from './enums';
/** The upstream feed as the relay sees it. */
export type FeedState = 'up' | 'stale' | 'down';

/** `quote`: the day quote of one instrument (from DAY_MARKET), coalesced per instrument. */
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

/** `status`: the upstream feed; sent on connect and on every change. */
export interface StatusData {
  state: FeedState;
}

/** `resync`: the client must revalidate its loaders (private events it may have missed are gone). */
export interface ResyncData {
  reason: 'gone' | 'unknown-id' | 'reconnected' | 'login-failed';
}

export interface StreamEventMap {
  quote: QuoteData;
  kline: KlineData;
  account: AccountData;
  closed: ClosedData;
  status: StatusData;
  resync: ResyncData;
}
export type StreamEventName = keyof StreamEventMap;
