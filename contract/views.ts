/**
 * What the pages and the live stream show, in the trader's words: each upstream shape is mapped to one of these
 * once, on the server (pages: app/upstream/*.server.ts; the stream: server/relay/upstream-mapping.ts). The
 * upstream's own field names stay in contract/calls, contract/ws and those two mapping places.
 */
import { AlertDirection } from './alert-rules';
import type { InstrumentTerms } from './arithmetic';
import type { User as UpstreamUser } from './calls/account';
import type { Alert as UpstreamAlert } from './calls/alerts';
import type { Category as UpstreamCategory, Instrument as UpstreamInstrument, KlinePoint } from './calls/market';
import type { AccountDetail as UpstreamAccountDetail, Order } from './calls/trade';
import { MarketStatus, Side } from './enums';
import { money } from './money';
import type { DayMarketPush, ForexTradePush } from './ws';

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

/**
 * What the Contract screen adds to an instrument: rules the product call may carry (issue 40). Each is null
 * when the broker's backend does not send it, and the screen leaves its row out.
 */
export interface InstrumentContract {
  /** The most lots one order may have. */
  maxLots: number | null;
  /** Least distance of a stop or pending price from the price, in points; 0: any distance on the right side. */
  stopsLevel: number | null;
  /** The weekly session: spans in minutes from Sunday 00:00 UTC (see contract/calls/market.ts). */
  sessions: { open: number; close: number }[] | null;
}

