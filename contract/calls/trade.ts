/** Spec §7 "Markets and trading": orders and the account. */
import { z } from 'zod/v4';
import { EntryMode, OrderTab, Side } from '../enums';
import {
  codeField,
  DecimalField,
  IntField,
  OptionalDistanceField,
  OptionalPriceField,
  OptionalText,
  PageField,
  PositiveInt,
} from '../fields';
import { defineCall } from './define';

export const OrderSchema = z.object({
  Id: z.number().int(),
  ForexId: z.number().int(),
  /** 1 buy, otherwise sell. */
  OrderType: z.number().int(),
  /** Lots. */
  Quantity: z.number(),
  /** Fill price (the target price while pending). */
  Price: z.number(),
  /** The market price when the order was submitted. */
  OriginPrice: z.number(),
  /** The latest mark while holding; the exit price once closed. */
  UpdatePrice: z.number(),
  FactProfits: z.number(),
  CautionMoney: z.number(),
  TradeFee: z.number(),
  TargetLossPrice: z.number(),
  TargetProfitPrice: z.number(),
  /**
   * The trailing stop's distance in price units (0: none): the upstream moves TargetLossPrice to this distance
   * behind the price as it moves in the trader's favour, never back. Absent from an upstream without trailing stops.
   */
  TrailDistance: z.number().default(0),
  /** Leverage chosen at submission. */
  Multiple: z.number().int(),
  Status: z.number().int(),
  /** Set once closed: 1 user, 2 stop-out, 3 take-profit, 4 stop-loss, 5 admin. */
  CloseReason: z.number().int().nullable(),
  CreateTimeHandler: z.string(),
  CompleteTimeHandler: z.string(),
  /** The position this row was partly closed from (a closed part's own history row); null otherwise. */
  ParentId: z.number().int().nullable().default(null),
  ForexTradeLists: z.object({ ShowCode: z.string(), Code: z.string(), PricePrecision: z.number().int() }),
});
export type Order = z.infer<typeof OrderSchema>;

const SubmitOrderSchema = z.object({
  type: codeField([Side.Buy, Side.Sell]),
  /** Lots. */
  cont: DecimalField,
  forex_id: PositiveInt,
  status: codeField([EntryMode.Market, EntryMode.Pending]),
  target_price: OptionalPriceField,
  stop_loss_price: OptionalPriceField,
  target_profit_price: OptionalPriceField,
  multiple: PositiveInt,
  /** A trailing stop: its distance in price units, e.g. 0.0020 (0, empty or absent: none). See TrailDistance. */
  trail_distance: OptionalDistanceField,
  /**
   * The price the trader saw: a market order whose fill would be further from it than the instrument's
   * tolerance is refused (PriceMoved) rather than filled somewhere the trader did not agree to.
   */
  price: OptionalPriceField,
  /** One per rendered order form: a repeated submit returns the first result. */
  idempotency_key: OptionalText.refine((s) => s === undefined || s.length <= 64, { message: 'at most 64 characters' }),
});
export const submit = defineCall({
  name: 'submit',
  method: 'POST',
  path: '/v1/api/forex/submit',
  auth: 'required',
  request: SubmitOrderSchema,
  response: OrderSchema,
});

/**
 * A statement's date range, ms since the epoch: `from` inclusive, `to` exclusive; either may be absent (no bound).
 * Empty form text is the same as absent.
 */
const RangeBound = z
  .preprocess(
    (v) => (v === '' || v === null ? undefined : v),
    IntField.refine((n) => n >= 0, { message: 'must not be negative' }).optional(),
  )
  .optional();
const RangeFields = { from: RangeBound, to: RangeBound };

export const MY_DEAL_PAGE_SIZE = 20;
export const myDeal = defineCall({
  name: 'my_deal',
  method: 'GET',
  path: '/v1/api/forex/my_deal',
  auth: 'required',
  request: z.object({
    status: codeField([OrderTab.Holding, OrderTab.Pending, OrderTab.History]).default(OrderTab.Holding),
    page: PageField,
    /** Only orders in this range: the history tab by the time each closed or was cancelled, the others by creation. */
    ...RangeFields,
  }),
  response: z.array(OrderSchema),
  extras: {
    total: z.number().int(),
    /** Sum of FactProfits over every order of the tab (not only this page). */
    all_fact_profits: z.number(),
    balance: z.number(),
  },
});

const OrderIdSchema = z.object({ id: PositiveInt });
const IdempotencyKeyField = OptionalText.refine((s) => s === undefined || s.length <= 64, { message: 'at most 64 characters' });

