/**
 * The trading engine: order submission, closing, cancelling and stops; per-tick re-marking of holding
 * positions in memory, trailing stops, take-profit, stop-loss and pending triggers, and stop-out. Every movement of money
 * goes through the Ledger inside one BEGIN IMMEDIATE transaction; memory mirrors the committed state.
 */
import {
  feeMicro,
  freeMarginMicro,
  isStopOut,
  STOP_OUT_PERCENT,
  USD_QUOTED,
  type QuoteToUsd,
  lotShare,
  lotsAllowed,
  marginMicro,
  profitMicro,
  stopsValid,
  trailDistanceRefusal,
  trailedStop,
  type AccountFigures,
} from '../../contract/arithmetic';
import { CloseReason, EntryMode, LedgerType, OrderStatus, Side, type TradeFeeType } from '../../contract/enums';
import { LOT_DECIMALS, parseUnits } from '../../contract/money';
import { AlertBook, type AlertRow } from '../alerts/book';
import { immediate, type Db } from '../db/database';
import type { Instrument, Market, TickEvent } from '../market/market';
import type { ErrorName } from '../../contract/errors';
import { BusinessError, fail } from '../shared/errors';
import { Ledger } from './ledger';
import { LevelIndex } from './level-index';

export interface OrderRow {
  id: number;
  user_id: number;
  instrument_id: number;
  side: number;
  lots: number;
  entry_mode: number;
  status: number;
  leverage: number;
  origin_price: number;
  target_price: number | null;
  open_price: number | null;
  close_price: number | null;
  take_profit: number | null;
  stop_loss: number | null;
  /** A trailing stop's distance in price units (stop_loss follows the price at it); null: none. */
  trail_distance: number | null;
  margin: number;
  fee: number;
  profit: number | null;
  close_reason: number | null;
  /** A closed part's position (partial close); null for every other row. */
  parent_id: number | null;
  idempotency_key: string | null;
  created_at: number;
  opened_at: number | null;
  completed_at: number | null;
}

/** A holding position as the engine keeps it in memory. */
interface Position {
  id: number;
  userId: number;
  instrument: Instrument;
  side: number;
  lots: number;
  openPrice: number;
  margin: number;
  takeProfit: number | null;
  stopLoss: number | null;
  /** Trailing stop distance in price units: stopLoss follows the price at it, never back; null: none. */
  trail: number | null;
  /** Floating profit, micro-USD, as of its book's `version` in `valuedAt` (worked out when read: profitOf). */
  profit: number;
  valuedAt: number;
  /** The take-profit and stop-loss levels under which the book's indexes hold it (null: not there). */
  indexed: { takeProfit: number | null; stopLoss: number | null };
}

/** A stop that fires when the price reaches its level. */
interface Trigger {
  position: Position;
  reason: CloseReason;
}

/**
 * One instrument's holding positions and pending orders, indexed by the price at which they fire (issue 41). A tick
 * sets the mark and bumps `version`; each position's profit is worked out from the mark when it is read, one
 * position at a time with decision 0004's rounding, so the figures are those of a per-position re-mark.
 */
interface InstrumentBook {
  mark: number;
  conversion: QuoteToUsd;
  /** micro-USD per (lot thousandth × price unit) at this conversion: the exact profit's slope, for the bound. */
  slope: number;
  version: number;
  /** Users holding positions here, with how many. */
  holders: Map<number, number>;
  /** Buys' take-profits and sells' stop-losses (fire at or above); buys' stop-losses and sells' take-profits. */
  rising: LevelIndex<Trigger>;
  falling: LevelIndex<Trigger>;
  /** Positions with a trailing stop: their stop moves with each tick, so it is checked there, not indexed. */
  trailing: Set<Position>;
  pendingRising: LevelIndex<PendingOrder>;
  pendingFalling: LevelIndex<PendingOrder>;
}

interface PendingOrder {
  id: number;
  userId: number;
  instrument: Instrument;
  target: number;
  /** Fires when the price rises to the target (placed below it) or falls to it (placed above it). */
  rising: boolean;
}

interface AccountState {
  balance: number;
  lock: number;
  positions: Set<Position>;
  /**
   * Per instrument: Σ sign × lots and Σ sign × lots × open price of its positions (sign 1 buy, −1 sell), so that a
   * tick bounds the account's floating profit without visiting its positions (surelyAboveStopOut).
   */
  exposure: Map<number, { lots: number; cost: number; count: number }>;
}

export interface SubmitInput {
  side: number;
  lots: string;
  instrumentId: number;
  entryMode: number;
  targetPrice: string | null;
  stopLoss: string | null;
  takeProfit: string | null;
  /** A trailing stop's distance as typed (price units, e.g. "0.0020"); null or absent: none. */
  trailDistance?: string | null;
  leverage: number;
  /** The price the trader saw (market orders): the fill may not stray further than the instrument allows. */
  seenPrice?: string | null;
  idempotencyKey?: string;
}

/** A close-all: one transaction per position; what closed (with its realised profit) and what was refused. */
export interface CloseAllOutcome {
  closed: { id: number; profit: number }[];
  failed: { id: number; error: ErrorName }[];
}

export interface ClosedEvent {
  userId: number;
  orderIds: number[];
  reason: CloseReason;
}

/** A group commit writes at most this many orders (issue 41): a bigger group would hold the event loop longer. */
export const GROUP_COMMIT_MAX_ORDERS = 64;

interface WaitingOrder {
  userId: number;
  input: SubmitInput;
  resolve: (row: OrderRow) => void;
  reject: (err: unknown) => void;
}

export interface EngineOptions {
  tradeFeeType: () => TradeFeeType | number;
  clock: () => number;
}

