/** Rows and engine state → the response shapes of contract/ (spec §3 field names). */
import { equityMicro, freeMarginMicro, riskRateBasisPoints, STOP_OUT_PERCENT, type AccountFigures } from '../../contract/arithmetic';
import type { User } from '../../contract/calls/account';
import type { Alert } from '../../contract/calls/alerts';
import type { Instrument as InstrumentView } from '../../contract/calls/market';
import type { AccountDetail, Order } from '../../contract/calls/trade';
import { OrderStatus } from '../../contract/enums';
import { LOT_DECIMALS, MONEY_DECIMALS, mulDiv, unitsToNumber } from '../../contract/money';
import type { UserRow } from '../accounts/accounts';
import type { AlertRow } from '../alerts/book';
import { priceNumber, type Instrument, type Market } from '../market/market';
import { STOPS_LEVEL_POINTS } from '../trading/contract-rules';
import type { OrderRow, TradingEngine } from '../trading/engine';

export const moneyNumber = (units: number) => unitsToNumber(units, MONEY_DECIMALS);
const lotsNumber = (units: number) => unitsToNumber(units, LOT_DECIMALS);

export function isoTime(ms: number | null): string {
  return ms === null ? '' : new Date(ms).toISOString();
}

export function userView(u: UserRow): User {
  return {
    id: u.id,
    uid: u.uid,
    email: u.email,
    mobile: u.mobile,
    area_id: u.area_id,
    is_demo: u.is_demo === 1 ? 1 : 0,
    invite_code: u.invite_code,
    created_at: isoTime(u.created_at),
  };
}

export function instrumentView(market: Market, inst: Instrument): InstrumentView {
  const q = market.dayQuote(inst.id);
  const p = (v: number) => priceNumber(inst, v);
  return {
    Id: inst.id,
    Code: inst.code,
    ShowCode: inst.showCode,
    Logo: inst.logo,
    CategoryId: inst.categoryId,
    MarketStatus: market.status(inst.id),
    PricePrecision: inst.precision,
    Pip: lotsNumber(inst.lotStep),
    ForexContNum: inst.contractSize,
    ForexMinCont: lotsNumber(inst.minLots),
    ForexFeeRate: moneyNumber(inst.feeRate),
    MarginMode: inst.marginMode,
    HasForexMultiple: inst.leverages.map((Value) => ({ Value })),
    ForexQuotations: { Open: p(q.open), Close: p(q.close), Change: q.change, High: p(q.high), Low: p(q.low), Volume: q.volume },
    QuoteCurrency: inst.quoteCurrency,
    TradingSessions: market.sessions(inst).map((s) => ({ Open: s.open, Close: s.close })),
    StopsLevel: STOPS_LEVEL_POINTS,
  };
}

export function orderView(market: Market, engine: TradingEngine, row: OrderRow): Order {
  const inst = market.get(row.instrument_id)!;
  const p = (v: number | null) => (v === null ? 0 : priceNumber(inst, v));
  const live = row.status === OrderStatus.Holding ? engine.live(row.id) : undefined;
  const update =
    row.status === OrderStatus.Closed
      ? row.close_price
      : row.status === OrderStatus.Holding || row.status === OrderStatus.Pending
        ? (live?.mark ?? market.price(inst.id))
        : row.origin_price;
  return {
    Id: row.id,
    ForexId: inst.id,
    OrderType: row.side,
    Quantity: lotsNumber(row.lots),
    Price: p(row.open_price ?? row.target_price),
    OriginPrice: p(row.origin_price),
    UpdatePrice: p(update),
    FactProfits: moneyNumber(live ? live.profit : (row.profit ?? 0)),
    CautionMoney: moneyNumber(row.margin),
    TradeFee: moneyNumber(row.fee),
    TargetLossPrice: p(row.stop_loss),
    TargetProfitPrice: p(row.take_profit),
    TrailDistance: p(row.trail_distance),
    Multiple: row.leverage,
    Status: row.status,
    CloseReason: row.close_reason,
    CreateTimeHandler: isoTime(row.created_at),
    CompleteTimeHandler: isoTime(row.completed_at),
    ParentId: row.parent_id,
    ForexTradeLists: { ShowCode: inst.showCode, Code: inst.code, PricePrecision: inst.precision },
  };
}

/** `pending`: micro-USD of withdrawals requested and not finished, and of deposits waiting for review. */
export function accountDetailView(f: AccountFigures, pending = { withdrawals: 0, deposits: 0 }): AccountDetail {
  const equity = equityMicro(f);
  const risk = riskRateBasisPoints(f);
  return {
    balance: moneyNumber(f.balance),
    lock_balance: moneyNumber(f.lockBalance),
    equity: moneyNumber(equity),
    free_margin: moneyNumber(freeMarginMicro(f)),
    margin: moneyNumber(f.lockBalance),
    risk_rate: risk === null ? null : risk / 100,
    margin_ratio: equity > 0 ? mulDiv([f.lockBalance, 10000], [equity]) / 100 : null,
    floating_profit: moneyNumber(f.floatingProfit),
    stop_out_level: STOP_OUT_PERCENT,
    withdraw_pending: moneyNumber(pending.withdrawals),
    deposit_pending: moneyNumber(pending.deposits),
  };
}

export function alertView(market: Market, row: AlertRow): Alert {
  const inst = market.get(row.instrument_id)!;
  return {
    id: row.id,
    forex_id: inst.id,
    code: inst.code,
    show_code: inst.showCode,
    precision: inst.precision,
    direction: row.direction,
    price: priceNumber(inst, row.price),
    note: row.note,
    created_at: isoTime(row.created_at),
    triggered_at: row.triggered_at === null ? null : isoTime(row.triggered_at),
    triggered_price: row.triggered_price === null ? null : priceNumber(inst, row.triggered_price),
  };
}
