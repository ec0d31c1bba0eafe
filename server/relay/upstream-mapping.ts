/**
 * The upstream's pushes (contract/ws.ts) as the stream's events (./events.ts), and the frames that carry them.
 * The only place the relay reads the upstream's field names: the rest of it sees instruments, charts and
 * the JSON each event carries. Each event's data is made in two shapes: the views of contract/views.ts (a stream
 * of version 3, STREAM_VERSION), and the shapes before them, for tabs loaded before version 3 (`legacy…` below).
 */
import { AlertDirection } from '../../contract/calls/alerts';
import type { ChartPeriod } from '../../contract/enums';
import { STREAM_VERSION, type StatusData } from '../../contract/stream';
import { liveAccountView, priceAlertView, quoteView, type Quote } from '../../contract/views';
import type { AlertPush, DayMarketPush, ForexTradePush, KlinePush, ServerMessage } from '../../contract/ws';
import type {
  ClosedData,
  KlineData,
  LegacyAccountData,
  LegacyAlertData,
  LegacyKlineData,
  LegacyQuoteData,
  StreamEventName,
} from './events';

/** The events made from a user's private pushes. */
export type PrivateEventName = Extract<StreamEventName, 'account' | 'closed' | 'alert'>;

/** An event's JSON in each shape: `data` (the views, version 3) and `legacy` (before it). Built once, shared by every stream. */
export interface EventData {
  data: string;
  legacy: string;
}

/** A new day quote of an instrument. */
export interface QuotePush extends EventData {
  kind: 'quote';
  instrumentId: number;
  /** The instrument's code (EURUSD). */
  code: string;
  quote: Quote;
}

/** An update of one candle of an instrument's chart. */
export interface CandlePush extends EventData {
  kind: 'candle';
  code: string;
  period: ChartPeriod;
  /** The candle's start (its key: an update replaces the candle of the same time). */
  time: number;
}

/** What a private push says: an event for the user's streams, or that the upstream refused the user's token. */
export type PrivatePush = ({ kind: PrivateEventName } & EventData) | { kind: 'login-refused'; code: number };

/** A message of the public socket as a quote or a candle; null for anything else (sub results). */
export function publicPushOf(m: ServerMessage): QuotePush | CandlePush | null {
  if (m.type === 'DAY_MARKET') {
    const quote = quoteView(m);
    return {
      kind: 'quote',
      instrumentId: m.forex_id,
      code: m.symbol,
      quote,
      data: JSON.stringify(quote),
      legacy: JSON.stringify(legacyQuoteData(m)),
    };
  }
  if (m.type === 'KLINE') {
    return {
      kind: 'candle',
      code: m.symbol,
      period: m.kline.Period,
      time: m.kline.Time,
      data: JSON.stringify(klineData(m)),
      legacy: JSON.stringify(legacyKlineData(m)),
    };
  }
  return null;
}

/** A message of a user's private socket; null for one that says nothing to the user's streams (an accepted login). */
export function privatePushOf(m: ServerMessage): PrivatePush | null {
  switch (m.type) {
    case 'FOREX_TRADE':
      return { kind: 'account', data: JSON.stringify(liveAccountView(m)), legacy: JSON.stringify(legacyAccountData(m)) };
    case 'FOREX_CLOSED': {
      const closed = JSON.stringify({ ids: m.id } satisfies ClosedData);
      return { kind: 'closed', data: closed, legacy: closed };
    }
    case 'ALERT':
      return { kind: 'alert', data: JSON.stringify(priceAlertView(m.alert)), legacy: JSON.stringify(legacyAlertData(m)) };
    case 'login_result':
      return m.code === 1 ? null : { kind: 'login-refused', code: m.code };
    default:
      return null;
  }
}

export function klineData({ forex_id, symbol, kline: k }: KlinePush): KlineData {
  return {
    instrumentId: forex_id,
    code: symbol,
    period: k.Period,
    time: k.Time,
    open: k.Open,
    high: k.High,
    low: k.Low,
    close: k.Close,
    volume: k.Volume,
  };
}

/** A quote as streams before version 3 read it. */
export function legacyQuoteData(m: DayMarketPush): LegacyQuoteData {
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

/** A candle as streams before version 3 read it. */
export function legacyKlineData(m: KlinePush): LegacyKlineData {
  return { forex_id: m.forex_id, symbol: m.symbol, ...m.kline };
}

/** The account figures as streams before version 3 read them. */
export function legacyAccountData(m: ForexTradePush): LegacyAccountData {
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

/** A fired alert as streams before version 3 read it. */
export function legacyAlertData({ alert: a }: AlertPush): LegacyAlertData {
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

/** One server-sent event as it goes on the wire (`data` is one line of JSON); without an id it leaves the stream's last id as it was. */
export function sseFrame(id: string | null, event: StreamEventName, data: string): string {
  return `${id === null ? '' : `id: ${id}\n`}event: ${event}\ndata: ${data}\n\n`;
}

/** `status`: the feed's state and the stream's version (a tab of another version reloads; older tabs ignore it). */
export function statusData(state: StatusData['state']): string {
  return JSON.stringify({ state, version: STREAM_VERSION } satisfies StatusData);
}