export class TradingEngine {
  readonly ledger: Ledger;
  /** Price alerts, checked with the other triggers at each tick. */
  readonly alerts: AlertBook;
  private readonly positions = new Map<number, Position>();
  private readonly pending = new Map<number, PendingOrder>();
  private readonly books = new Map<number, InstrumentBook>();
  private readonly accounts = new Map<number, AccountState>();
  /** Positions whose trailing stop moved during the current tick: written once the tick's pass is over. */
  private readonly trailed = new Set<Position>();
  private closedListeners: ((e: ClosedEvent) => void)[] = [];
  private alertListeners: ((alert: AlertRow) => void)[] = [];
  private readonly stmt;
  /** Orders waiting for the next group commit, and the turn of the event loop that will commit them. */
  private waiting: WaitingOrder[] = [];
  private flushScheduled: NodeJS.Immediate | null = null;
  /** writeOrder inside a SAVEPOINT (better-sqlite3 nests a transaction function as one). */
  private readonly writeOrderSavepoint: (userId: number, input: SubmitInput) => { row: OrderRow; fresh: boolean };

  constructor(
    private readonly db: Db,
    private readonly market: Market,
    private readonly options: EngineOptions,
  ) {
    this.ledger = new Ledger(db, options.clock);
    this.alerts = new AlertBook(db, market, options.clock);
    this.stmt = {
      order: db.prepare('SELECT * FROM orders WHERE id = ?'),
      byKey: db.prepare('SELECT * FROM orders WHERE user_id = ? AND idempotency_key = ?'),
      partsLots: db.prepare('SELECT COALESCE(SUM(lots), 0) FROM orders WHERE parent_id = ?').pluck(),
      insert: db.prepare(
        `INSERT INTO orders (user_id, instrument_id, side, lots, entry_mode, status, leverage, origin_price, target_price,
           open_price, take_profit, stop_loss, trail_distance, margin, fee, idempotency_key, created_at, opened_at)
         VALUES (@user_id, @instrument_id, @side, @lots, @entry_mode, @status, @leverage, @origin_price, @target_price,
           @open_price, @take_profit, @stop_loss, @trail_distance, @margin, @fee, @idempotency_key, @created_at, @opened_at)`,
      ),
      fill: db.prepare('UPDATE orders SET status = 1, open_price = ?, opened_at = ? WHERE id = ? AND status = 0'),
      finish: db.prepare(
        `UPDATE orders SET status = ?, close_price = ?, profit = ?, close_reason = ?, completed_at = ?
         WHERE id = ? AND status IN (0, 1)`,
      ),
      stops: db.prepare('UPDATE orders SET take_profit = ?, stop_loss = ?, trail_distance = ? WHERE id = ?'),
      trailedStop: db.prepare(`UPDATE orders SET stop_loss = ? WHERE id = ? AND status = ${OrderStatus.Holding}`),
      insertPart: db.prepare(
        `INSERT INTO orders (user_id, instrument_id, side, lots, entry_mode, status, leverage, origin_price, target_price,
           open_price, close_price, take_profit, stop_loss, trail_distance, margin, fee, profit, close_reason, parent_id,
           idempotency_key, created_at, opened_at, completed_at)
         SELECT user_id, instrument_id, side, @lots, entry_mode, ${OrderStatus.Closed}, leverage, origin_price, target_price,
           open_price, @close_price, take_profit, stop_loss, trail_distance, @margin, @fee, @profit, @close_reason, id, @idempotency_key,
           created_at, opened_at, @completed_at
         FROM orders WHERE id = @id AND status = ${OrderStatus.Holding}`,
      ),
      shrink: db.prepare('UPDATE orders SET lots = lots - ?, margin = margin - ?, fee = fee - ? WHERE id = ? AND status = 1'),
      open: db.prepare('SELECT * FROM orders WHERE status IN (0, 1) ORDER BY id'),
      openOfUser: db.prepare('SELECT * FROM orders WHERE user_id = ? AND status IN (0, 1) ORDER BY id'),
    };
    this.writeOrderSavepoint = db.transaction((userId: number, input: SubmitInput) => this.writeOrder(userId, input));
    market.onTick((e) => this.onTick(e));
    this.load();
  }

  /** Rebuilds memory from the database (at start, and after a restart). */
  load(): void {
    this.positions.clear();
    this.pending.clear();
    this.books.clear();
    this.accounts.clear();
    for (const row of this.stmt.open.all() as OrderRow[]) this.remember(row);
    this.alerts.load();
  }

  onClosed(listener: (e: ClosedEvent) => void): () => void {
    this.closedListeners.push(listener);
    return () => (this.closedListeners = this.closedListeners.filter((l) => l !== listener));
  }

  /** Each price alert that fires, once, after its transaction. */
  onAlert(listener: (alert: AlertRow) => void): () => void {
    this.alertListeners.push(listener);
    return () => (this.alertListeners = this.alertListeners.filter((l) => l !== listener));
  }

  // ---- reads ---------------------------------------------------------------------------------------

  order(id: number): OrderRow | undefined {
    return this.stmt.order.get(id) as OrderRow | undefined;
  }

  /** Live floating profit and mark of a holding order, if it is one. */
  live(orderId: number): { profit: number; mark: number } | undefined {
    const p = this.positions.get(orderId);
    return p && { profit: this.profitOf(p), mark: this.books.get(p.instrument.id)!.mark };
  }

  figures(userId: number): AccountFigures {
    const s = this.accounts.get(userId);
    if (s) return { balance: s.balance, lockBalance: s.lock, floatingProfit: this.floatingOf(s) };
    // No open or pending orders: nothing floats, and the database has the rest.
    const row = this.ledger.account(userId);
    return { balance: row.balance, lockBalance: row.lock_balance, floatingProfit: 0 };
  }

  holdingOf(userId: number): { id: number; profit: number; mark: number; instrument: Instrument }[] {
    const s = this.accounts.get(userId);
    if (!s) return [];
    return [...s.positions].map((p) => ({
      id: p.id,
      profit: this.profitOf(p),
      mark: this.books.get(p.instrument.id)!.mark,
      instrument: p.instrument,
    }));
  }

