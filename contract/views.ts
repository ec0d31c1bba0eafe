/**
 * What the pages and the live stream show, in the trader's words: each upstream shape is mapped to one of these
 * once, on the server (pages: app/upstream/*.server.ts; the stream: server/relay/upstream-mapping.ts). The
 * upstream's own field names stay in contract/calls, contract/ws and those two mapping places.
 */
import type { Instrument as UpstreamInstrument } from './calls/market';
import { MarketStatus } from './enums';
import type { DayMarketPush } from './ws';

/** An instrument's day quote: what the quote list, the trade screen and the live stream all show. */
export interface Quote {
  instrumentId: number;
  /** The latest price (the day candle's close). */
  price: number;
  open: number;
  high: number;
  low: number;
  /** Since the day's open, in percent. */
  change: number;
  volume: number;
  marketOpen: boolean;
}

/** A tradable instrument, its trading rules and its latest quote. */
export interface Instrument {
  id: number;
  /** EURUSD: the instrument's code, in addresses and the chart's subscription. */
  code: string;
  /** EUR/USD: its name on screen. */
  symbol: string;
  logo: string;
  categoryId: number;
  /** Decimals of its prices. */
  digits: number;
  /** Lots step, minimum lots, and units per lot. */
  lotStep: number;
  minLots: number;
  contractSize: number;
  feeRate: number;
  marginMode: number;
  /** The leverages a trader may choose. */
  leverages: number[];
  /** The currency its price is quoted in (margin and profit are converted to USD). */
  quoteCurrency: string;
  quote: Quote;
}

export function instrumentView(i: UpstreamInstrument): Instrument {
  const q = i.ForexQuotations;
  return {
    id: i.Id,
    code: i.Code,
    symbol: i.ShowCode,
    logo: i.Logo,
    categoryId: i.CategoryId,
    digits: i.PricePrecision,
    lotStep: i.Pip,
    minLots: i.ForexMinCont,
    contractSize: i.ForexContNum,
    feeRate: i.ForexFeeRate,
    marginMode: i.MarginMode,
    leverages: i.HasForexMultiple.map((m) => m.Value),
    quoteCurrency: i.QuoteCurrency,
    quote: {
      instrumentId: i.Id,
      price: q.Close,
      open: q.Open,
      high: q.High,
      low: q.Low,
      change: q.Change,
      volume: q.Volume,
      marketOpen: i.MarketStatus === MarketStatus.Open,
    },
  };
}

/** A quote as the upstream's DAY_MARKET push gives it. */
export function quoteView(m: DayMarketPush): Quote {
  const q = m.quotation;
  return {
    instrumentId: m.forex_id,
    price: q.close,
    open: q.open,
    high: q.high,
    low: q.low,
    change: q.change,
    volume: q.volume,
    marketOpen: m.market_status === MarketStatus.Open,
  };
}