export function instrumentContractView(i: UpstreamInstrument): InstrumentContract {
  return {
    maxLots: i.ForexMaxCont ?? null,
    stopsLevel: i.StopsLevel ?? null,
    sessions: i.TradingSessions?.map((s) => ({ open: s.Open, close: s.Close })) ?? null,
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

/** A candle of a chart: `time` is UTC seconds at its start. */
export interface Candle {
  time: number;
  open: number;
  high: number;
  low: number;
  close: number;
  volume: number;
}

export function candleView(k: KlinePoint): Candle {
  return { time: k.Time, open: k.Open, high: k.High, low: k.Low, close: k.Close, volume: k.Volume };
}

/** A group of instruments (the market list's chips), named in the request's language. */
export interface Category {
  id: number;
  code: string;
  name: string;
}

export function categoryView(c: UpstreamCategory): Category {
  return { id: c.Id, code: c.Code, name: c.NameShowTrans };
}

/** What the arithmetic (contract/arithmetic.ts) needs of an instrument, from its view. */
export function instrumentTerms(i: Pick<Instrument, 'digits' | 'contractSize' | 'marginMode' | 'feeRate'>): InstrumentTerms {
  return {
    precision: i.digits,
    contractSize: i.contractSize,
    marginMode: i.marginMode,
    // The fee rate is USD per lot (or a share of the margin); the arithmetic takes it in millionths.
    feeRateMicro: money.fromNumber(i.feeRate),
  };
}

/** An order: pending, holding (a position), or closed or cancelled (history). Prices in its instrument's digits, money in USD. */
export interface Position {
  id: number;
  instrumentId: number;
  side: Side;
  lots: number;
  /** The fill price (the target price while pending). */
  price: number;
  /** The market price when it was submitted. */
  originPrice: number;
  /** The latest price while holding; the exit price once closed. */
  mark: number;
  /** Floating profit while holding; realised once closed. */
  profit: number;
  margin: number;
  fee: number;
  /** 0: none. */
  takeProfit: number;
  stopLoss: number;
  /** A trailing stop's distance in price units (0: none): the stop loss follows the price at this distance. */
  trailDistance: number;
  leverage: number;
  /** OrderStatus. */
  status: number;
  /** CloseReason, once closed. */
  closeReason: number | null;
  openedAt: string;
  closedAt: string;
  /** The position this row was partly closed from (a closed part's own row); null otherwise. */
  parentId: number | null;
  instrument: { code: string; symbol: string; digits: number };
}

export function positionView(o: Order): Position {
  const i = o.ForexTradeLists;
  return {
    id: o.Id,
    instrumentId: o.ForexId,
    side: o.OrderType === Side.Buy ? Side.Buy : Side.Sell,
    lots: o.Quantity,
    price: o.Price,
    originPrice: o.OriginPrice,
    mark: o.UpdatePrice,
    profit: o.FactProfits,
    margin: o.CautionMoney,
    fee: o.TradeFee,
    takeProfit: o.TargetProfitPrice,
    stopLoss: o.TargetLossPrice,
    trailDistance: o.TrailDistance,
    leverage: o.Multiple,
    status: o.Status,
    closeReason: o.CloseReason,
    openedAt: o.CreateTimeHandler,
    closedAt: o.CompleteTimeHandler,
    parentId: o.ParentId,
    instrument: { code: i.Code, symbol: i.ShowCode, digits: i.PricePrecision },
  };
}

/** The account's figures in USD, as the screens show them and the stream renews them. */
export interface AccountFigures {
  /** Free cash. */
  balance: number;
  /** Net value: balance, held margin and floating profit. */
  equity: number;
  /** Used margin. */
  margin: number;
  /** Available: equity − used margin. */
  freeMargin: number;
  /** Floating profit of the holding positions. */
  profit: number;
  /** Equity ÷ used margin × 100; null with no margin in use. */
  riskRate: number | null;
  /** Used margin ÷ equity × 100 (the prepayment ratio); null when equity is not positive. */
  marginRatio: number | null;
}

/** The account as a page reads it: its figures, the margin its open and pending orders hold, and money on its way. */
export interface Account extends AccountFigures {
  /** Margin held by open and pending orders (0: the trader has none). */
  heldMargin: number;
  /** Withdrawals asked for and not yet paid or refused (already out of the balance). */
  withdrawPending: number;
  /** Deposits waiting for review (not yet in the balance). */
  depositPending: number;
}

export function accountView(d: UpstreamAccountDetail): Account {
  return {
    balance: d.balance,
    equity: d.equity,
    margin: d.margin,
    freeMargin: d.free_margin,
    profit: d.floating_profit,
    riskRate: d.risk_rate,
    marginRatio: d.margin_ratio,
    heldMargin: d.lock_balance,
    withdrawPending: d.withdraw_pending,
    depositPending: d.deposit_pending,
  };
}

/** A holding position's profit and latest price, as the stream renews them. */
export interface PositionMark {
  id: number;
  profit: number;
  mark: number;
}

/** The account as the stream brings it each second: its figures and each holding position's mark. */
export interface LiveAccount extends AccountFigures {
  positions: PositionMark[];
}

export function liveAccountView(m: ForexTradePush): LiveAccount {
  const equity = m.OriginCautionMoneyTotal;
  const margin = m.CautionMoneyAll;
  return {
    balance: m.Balance,
    equity,
    margin,
    freeMargin: m.FreeMargin,
    profit: m.ProfitsTotal,
    riskRate: m.HazardRate,
    // As the upstream's own margin_ratio (display only).
    marginRatio: equity > 0 ? (margin / equity) * 100 : null,
    positions: m.TransOrder.map((o) => ({ id: o.Id, profit: o.FactProfits, mark: o.UpdatePrice })),
  };
}

/** A price alert: the trader is told when the instrument's price rises to (or falls to) the level. */
export interface PriceAlert {
  id: number;
  /** The instrument's code (EURUSD), name on screen (EUR/USD) and price decimals. */
  code: string;
  symbol: string;
  digits: number;
  direction: 'above' | 'below';
  level: number;
  note: string;
  createdAt: string;
  /** Set once the price reached the level: when, and the price of that tick. */
  triggered: { at: string; price: number } | null;
}

export function priceAlertView(a: UpstreamAlert): PriceAlert {
  return {
    id: a.id,
    code: a.code,
    symbol: a.show_code,
    digits: a.precision,
    direction: a.direction === AlertDirection.Above ? 'above' : 'below',
    level: a.price,
    note: a.note,
    createdAt: a.created_at,
    triggered: a.triggered_at === null ? null : { at: a.triggered_at, price: a.triggered_price ?? a.price },
  };
}

/** The signed-in trader: who they are, and whether the account is a demo one. */
export interface Trader {
  id: number;
  /** The number shown as theirs (UID). */
  uid: string;
  email: string | null;
  mobile: string | null;
  /** The phone's area code's id. */
  areaId: number | null;
  isDemo: boolean;
  inviteCode: string;
  createdAt: string;
}

export function traderView(u: UpstreamUser): Trader {
  return {
    id: u.id,
    uid: u.uid,
    email: u.email,
    mobile: u.mobile,
    areaId: u.area_id,
    isDemo: u.is_demo === 1,
    inviteCode: u.invite_code,
    createdAt: u.created_at,
  };
}