  /** Users that hold positions or pending orders now (for the account push). */
  activeUsers(): number[] {
    return [...this.accounts.keys()];
  }

  // ---- commands ------------------------------------------------------------------------------------

  /**
   * One order in its own transaction, answered at once (tests, the bench's fixtures, the back office). The HTTP
   * route uses submitGrouped, which shares the commit with the orders arriving at the same time.
   */
  submit(userId: number, input: SubmitInput): OrderRow {
    const [outcome] = this.commitOrders([{ userId, input }]);
    if (outcome instanceof Error) throw outcome;
    return outcome!;
  }

  /**
   * Group commit (issue 41, decision 0042): the order joins the orders that arrive with it; they are written in one
   * BEGIN IMMEDIATE transaction at the end of this turn of the event loop, or at once when GROUP_COMMIT_MAX_ORDERS
   * wait. The promise settles only after that COMMIT (synchronous=FULL: on disk), so no answer precedes durability.
   */
  submitGrouped(userId: number, input: SubmitInput): Promise<OrderRow> {
    return new Promise((resolve, reject) => {
      this.waiting.push({ userId, input, resolve, reject });
      if (this.waiting.length >= GROUP_COMMIT_MAX_ORDERS) this.flushOrders();
      else this.flushScheduled ??= setImmediate(() => this.flushOrders());
    });
  }

  /** Commits the waiting orders now (the group's turn, a full group, or the upstream stopping). */
  flushOrders(): void {
    if (this.flushScheduled) clearImmediate(this.flushScheduled);
    this.flushScheduled = null;
    const group = this.waiting;
    if (group.length === 0) return;
    this.waiting = [];
    let outcomes: (OrderRow | Error)[];
    try {
      outcomes = this.commitOrders(group);
    } catch (err) {
      // The commit itself failed (a disk error): nothing of the group is durable, every order is refused.
      for (const w of group) w.reject(err);
      return;
    }
    group.forEach((w, i) => {
      const outcome = outcomes[i]!;
      if (outcome instanceof Error) w.reject(outcome);
      else w.resolve(outcome);
    });
  }

  /**
   * Writes orders in one transaction, each inside its own SAVEPOINT, so that a refused order (or one that fails
   * for any reason of its own) rolls back only itself. Memory follows once the COMMIT has returned. Throws
   * only when the transaction as a whole failed; then nothing was written and memory is unchanged.
   */
  private commitOrders(group: readonly { userId: number; input: SubmitInput }[]): (OrderRow | Error)[] {
    const outcomes: ({ row: OrderRow; fresh: boolean } | Error)[] = [];
    immediate(this.db, () => {
      for (const { userId, input } of group) {
        try {
          outcomes.push(this.writeOrderSavepoint(userId, input));
        } catch (err) {
          // SQLite ended the whole transaction (I/O, full disk): no order of the group may be kept.
          if (!this.db.inTransaction) throw err;
          outcomes.push(err instanceof Error ? err : new Error(String(err)));
        }
      }
    });
    const users = new Set<number>();
    for (const o of outcomes) if (!(o instanceof Error) && o.fresh) users.add(o.row.user_id);
    for (const userId of users) this.refreshAccount(userId);
    for (const o of outcomes) if (!(o instanceof Error) && o.fresh) this.remember(o.row);
    return outcomes.map((o) => (o instanceof Error ? o : o.row));
  }

  /**
   * One order's checks and writes, in the current transaction. A repeated idempotency key answers the first
   * order (fresh: false), also when that order is earlier in the same group and not yet committed: the same
   * connection sees it.
   */
  private writeOrder(userId: number, input: SubmitInput): { row: OrderRow; fresh: boolean } {
    if (input.idempotencyKey) {
      const first = this.stmt.byKey.get(userId, input.idempotencyKey) as OrderRow | undefined;
      if (first) return this.sameOrder(first, input) ? { row: first, fresh: false } : fail('IdempotencyKeyReused');
    }
    const inst = this.market.get(input.instrumentId) ?? fail('InstrumentNotFound');
    if (inst.leverages.length === 0) fail('LeverageNotConfigured');
    if (!inst.leverages.includes(input.leverage)) fail('LeverageNotAllowed');
    if (!this.market.isOpen(inst.id)) fail('MarketClosed');
    const lots = parseUnits(input.lots, LOT_DECIMALS);
    if (lots === null || !lotsAllowed(lots, inst.minLots, inst.lotStep)) fail('LotsInvalid');
    const current = this.market.price(inst.id);
    const target = this.parsePrice(inst, input.targetPrice);
    const takeProfit = this.parsePrice(inst, input.takeProfit);
    const stopLoss = this.parsePrice(inst, input.stopLoss);
    const pending = input.entryMode === EntryMode.Pending;
    const seen = pending ? null : this.parsePrice(inst, input.seenPrice ?? null);
    // |current − seen| / seen > tolerance, in integers: basis points of the seen price.
    if (seen !== null && Math.abs(current - seen) * 10_000 > seen * inst.maxDeviationBp) fail('PriceMoved');
    if (pending && target === null) fail('TargetPriceRequired');
    if (pending && target === current) fail('TargetPriceAtMarket');
    const reference = pending ? target! : current;
    const valid = stopsValid(input.side, reference, takeProfit, stopLoss);
    if (!valid.takeProfit) fail('TakeProfitInvalid');
    if (!valid.stopLoss) fail('StopLossInvalid');
    const trail = this.parseTrail(inst, input.trailDistance ?? null, reference);
    // A market order's trailing stop starts at once, from the fill price; a pending one's when it fills.
    const stopLossSet = trail !== null && !pending ? trailedStop(input.side, stopLoss, current, trail) : stopLoss;

    const margin = marginMicro(inst.terms, lots, reference, input.leverage, this.market.conversion(inst));
    const fee = feeMicro(inst.terms, this.options.tradeFeeType(), lots, margin);
    const now = this.options.clock();
    const acct = this.ledger.account(userId);
    // Positions opened earlier in this group are not in memory yet; they float 0 (filled at this same price).
    const state = this.accounts.get(userId);
    const floatingProfit = state ? this.floatingOf(state) : 0;
    // Free margin may exceed the cash when positions float in profit; margin is paid from cash.
    const free = Math.min(acct.balance, freeMarginMicro({ balance: acct.balance, lockBalance: acct.lock_balance, floatingProfit }));
    if (margin + fee > free) fail('InsufficientMargin');
    const info = this.stmt.insert.run({
      user_id: userId,
      instrument_id: inst.id,
      side: input.side,
      lots,
      entry_mode: pending ? EntryMode.Pending : EntryMode.Market,
      status: pending ? OrderStatus.Pending : OrderStatus.Holding,
      leverage: input.leverage,
      origin_price: current,
      target_price: pending ? target : null,
      open_price: pending ? null : current,
      take_profit: takeProfit,
      stop_loss: stopLossSet,
      trail_distance: trail,
      margin,
      fee,
      idempotency_key: input.idempotencyKey ?? null,
      created_at: now,
      opened_at: pending ? null : now,
    });
    const orderId = Number(info.lastInsertRowid);
    this.ledger.post(
      userId,
      [
        { value: -margin, type: LedgerType.MarginHeld, orderId },
        { value: -fee, type: LedgerType.TradeFee, orderId },
      ],
      margin,
    );
    return { row: this.order(orderId)!, fresh: true };
  }

