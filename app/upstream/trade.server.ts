/** Spec §7 orders and account calls: one function per call, each mapped once to the views of contract/views.ts. */
import * as trade from '#contract/calls/trade';
import { LedgerType, type EntryMode, type OrderTab, type Side } from '#contract/enums';
import { money } from '#contract/money';
import { accountView, positionView, type Account, type Position } from '#contract/views';
import type { z } from 'zod/v4';
import type { Api, ApiCallOptions } from './api.server';

/** An order as the ticket asks for it: prices and lots as typed (an empty text: none). */
export interface OrderRequest {
  instrumentId: number;
  side: Side | number;
  lots: string;
  leverage: number;
  /** At the market price, or pending at `targetPrice`. */
  entry: EntryMode | number;
  targetPrice: string;
  takeProfit: string;
  stopLoss: string;
  trailDistance: string;
  /** The price the trader saw (a market order filled too far from it is refused); '' for a pending one. */
  seenPrice: string;
  /** One per rendered ticket: a repeated key gets the order placed under it. */
  key?: string;
}

/** Places an order; the answer is the order as placed (or the one a repeated key placed before). */
export async function placeOrder(api: Api, order: OrderRequest, options?: ApiCallOptions): Promise<Position> {
  const input = {
    type: order.side,
    cont: order.lots,
    forex_id: order.instrumentId,
    status: order.entry,
    target_price: order.targetPrice,
    target_profit_price: order.takeProfit,
    stop_loss_price: order.stopLoss,
    trail_distance: order.trailDistance,
    multiple: order.leverage,
    price: order.seenPrice,
    idempotency_key: order.key,
  };
  return positionView((await api.call(trade.submit, input, options)).data);
}

/** A page of one tab of the orders screen, newest first. */
export interface PositionPage {
  positions: Position[];
  /** Orders in the tab (every page). */
  total: number;
  /** Their profit, floating or realised, over every page (USD). */
  profit: number;
  /** The account's free cash (USD). */
  balance: number;
}

export async function positionPage(api: Api, tab: OrderTab, page = 1, range: TimeRange = {}): Promise<PositionPage> {
  const { data, extras } = await api.call(trade.myDeal, { status: tab, page, ...range });
  return {
    positions: data.map(positionView),
    total: extras.total ?? 0,
    profit: extras.all_fact_profits ?? 0,
    balance: extras.balance ?? 0,
  };
}

/** Closes a position, or `part.lots` of it (one key per rendered close form: a resent form closes once); the answer is the closed part. */
export const closePosition = async (api: Api, id: number, part?: { lots?: string; key?: string }): Promise<Position> =>
  positionView((await api.call(trade.close, { id, cont: part?.lots, idempotency_key: part?.key })).data);

/** What "close all" did: the positions closed with their profit, those that failed with why, and the profit in all (USD). */
export type CloseAllOutcome = z.output<typeof trade.CloseAllResultSchema>;

/** Closes every holding position in `scope` (winning, losing or all); each succeeds or fails on its own. */
export const closePositions = async (api: Api, scope: trade.CloseAllScope, key?: string): Promise<CloseAllOutcome> =>
  (await api.call(trade.closeAll, { scope, idempotency_key: key })).data;

/** How many holding positions are in `scope` now and their floating profit (USD): what "close all" would take. */
export async function closeAllPreview(api: Api, scope: trade.CloseAllScope): Promise<{ count: number; profit: number }> {
  let count = 0;
  let profitMicro = 0;
  for (let page = 1; page <= CLOSE_ALL_PREVIEW_PAGES; page++) {
    const { positions, total } = await positionPage(api, 1, page);
    for (const p of positions) {
      if (!trade.inCloseScope(scope, p.profit)) continue;
      count += 1;
      profitMicro += money.fromNumber(p.profit);
    }
    if (page * trade.MY_DEAL_PAGE_SIZE >= total || positions.length === 0) break;
  }
  return { count, profit: money.toNumber(profitMicro) };
}
/** Pages read for the preview: 500 positions. */
const CLOSE_ALL_PREVIEW_PAGES = 25;

/** Cancels a pending order. */
export const cancelPending = async (api: Api, id: number): Promise<Position> =>
  positionView((await api.call(trade.cancelTrade, { id })).data);

/** A position's take profit, stop loss and trailing distance, as prices (empty: none). */
export interface Stops {
  takeProfit?: string;
  stopLoss?: string;
  trailDistance?: string;
}

/** Sets a position's (or a pending order's) stops; what is left out is removed. */
export const setPositionStops = async (api: Api, id: number, stops: Stops): Promise<Position> =>
  positionView(
    (
      await api.call(trade.setStopPrice, {
        id,
        target_profit_price: stops.takeProfit,
        stop_loss_price: stops.stopLoss,
        trail_distance: stops.trailDistance,
      })
    ).data,
  );

/** The free cash (USD). */
export const balance = async (api: Api): Promise<number> => (await api.call(trade.getBalance, {})).data.balance;

/** The account's figures, the margin its orders hold, and money on its way. */
export const account = async (api: Api): Promise<Account> => accountView((await api.call(trade.forexDetail, {})).data);

/** A movement of money as the trader reads it. */
export interface LedgerEntry {
  id: number;
  /** LedgerType. */
  type: number;
  /** The type's name in the trader's language. */
  typeName: string;
  /** Signed USD. */
  amount: number;
  label: string;
  balanceAfter: number;
  time: string;
  /** The order it belongs to, if any. */
  orderId: number | null;
}

/** A date range of a list, ms since the epoch: `from` inclusive, `to` exclusive. */
export interface TimeRange {
  from?: number;
  to?: number;
}

/** A page of the account log, newest first, and how many movements there are in all (in `range`, when given). */
export async function accountLog(api: Api, page = 1, range: TimeRange = {}): Promise<{ entries: LedgerEntry[]; total: number }> {
  const { data, extras } = await api.call(trade.forexChange, { page, ...range });
  const entries = data.map((e) => ({
    id: e.Id,
    type: e.Type,
    typeName: e.MemoTran,
    amount: e.Value,
    // An adjustment's words are the back office's memo; every other movement has its name.
    label: e.Type === LedgerType.AdminAdjustment ? e.Memo || e.MemoTran : e.MemoTran,
    balanceAfter: e.Balance,
    time: e.CreatedAtTran,
    orderId: e.OrderId,
  }));
  return { entries, total: extras.total ?? 0 };
}

/** Puts a demo account back to its opening balance. */
export const resetDemo = async (api: Api): Promise<void> => void (await api.call(trade.resetForexDemoAccount, {}));
