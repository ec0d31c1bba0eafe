/**
 * The upstream's pushes (contract/ws.ts) as the stream's events (./events.ts), and the frames that carry them.
 * The only place the relay reads the upstream's field names: the rest of it sees instruments, charts and
 * the JSON each event carries.
 */
import { AlertDirection } from '../../contract/calls/alerts';
import type { ChartPeriod } from '../../contract/enums';
import type { AlertPush, DayMarketPush, ForexTradePush, ServerMessage } from '../../contract/ws';
import type { AccountData, AlertData, ClosedData, KlineData, QuoteData, StreamEventName } from './events';

/** The events made from a user's private pushes. */
export type PrivateEventName = Extract<StreamEventName, 'account' | 'closed' | 'alert'>;

/** A new day quote of an instrument. */
export interface QuotePush {
  kind: 'quote';
  instrumentId: number;
  /** The upstream's market status (1: open): a kept page of the market depends on it. */
  marketStatus: number;
  quote: QuoteData;
  /** `quote`'s JSON, built once per tick and shared by every stream. */
  data: string;
}

/** An update of one candle of an instrument's chart. */
export interface CandlePush {
  kind: 'candle';
  code: string;
  period: ChartPeriod;
  /** The candle's start (its key: an update replaces the candle of the same time). */
  time: number;
  data: string;
}

/** What a private push says: an event for the user's streams, or that the upstream refused the user's token. */
export type PrivatePush = { kind: PrivateEventName; data: string } | { kind: 'login-refused'; code: number };

/** A message of the public socket as a quote or a candle; null for anything else (sub results). */
export function publicPushOf(m: ServerMessage): QuotePush | CandlePush | null {
  if (m.type === 'DAY_MARKET') {
    const quote = quoteData(m);
    return { kind: 'quote', instrumentId: m.forex_id, marketStatus: m.market_status, quote, data: JSON.stringify(quote) };
  }
  if (m.type === 'KLINE') {
    const candle: KlineData = { forex_id: m.forex_id, symbol: m.symbol, ...m.kline };
    return { kind: 'candle', code: m.symbol, period: m.kline.Period, time: m.kline.Time, data: JSON.stringify(candle) };
  }
  return null;
}

/** A message of a user's private socket; null for one that says nothing to the user's streams (an accepted login). */
export function privatePushOf(m: ServerMessage): PrivatePush | null {
  switch (m.type) {
    case 'FOREX_TRADE':
      return { kind: 'account', data: JSON.stringify(accountData(m)) };
    case 'FOREX_CLOSED':
      return { kind: 'closed', data: JSON.stringify({ ids: m.id } satisfies ClosedData) };
    case 'ALERT':
      return { kind: 'alert', data: JSON.stringify(alertData(m)) };
    case 'login_result':
      return m.code === 1 ? null : { kind: 'login-refused', code: m.code };
    default:
      return null;
  }
}

export function quoteData(m: DayMarketPush): QuoteData {
  const { quotation: q } = m;
  return {
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
}

export function accountData(m: ForexTradePush): AccountData {
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

export function alertData({ alert: a }: AlertPush): AlertData {
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

/** One server-sent event as it goes on the wire (`data` is one line of JSON). */
export function sseFrame(id: string, event: StreamEventName, data: string): string {
  return `id: ${id}\nevent: ${event}\ndata: ${data}\n\n`;
}