  /**
   * Closes a holding position, or `lotsText` lots of it. Fewer lots than held close that part as its own
   * closed row (parent_id = the position); the position keeps its id, TP and SL with the rest. Returns the
   * closed row: the position itself when all of it closed, else the part. A repeated key returns the first part.
   */
  close(userId: number, orderId: number, lotsText?: string | null, idempotencyKey?: string): OrderRow {
    if (idempotencyKey) {
      const first = this.stmt.byKey.get(userId, idempotencyKey) as OrderRow | undefined;
      if (first) return first.parent_id === orderId ? first : fail('IdempotencyKeyReused');
    }
    const row = this.ownOrder(userId, orderId);
    if (row.status !== OrderStatus.Holding) fail(row.status === OrderStatus.Pending ? 'OrderNotHolding' : 'OrderFinished');
    const position = this.positions.get(orderId)!;
    const lots = lotsText == null ? row.lots : this.closingLots(position, lotsText);
    if (!this.market.isOpen(row.instrument_id)) fail('MarketClosed');
    const price = this.market.price(row.instrument_id);
    if (lots === row.lots) {
      immediate(this.db, () => this.settle(position, price, CloseReason.User));
      this.afterClose([position], CloseReason.User);
      return this.order(orderId)!;
    }
    const { partId, margin } = immediate(this.db, () => this.settlePart(position, lots, price, idempotencyKey ?? null));
    this.shrinkPosition(position, lots, margin);
    this.refreshAccount(userId);
    this.stopOutIfNeeded(userId);
    return this.order(partId)!;
  }

  /**
   * Closes every holding position of the user in `scope` (by floating profit at the moment of asking), each in
   * its own transaction, so that one refusal (a closed market) does not undo the others.
   */
  closeAll(userId: number, inScope: (profit: number, instrumentId: number) => boolean): CloseAllOutcome {
    const outcome: CloseAllOutcome = { closed: [], failed: [] };
    const chosen = this.holdingOf(userId)
      .filter((p) => inScope(p.profit, p.instrument.id))
      .sort((a, b) => a.id - b.id);
    for (const { id } of chosen) {
      try {
        const row = this.close(userId, id);
        outcome.closed.push({ id, profit: row.profit ?? 0 });
      } catch (err) {
        if (!(err instanceof BusinessError)) throw err;
        outcome.failed.push({ id, error: err.errorName });
      }
    }
    return outcome;
  }

  cancel(userId: number, orderId: number): OrderRow {
    const row = this.ownOrder(userId, orderId);
    if (row.status !== OrderStatus.Pending) fail(row.status === OrderStatus.Holding ? 'OrderNotPending' : 'OrderFinished');
    immediate(this.db, () => this.cancelRow(row));
    this.forgetPending(row.instrument_id, orderId);
    this.refreshAccount(userId);
    // A pending order shown on another device of the user leaves its list too.
    for (const l of this.closedListeners) l({ userId, orderIds: [orderId], reason: CloseReason.User });
    return this.order(orderId)!;
  }

  /**
   * Sets (or, given null, removes) take-profit, stop-loss and the trailing stop's distance, all three at once. A
   * holding position's trailing stop starts at once from the current price.
   */
  setStops(
    userId: number,
    orderId: number,
    takeProfitText: string | null,
    stopLossText: string | null,
    trailText: string | null = null,
  ): OrderRow {
    const row = this.ownOrder(userId, orderId);
    if (row.status !== OrderStatus.Holding && row.status !== OrderStatus.Pending) fail('OrderFinished');
    const inst = this.market.get(row.instrument_id)!;
    const takeProfit = this.parsePrice(inst, takeProfitText);
    const stopLoss = this.parsePrice(inst, stopLossText);
    const reference = row.status === OrderStatus.Pending ? row.target_price! : this.market.price(inst.id);
    const valid = stopsValid(row.side, reference, takeProfit, stopLoss);
    if (!valid.takeProfit) fail('TakeProfitInvalid');
    if (!valid.stopLoss) fail('StopLossInvalid');
    const trail = this.parseTrail(inst, trailText, reference);
    const holding = row.status === OrderStatus.Holding;
    const stopLossSet = trail !== null && holding ? trailedStop(row.side, stopLoss, reference, trail) : stopLoss;
    this.stmt.stops.run(takeProfit, stopLossSet, trail, orderId);
    const position = this.positions.get(orderId);
    if (position) {
      const book = this.books.get(inst.id)!;
      this.unindex(book, position);
      position.takeProfit = takeProfit;
      position.stopLoss = stopLossSet;
      position.trail = trail;
      this.index(book, position);
    }
    return this.order(orderId)!;
  }