const CloseOrderSchema = z.object({
  id: PositiveInt,
  /**
   * Lots to close (absent: all). Fewer than held closes that part: it becomes its own closed row (ParentId =
   * id, the answer) and the position keeps its id, TP and SL with the rest.
   */
  cont: DecimalField.optional(),
  /** One per rendered close form: a repeated partial close returns the first closed part. */
  idempotency_key: IdempotencyKeyField,
});
export const close = defineCall({
  name: 'close',
  method: 'POST',
  path: '/v1/api/forex/close',
  auth: 'required',
  request: CloseOrderSchema,
  response: OrderSchema,
});

export { inCloseScope, type CloseAllScope } from '../close-scopes';
import { CLOSE_ALL_SCOPES } from '../close-scopes';
const CloseAllSchema = z.object({
  scope: z.enum(CLOSE_ALL_SCOPES),
  /** Only this instrument's positions. */
  forex_id: PositiveInt.optional(),
  /** One per rendered confirmation: a repeated close-all returns the first answer. */
  idempotency_key: IdempotencyKeyField,
});
export const CloseAllResultSchema = z.object({
  closed: z.array(z.object({ id: z.number().int(), profit: z.number() })),
  failed: z.array(z.object({ id: z.number().int(), code: z.number().int(), msg: z.string() })),
  /** Sum of the closed positions' realised profit, USD. */
  profit: z.number(),
});
export const closeAll = defineCall({
  name: 'close_all',
  method: 'POST',
  path: '/v1/api/forex/close_all',
  auth: 'required',
  request: CloseAllSchema,
  response: CloseAllResultSchema,
});
export const cancelTrade = defineCall({
  name: 'cancel_trade',
  method: 'POST',
  path: '/v1/api/forex/cancel_trade',
  auth: 'required',
  request: OrderIdSchema,
  response: OrderSchema,
});
const SetStopPriceSchema = z.object({
  id: PositiveInt,
  target_profit_price: OptionalPriceField,
  stop_loss_price: OptionalPriceField,
  /**
   * A trailing stop's distance in price units (0, empty or absent: none). Like the two prices, it replaces
   * what the order had: a call without it turns trailing off.
   */
  trail_distance: OptionalDistanceField,
});
export const setStopPrice = defineCall({
  name: 'set_stop_price',
  method: 'POST',
  path: '/v1/api/forex/set_stop_price',
  auth: 'required',
  request: SetStopPriceSchema,
  response: OrderSchema,
});

const BalanceSchema = z.object({ balance: z.number() });
export const getBalance = defineCall({
  name: 'getBalance',
  method: 'GET',
  path: '/v1/api/main/wallet/getBalance',
  auth: 'required',
  request: z.object({}),
  response: BalanceSchema,
});

export const AccountDetailSchema = z.object({
  /** Free cash. */
  balance: z.number(),
  /** Margin held by open and pending orders. */
  lock_balance: z.number(),
  /** Net value: balance + lock_balance + floating profit. */
  equity: z.number(),
  /** Available: equity − used margin. */
  free_margin: z.number(),
  /** Current (used) margin. */
  margin: z.number(),
  /** Equity ÷ used margin × 100; null with no margin in use. */
  risk_rate: z.number().nullable(),
  /** Used margin ÷ equity × 100 (prepayment ratio); null when equity is not positive. */
  margin_ratio: z.number().nullable(),
  /** Total floating profit and loss of holding orders. */
  floating_profit: z.number(),
  stop_out_level: z.number(),
  /** Withdrawals requested and not yet paid or rejected (already out of the balance), USD. */
  withdraw_pending: z.number().default(0),
  /** Deposits waiting for review (not yet in the balance), USD. */
  deposit_pending: z.number().default(0),
});
export type AccountDetail = z.infer<typeof AccountDetailSchema>;
export const forexDetail = defineCall({
  name: 'forexDetail',
  method: 'GET',
  path: '/v1/api/main/account/forexDetail',
  auth: 'required',
  request: z.object({}),
  response: AccountDetailSchema,
});

const AccountLogSchema = z.object({
  Id: z.number().int(),
  Value: z.number(),
  Type: z.number().int(),
  Memo: z.string(),
  MemoTran: z.string(),
  Balance: z.number(),
  OrderId: z.number().int().nullable(),
  CreatedAtTran: z.string(),
});
export const ACCOUNT_LOG_PAGE_SIZE = 20;
export const forexChange = defineCall({
  name: 'forexChange',
  method: 'GET',
  path: '/v1/api/main/accountLog/forexChange',
  auth: 'required',
  /** Only movements in the range (by their time); `total` counts those. */
  request: z.object({ page: PageField, ...RangeFields }),
  response: z.array(AccountLogSchema),
  extras: { total: z.number().int() },
});

export const resetForexDemoAccount = defineCall({
  name: 'resetForexDemoAccount',
  method: 'GET',
  path: '/v1/api/main/user/resetForexDemoAccount',
  auth: 'required',
  request: z.object({}),
  response: BalanceSchema,
});