  /** Demo reset: closes positions at the current price, cancels pending orders, restores the balance. */
  resetDemo(userId: number, startingBalance: number): void {
    const open = this.stmt.openOfUser.all(userId) as OrderRow[];
    const closed: Position[] = [];
    immediate(this.db, () => {
      for (const row of open) {
        if (row.status === OrderStatus.Pending) this.cancelRow(row);
        else {
          const p = this.positions.get(row.id)!;
          this.settle(p, this.market.price(row.instrument_id), CloseReason.Admin);
          closed.push(p);
        }
      }
      const acct = this.ledger.account(userId);
      this.ledger.post(userId, [{ value: startingBalance - acct.balance, type: LedgerType.DemoReset }]);
    });
    const cancelled = open.filter((row) => row.status === OrderStatus.Pending).map((row) => row.id);
    for (const row of open) if (row.status === OrderStatus.Pending) this.forgetPending(row.instrument_id, row.id);
    this.afterClose(closed, CloseReason.Admin);
    this.refreshAccount(userId);
    // Pending orders shown on the user's other devices leave their lists too.
    if (cancelled.length > 0) for (const l of this.closedListeners) l({ userId, orderIds: cancelled, reason: CloseReason.Admin });
  }

  /** An admin's balance adjustment with a memo (ledger type 10). */
  adjustBalance(userId: number, value: number, memo: string): void {
    immediate(this.db, () => {
      if (this.ledger.account(userId).balance + value < 0) fail('InsufficientBalance');
      this.ledger.post(userId, [{ value, type: LedgerType.AdminAdjustment, memo }]);
    });
    this.refreshAccount(userId);
    this.stopOutIfNeeded(userId);
  }

  /** What may leave the account now: free cash, never more than the free margin (open positions keep their cover). */
  available(userId: number): number {
    const f = this.figures(userId);
    return Math.max(0, Math.min(f.balance, freeMarginMicro(f)));
  }

  /**
   * A movement of money that is not trading (a deposit credited, a withdrawal held or given back): `fn`
   * posts it through the ledger in one transaction, seeing the funds available at that moment; memory follows.
   */
  moveFunds<T>(userId: number, fn: (ledger: Ledger, available: number) => T): T {
    const result = immediate(this.db, () => fn(this.ledger, this.available(userId)));
    this.refreshAccount(userId);
    this.stopOutIfNeeded(userId);
    return result;
  }

  // ---- ticks ---------------------------------------------------------------------------------------

  private onTick(e: TickEvent): void {
    const hits = new Map<Position, CloseReason>();
    const moved = [this.mark(e.instrument, e.price, hits)];
    for (const dep of this.market.dependents(e.instrument.id)) moved.push(this.mark(dep, this.market.price(dep.id), hits));
    const filled = this.fillPending(e.instrument, e.price, hits);
    this.saveTrailedStops();
    if (hits.size > 0) {
      // In the order the positions were opened: a write-off depends on the order of an account's closes.
      const due = [...hits].sort(([a], [b]) => a.id - b.id);
      immediate(this.db, () => {
        for (const [p, reason] of due) this.settle(p, this.books.get(p.instrument.id)!.mark, reason);
      });
      for (const reason of [CloseReason.TakeProfit, CloseReason.StopLoss]) {
        this.afterClose(
          due.filter(([, r]) => r === reason).map(([p]) => p),
          reason,
        );
      }
    }
    // Stop-out, per account whose instruments moved; a bound settles most of them without visiting positions.
    for (const book of moved) for (const userId of book.holders.keys()) this.stopOutIfNeeded(userId, true);
    // An account whose stop closed its last position on this book is no longer its holder, yet the close realised
    // this tick's loss; and a fill takes margin.
    for (const userId of new Set([...filled, ...[...hits.keys()].map((p) => p.userId)])) this.stopOutIfNeeded(userId);
    this.fireAlerts(e.instrument, e.price);
  }

  /** Price alerts this tick reached: marked triggered (one transaction, in the book), then announced. */
  private fireAlerts(inst: Instrument, price: number): void {
    for (const alert of this.alerts.reached(inst, price)) for (const l of this.alertListeners) l(alert);
  }

  /**
   * Marks one instrument at `price`: its positions' profits follow when read (profitOf); the stops the price reached
   * come from the indexes, trailing stops move and are checked here. Take-profit wins over stop-loss.
   */
  private mark(inst: Instrument, price: number, hits: Map<Position, CloseReason>): InstrumentBook {
    const book = this.book(inst);
    this.setMark(book, inst, price);
    const hit = (p: Position, reason: CloseReason) => {
      if (reason === CloseReason.TakeProfit || !hits.has(p)) hits.set(p, reason);
    };
    for (const t of book.rising.reached(price)) hit(t.position, t.reason);
    for (const t of book.falling.reached(price)) hit(t.position, t.reason);
    for (const p of book.trailing) {
      this.trail(p, price);
      const reason = this.stopHit(p, price);
      if (reason) hit(p, reason);
    }
    return book;
  }

  private setMark(book: InstrumentBook, inst: Instrument, price: number): void {
    book.mark = price;
    book.conversion = this.market.conversion(inst);
    // profitMicro's factors and divisors as a real number (MONEY_SCALE / LOT_SCALE = 1000).
    book.slope = (inst.terms.contractSize * 1000 * book.conversion.num) / (10 ** inst.terms.precision * book.conversion.den);
    book.version++;
  }

  /** The instrument's book, made on first use at the instrument's current price. */
  private book(inst: Instrument): InstrumentBook {
    let book = this.books.get(inst.id);
    if (!book) {
      book = {
        mark: 0,
        conversion: USD_QUOTED,
        slope: 0,
        version: 0,
        holders: new Map(),
        rising: new LevelIndex(true),
        falling: new LevelIndex(false),
        trailing: new Set(),
        pendingRising: new LevelIndex(true),
        pendingFalling: new LevelIndex(false),
      };
      this.setMark(book, inst, this.market.price(inst.id));
      this.books.set(inst.id, book);
    }
    return book;
  }

  /** A position's floating profit at its book's mark: decision 0004's per-position figure, worked out once per mark. */
  private profitOf(p: Position): number {
    const book = this.books.get(p.instrument.id)!;
    if (p.valuedAt !== book.version) {
      p.profit = profitMicro(p.instrument.terms, p.side, p.lots, p.openPrice, book.mark, book.conversion);
      p.valuedAt = book.version;
    }
    return p.profit;
  }

  /** The account's floating profit: the sum of its positions' own rounded figures. */
  private floatingOf(s: AccountState): number {
    let sum = 0;
    for (const p of s.positions) sum += this.profitOf(p);
    return sum;
  }

  /**
   * True when the account is certainly above the stop-out level, judged from its exposure without visiting its
   * positions: the exact floating profit is within (positions × ½ µUSD of rounding) of Σ slope × (lots × mark − cost),
   * plus a wide margin for the floating-point sum. False means "look closely" (the exact figures decide).
   */
  private surelyAboveStopOut(s: AccountState): boolean {
    if (s.lock <= 0) return true;
    let floating = 0;
    let doubt = 1;
    for (const [instrumentId, e] of s.exposure) {
      if (!Number.isSafeInteger(e.cost)) return false;
      const book = this.books.get(instrumentId)!;
      const value = (e.lots * book.mark - e.cost) * book.slope;
      floating += value;
      doubt += e.count / 2 + 1e-9 * (Math.abs(e.lots * book.mark) + Math.abs(e.cost)) * book.slope;
    }
    // isStopOut: (balance + lock + floating) × 100 ≤ 50 × lock.
    return (s.balance + s.lock + floating - doubt) * 100 > STOP_OUT_PERCENT * s.lock;
  }

  /**
   * A trailing stop follows `price` in the trader's favour, never back (contract's trailedStop), in memory at
   * once; a stop that moved is written when the tick's pass is over (saveTrailedStops), a still one never.
   */
  private trail(p: Position, price: number): void {
    if (p.trail === null) return;
    const stop = trailedStop(p.side, p.stopLoss, price, p.trail);
    if (stop === p.stopLoss) return;
    p.stopLoss = stop;
    this.trailed.add(p);
  }

  /** Writes the stops that trailed in this tick, in one transaction, so that a restart keeps them. */
  private saveTrailedStops(): void {
    if (this.trailed.size === 0) return;
    const moved = [...this.trailed];
    this.trailed.clear();
    immediate(this.db, () => {
      for (const p of moved) this.stmt.trailedStop.run(p.stopLoss, p.id);
    });
  }

  private stopHit(p: Position, price: number): CloseReason | null {
    const buy = p.side === Side.Buy;
    if (p.takeProfit !== null && (buy ? price >= p.takeProfit : price <= p.takeProfit)) return CloseReason.TakeProfit;
    if (p.stopLoss !== null && (buy ? price <= p.stopLoss : price >= p.stopLoss)) return CloseReason.StopLoss;
    return null;
  }

  /** Fills pending orders whose target this tick reached, at the tick's price; returns their users. */
  private fillPending(inst: Instrument, price: number, hits: Map<Position, CloseReason>): Set<number> {
    const users = new Set<number>();
    const book = this.books.get(inst.id);
    if (!book || book.pendingRising.size + book.pendingFalling.size === 0) return users;
    const due = [...book.pendingRising.reached(price), ...book.pendingFalling.reached(price)].sort((a, b) => a.id - b.id);
    if (due.length === 0) return users;
    const now = this.options.clock();
    immediate(this.db, () => {
      for (const o of due) this.stmt.fill.run(price, now, o.id);
    });
    for (const o of due) {
      this.forgetPending(inst.id, o.id);
      const row = this.order(o.id)!;
      const p = this.remember(row)!;
      users.add(o.userId);
      this.trail(p, price);
      // A gap may carry the fill price past its own take-profit or stop-loss.
      const hit = this.stopHit(p, price);
      if (hit && (hit === CloseReason.TakeProfit || !hits.has(p))) hits.set(p, hit);
    }
    return users;
  }

  /**
   * Stop-out: while equity ÷ used margin is at or below 50 %, close the position with the largest loss.
   */
  private stopOutIfNeeded(userId: number, boundFirst = false): void {
    const acct = this.accounts.get(userId);
    if (!acct || (boundFirst && this.surelyAboveStopOut(acct))) return;
    const closed: Position[] = [];
    while (acct.positions.size > 0 && isStopOut(this.figures(userId))) {
      let worst: Position | null = null;
      for (const p of acct.positions) if (!worst || this.profitOf(p) < this.profitOf(worst)) worst = p;
      immediate(this.db, () => this.settle(worst!, this.books.get(worst!.instrument.id)!.mark, CloseReason.StopOut));
      this.forgetPosition(worst!);
      this.refreshAccount(userId);
      closed.push(worst!);
    }
    if (closed.length > 0) this.emitClosed(closed, CloseReason.StopOut);
  }

  // ---- internals -----------------------------------------------------------------------------------

  /** The lots of a partial close, checked: the instrument's steps, at least its minimum, at most what is held. */
  private closingLots(p: Position, text: string): number {
    const lots = parseUnits(text, LOT_DECIMALS);
    const { minLots, lotStep } = p.instrument;
    if (lots === null || !lotsAllowed(lots, minLots, lotStep)) fail('LotsInvalid');
    if (lots > p.lots) fail('CloseLotsAboveHeld');
    // What stays open must itself be a position the instrument allows.
    if (lots < p.lots && p.lots - lots < minLots) fail('LotsInvalid');
    return lots;
  }

  /**
   * Closes `lots` of a holding position at `price` in the current transaction: the part becomes a closed row
   * with its share of margin and fee (the fee was paid at submission: it moves with the lots, no money moves),
   * its margin share is released and its profit realised; the position keeps the rest (in memory: shrinkPosition).
   */
  private settlePart(p: Position, lots: number, price: number, idempotencyKey: string | null): { partId: number; margin: number } {
    const row = this.order(p.id)!;
    const margin = lotShare(p.margin, lots, p.lots);
    const fee = lotShare(row.fee, lots, p.lots);
    const profit = profitMicro(p.instrument.terms, p.side, lots, p.openPrice, price, this.market.conversion(p.instrument));
    const info = this.stmt.insertPart.run({
      id: p.id,
      lots,
      close_price: price,
      margin,
      fee,
      profit,
      close_reason: CloseReason.User,
      idempotency_key: idempotencyKey,
      completed_at: this.options.clock(),
    });
    if (info.changes !== 1) throw new Error(`order ${p.id} was not holding`);
    const partId = Number(info.lastInsertRowid);
    this.postRelease(p.userId, partId, margin, profit);
    if (this.stmt.shrink.run(lots, margin, fee, p.id).changes !== 1) throw new Error(`order ${p.id} was not holding`);
    return { partId, margin };
  }

  /** Memory follows a committed partial close: fewer lots and less margin, re-marked at the last price. */
  private shrinkPosition(p: Position, lots: number, margin: number): void {
    const acct = this.accounts.get(p.userId)!;
    this.expose(acct, p, -1);
    p.lots -= lots;
    p.margin -= margin;
    p.valuedAt = -1;
    this.expose(acct, p, 1);
  }

  /** Margin back and profit realised for a closed order (or part) in the current transaction; no negative balance. */
  private postRelease(userId: number, orderId: number, margin: number, profit: number): void {
    const end = this.ledger.account(userId).balance + margin + profit;
    this.ledger.post(
      userId,
      [
        { value: margin, type: LedgerType.MarginReleased, orderId },
        { value: profit, type: LedgerType.RealisedProfit, orderId },
        // No negative balance: a loss beyond the account's funds is written off.
        ...(end < 0 ? [{ value: -end, type: LedgerType.NegativeBalanceProtection, orderId }] : []),
      ],
      -margin,
    );
  }

  /** Closes a holding position at `price` in the current transaction: margin back, profit, protection. */
  private settle(p: Position, price: number, reason: CloseReason): void {
    const profit = profitMicro(p.instrument.terms, p.side, p.lots, p.openPrice, price, this.market.conversion(p.instrument));
    this.postRelease(p.userId, p.id, p.margin, profit);
    const changed = this.stmt.finish.run(OrderStatus.Closed, price, profit, reason, this.options.clock(), p.id);
    if (changed.changes !== 1) throw new Error(`order ${p.id} was not open`);
  }

  private cancelRow(row: OrderRow): void {
    this.ledger.post(
      row.user_id,
      [
        { value: row.margin, type: LedgerType.MarginReleased, orderId: row.id },
        { value: row.fee, type: LedgerType.TradeFeeRefund, orderId: row.id },
      ],
      -row.margin,
    );
    const changed = this.stmt.finish.run(OrderStatus.Cancelled, null, 0, null, this.options.clock(), row.id);
    if (changed.changes !== 1) throw new Error(`order ${row.id} was not pending`);
  }

  private afterClose(positions: Position[], reason: CloseReason) {
    if (positions.length === 0) return;
    const users = new Set<number>();
    for (const p of positions) {
      this.forgetPosition(p);
      users.add(p.userId);
    }
    for (const u of users) this.refreshAccount(u);
    this.emitClosed(positions, reason);
  }

  private emitClosed(positions: Position[], reason: CloseReason) {
    const byUser = new Map<number, number[]>();
    for (const p of positions) byUser.set(p.userId, [...(byUser.get(p.userId) ?? []), p.id]);
    for (const [userId, orderIds] of byUser) for (const l of this.closedListeners) l({ userId, orderIds, reason });
  }

  private remember(row: OrderRow): Position | null {
    const inst = this.market.get(row.instrument_id);
    if (!inst) throw new Error(`order ${row.id}: unknown instrument ${row.instrument_id}`);
    const acct = this.account(row.user_id);
    const book = this.book(inst);
    // Marked at the current price, as every position of the instrument (a tick normally set it already).
    const price = this.market.price(inst.id);
    const conversion = this.market.conversion(inst);
    if (book.mark !== price || book.conversion.num !== conversion.num || book.conversion.den !== conversion.den)
      this.setMark(book, inst, price);
    if (row.status === OrderStatus.Pending) {
      const o: PendingOrder = {
        id: row.id,
        userId: row.user_id,
        instrument: inst,
        target: row.target_price!,
        rising: row.target_price! > row.origin_price,
      };
      this.pending.set(o.id, o);
      (o.rising ? book.pendingRising : book.pendingFalling).add(o.target, o.id, o);
      return null;
    }
    if (row.status !== OrderStatus.Holding) return null;
    const p: Position = {
      id: row.id,
      userId: row.user_id,
      instrument: inst,
      side: row.side,
      lots: row.lots,
      openPrice: row.open_price!,
      margin: row.margin,
      takeProfit: row.take_profit,
      stopLoss: row.stop_loss,
      trail: row.trail_distance,
      profit: 0,
      valuedAt: -1,
      indexed: { takeProfit: null, stopLoss: null },
    };
    this.positions.set(p.id, p);
    this.index(book, p);
    book.holders.set(p.userId, (book.holders.get(p.userId) ?? 0) + 1);
    acct.positions.add(p);
    this.expose(acct, p, 1);
    return p;
  }

  /** Puts a position's take-profit and stop-loss in its book's indexes (a trailing stop in `trailing`). */
  private index(book: InstrumentBook, p: Position): void {
    const buy = p.side === Side.Buy;
    if (p.takeProfit !== null) {
      (buy ? book.rising : book.falling).add(p.takeProfit, p.id, { position: p, reason: CloseReason.TakeProfit });
      p.indexed.takeProfit = p.takeProfit;
    }
    if (p.trail !== null) book.trailing.add(p);
    else if (p.stopLoss !== null) {
      (buy ? book.falling : book.rising).add(p.stopLoss, p.id, { position: p, reason: CloseReason.StopLoss });
      p.indexed.stopLoss = p.stopLoss;
    }
  }

  private unindex(book: InstrumentBook, p: Position): void {
    const buy = p.side === Side.Buy;
    if (p.indexed.takeProfit !== null) (buy ? book.rising : book.falling).remove(p.indexed.takeProfit, p.id);
    if (p.indexed.stopLoss !== null) (buy ? book.falling : book.rising).remove(p.indexed.stopLoss, p.id);
    p.indexed = { takeProfit: null, stopLoss: null };
    book.trailing.delete(p);
  }

  /** Adds (direction 1) or takes away (−1) a position's lots and cost in its account's exposure. */
  private expose(acct: AccountState, p: Position, direction: 1 | -1): void {
    const sign = (p.side === Side.Buy ? 1 : -1) * direction;
    const e = acct.exposure.get(p.instrument.id) ?? { lots: 0, cost: 0, count: 0 };
    e.lots += sign * p.lots;
    e.cost += sign * p.lots * p.openPrice;
    e.count += direction;
    if (e.count === 0) acct.exposure.delete(p.instrument.id);
    else acct.exposure.set(p.instrument.id, e);
  }

  private forgetPosition(p: Position) {
    if (!this.positions.delete(p.id)) return;
    const book = this.books.get(p.instrument.id)!;
    this.unindex(book, p);
    const held = (book.holders.get(p.userId) ?? 1) - 1;
    if (held === 0) book.holders.delete(p.userId);
    else book.holders.set(p.userId, held);
    const acct = this.accounts.get(p.userId);
    if (acct) {
      acct.positions.delete(p);
      this.expose(acct, p, -1);
    }
  }

  private forgetPending(instrumentId: number, orderId: number) {
    const o = this.pending.get(orderId);
    if (!o) return;
    this.pending.delete(orderId);
    const book = this.books.get(instrumentId)!;
    (o.rising ? book.pendingRising : book.pendingFalling).remove(o.target, o.id);
  }

  /** The account's cached state, loaded from the database on first use. */
  private account(userId: number): AccountState {
    let s = this.accounts.get(userId);
    if (!s) {
      const row = this.ledger.account(userId);
      s = { balance: row.balance, lock: row.lock_balance, positions: new Set(), exposure: new Map() };
      this.accounts.set(userId, s);
    }
    return s;
  }

  /** Re-reads balance and held margin after a committed transaction (memory follows the database). */
  private refreshAccount(userId: number) {
    const s = this.account(userId);
    const row = this.ledger.account(userId);
    s.balance = row.balance;
    s.lock = row.lock_balance;
    if (s.positions.size === 0 && s.lock === 0) this.accounts.delete(userId);
  }

  private ownOrder(userId: number, orderId: number): OrderRow {
    const row = this.order(orderId);
    if (!row || row.user_id !== userId) fail('OrderNotFound');
    return row;
  }

  private parsePrice(inst: Instrument, text: string | null): number | null {
    if (text === null) return null;
    const price = parseUnits(text, inst.precision);
    if (price === null || price <= 0) fail('PriceInvalid');
    return price;
  }

  /**
   * A trailing distance as typed, checked against the reference price: above 0, a whole number of the
   * instrument's price ticks (no more decimals than its prices), less than half the price. null: none.
   */
  private parseTrail(inst: Instrument, text: string | null, reference: number): number | null {
    if (text === null) return null;
    if (text.trim().startsWith('-')) fail('TrailDistanceInvalid');
    const distance = parseUnits(text, inst.precision);
    if (distance === null) {
      // Not a whole number of ticks, or too many digits to be any sane distance.
      const decimals = (/\.(\d*?)0*$/.exec(text.trim())?.[1] ?? '').length;
      fail(decimals > inst.precision ? 'TrailDistanceTicks' : 'TrailDistanceTooLarge');
    }
    const refusal = trailDistanceRefusal(distance, reference);
    if (refusal) fail(refusal);
    return distance;
  }

  /**
   * Whether a repeated key asks for the same order: what defines it (instrument, side, entry, lots,
   * leverage, target). Take-profit and stop-loss are left out: they may have been edited since.
   */
  private sameOrder(row: OrderRow, input: SubmitInput): boolean {
    const inst = this.market.get(row.instrument_id);
    const target = input.targetPrice === null || !inst ? null : parseUnits(input.targetPrice, inst.precision);
    // The lots as placed: a partial close since then moved some of them to closed parts.
    const placedLots = row.lots + (this.stmt.partsLots.get(row.id) as number);
    return (
      row.instrument_id === input.instrumentId &&
      row.side === input.side &&
      row.entry_mode === input.entryMode &&
      placedLots === parseUnits(input.lots, LOT_DECIMALS) &&
      row.leverage === input.leverage &&
      (row.entry_mode === EntryMode.Market || row.target_price === target)
    );
  }
}
