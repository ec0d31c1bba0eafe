/**
 * Property test of the money: random sequences of orders (market and pending, with take-profit,
 * stop-loss and trailing stops), price moves large enough to trigger them and stop-outs, closes (whole, partial, all of a scope), cancels, stop edits, demo
 * resets, balance adjustments, deposits and their reviews, withdrawal requests and their reviews, market
 * switches and restarts. After every step, for every account: balance = sum of its ledger, lock_balance =
 * margins held, nothing negative, memory = database, one order per idempotency key, and every deposit
 * credited exactly once if approved (never otherwise), every withdrawal taken once and given back once
 * only if rejected, and a trailing stop never moves back against the trader.
 */
import fc from 'fast-check';
import { expect, test } from 'vitest';
import { profitMicro } from '../../contract/arithmetic';
import { inCloseScope, type CloseAllScope } from '../../contract/calls/trade';
import { DepositStatus, EntryMode, LedgerType, OrderStatus, Side, WithdrawStatus } from '../../contract/enums';
import type { UserRow } from '../accounts/accounts';
import { BusinessError } from '../shared/errors';
import type { OrderRow } from '../trading/engine';
import { engineFixture, type EngineFixture } from './fixture';

const CODES = ['EURUSD', 'USDJPY', 'XAGUSD', 'BTCUSD', 'NGAS'] as const;
type Code = (typeof CODES)[number];
const START: Record<Code, number> = { EURUSD: 1.1, USDJPY: 150, XAGUSD: 30, BTCUSD: 60000, NGAS: 3 };
const LEVERAGE: Record<Code, number[]> = { EURUSD: [100, 200, 7], USDJPY: [50, 200], XAGUSD: [20, 50], BTCUSD: [5, 20], NGAS: [10, 20] };

const code = fc.constantFrom(...CODES);
/** Users 0 and 1 are demo accounts, 2 and 3 real ones (only real accounts move funds). */
const user = fc.integer({ min: 0, max: 3 });
const realUser = fc.constantFrom(2, 3);

const action = fc.oneof(
  {
    weight: 5,
    arbitrary: fc.record({
      kind: fc.constant('submit' as const),
      user,
      code,
      side: fc.constantFrom(Side.Buy, Side.Sell),
      lotSteps: fc.integer({ min: 0, max: 300 }),
      pending: fc.boolean(),
      /** Target, take-profit and stop-loss as relative offsets from the price; 0 means "not set". */
      target: fc.integer({ min: -300, max: 300 }),
      tp: fc.integer({ min: -300, max: 300 }),
      sl: fc.integer({ min: -300, max: 300 }),
      /** Trailing distance in thousandths of the price: 0 none, negative or ≥ 500 refused. */
      trail: fc.oneof(fc.constant(0), fc.integer({ min: -5, max: 120 }), fc.integer({ min: 480, max: 520 })),
      leverageIndex: fc.integer({ min: 0, max: 2 }),
      key: fc.option(fc.constantFrom('k1', 'k2', 'k3'), { nil: undefined }),
    }),
  },
  {
    // A market order with only a trailing stop (most random submits are refused for their TP or SL), so that
    // trails live through many ticks.
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant('trailSubmit' as const),
      user,
      code,
      side: fc.constantFrom(Side.Buy, Side.Sell),
      lotSteps: fc.integer({ min: 1, max: 100 }),
      /** Thousandths of the price: wide ones live through several of the test's large moves. */
      trail: fc.integer({ min: 1, max: 450 }),
    }),
  },
  { weight: 6, arbitrary: fc.record({ kind: fc.constant('tick' as const), code, move: fc.integer({ min: -400, max: 400 }) }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('close' as const), user, pick: fc.nat() }) },
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant('partialClose' as const),
      user,
      pick: fc.nat(),
      /** Steps of the instrument's lot step to close (more than held is refused). */
      steps: fc.integer({ min: 0, max: 120 }),
      key: fc.option(fc.constantFrom('c1', 'c2'), { nil: undefined }),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant('closeAll' as const),
      user,
      scope: fc.constantFrom('all', 'profit', 'loss') as fc.Arbitrary<CloseAllScope>,
    }),
  },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('cancel' as const), user, pick: fc.nat() }) },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant('stops' as const),
      user,
      pick: fc.nat(),
      tp: fc.integer({ min: -200, max: 200 }),
      sl: fc.integer({ min: -200, max: 200 }),
      trail: fc.oneof(fc.constant(0), fc.integer({ min: -5, max: 120 })),
    }),
  },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('reset' as const), user }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('adjust' as const), user, amount: fc.integer({ min: -120_000, max: 50_000 }) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('market' as const), code, open: fc.boolean() }) },
  {
    weight: 4,
    arbitrary: fc.record({
      kind: fc.constant('deposit' as const),
      user: realUser,
      cents: fc.integer({ min: 1, max: 500_000 }),
      wire: fc.boolean(),
      key: fc.option(fc.constantFrom('d1', 'd2'), { nil: undefined }),
    }),
  },
  {
    weight: 4,
    arbitrary: fc.record({
      kind: fc.constant('reviewDeposit' as const),
      pick: fc.nat(),
      decision: fc.constantFrom('approve', 'approve', 'reject', 'invalid') as fc.Arbitrary<'approve' | 'reject' | 'invalid'>,
    }),
  },
  {
    // Raised with the partial closes' arrival, so that runs still reach a withdrawal past the volume rule.
    weight: 3,
    arbitrary: fc.record({
      kind: fc.constant('withdraw' as const),
      user: realUser,
      /** Thousandths of what is available now (over 1000: more than available). */
      permille: fc.integer({ min: 1, max: 1100 }),
      currencyId: fc.constantFrom(1, 3, 4),
      key: fc.option(fc.constantFrom('w1', 'w2'), { nil: undefined }),
    }),
  },
  // A real account trades most of its balance, so that the 24-hour volume rule can let a withdrawal through.
  { weight: 3, arbitrary: fc.record({ kind: fc.constant('trade' as const), user: realUser }) },
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant('reviewWithdrawal' as const),
      pick: fc.nat(),
      decision: fc.constantFrom('approve', 'reject') as fc.Arbitrary<'approve' | 'reject'>,
    }),
  },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('restart' as const) }) },
);

type Action = typeof action extends fc.Arbitrary<infer A> ? A : never;

/** A price `permille` thousandths away from the current one, as decimal text at the instrument's precision. */
function offset(f: EngineFixture, c: Code, permille: number): string | null {
  if (permille === 0) return null;
  const inst = f.up.market.getByCode(c)!;
  const p = Math.max(1, Math.round((f.up.market.price(inst.id) * (1000 + permille)) / 1000));
  return (p / 10 ** inst.precision).toFixed(inst.precision);
}

/** A distance of `permille` thousandths of the current price (at least one tick), as decimal text; 0: none. */
function distance(f: EngineFixture, c: Code, permille: number): string | null {
  if (permille === 0) return null;
  const inst = f.up.market.getByCode(c)!;
  const units = Math.max(1, Math.round((f.up.market.price(inst.id) * Math.abs(permille)) / 1000));
  return (permille < 0 ? '-' : '') + (units / 10 ** inst.precision).toFixed(inst.precision);
}

function openOrders(f: EngineFixture, userId: number, status: number): OrderRow[] {
  return f.up.db.prepare('SELECT * FROM orders WHERE user_id = ? AND status = ? ORDER BY id').all(userId, status) as OrderRow[];
}

interface RealUser {
  id: number;
  proofUrl: string;
  /** Bound method ids by withdrawal currency. */
  methods: Record<number, number>;
}

const userRow = (f: EngineFixture, id: number) => f.up.db.prepare('SELECT * FROM users WHERE id = ?').get(id) as UserRow;

/** A real account with a coin address for USDT-TRC20 and BTC and a bank account. */
function newRealUser(f: EngineFixture): RealUser {
  const { id, proofUrl } = f.realUser();
  const row = userRow(f, id);
  const w = f.up.withdrawals;
  const methods = {
    1: w.bind(row, { type: 1, currencyId: 1, address: 'TJRabPrwbZy45sbavfcjinPJC18kjpRTv8' }).id,
    3: w.bind(row, { type: 1, currencyId: 3, address: 'bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq' }).id,
    4: w.bind(row, { type: 2, currencyId: 4, bankName: 'B', bankAddress: 'A', swift: 'PACBHKHH', payeeName: 'P', payeeAccount: '1' }).id,
  };
  return { id, proofUrl, methods };
}

/** Partial closes that left a position open, over the whole run (the property must exercise them). */
let partsClosed = 0;

/** A closed part belongs to a position of the same user and instrument, and carries its profit and its own lots. */
function checkParts(f: EngineFixture, userId: number) {
  const bad = f.up.db
    .prepare(
      `SELECT part.id FROM orders part JOIN orders pos ON pos.id = part.parent_id
       WHERE part.user_id = ? AND (pos.user_id != part.user_id OR pos.instrument_id != part.instrument_id
         OR part.status != 3 OR part.profit IS NULL OR part.lots <= 0 OR pos.lots <= 0)`,
    )
    .all(userId);
  expect(bad).toEqual([]);
}

/** Ticks that moved a trailing stop, and trailing stops that closed a position, over the whole run. */
let trailsMoved = 0;
let trailsFired = 0;

/**
 * A trailing stop never moves back: between two steps, a holding order whose distance is unchanged has a stop at
 * least as high (buy) or as low (sell) as before, unless the trader set the stops in that step. `seen` carries the
 * stops from one step to the next.
 */
function checkTrails(f: EngineFixture, userId: number, seen: Map<number, OrderRow>, edited: boolean) {
  for (const o of openOrders(f, userId, OrderStatus.Holding)) {
    const before = seen.get(o.id);
    if (!edited && before && before.status === OrderStatus.Holding && o.trail_distance !== null) {
      expect(o.trail_distance).toBe(before.trail_distance);
      expect(o.stop_loss).not.toBeNull();
      if (before.stop_loss !== null) {
        if (o.side === Side.Buy) expect(o.stop_loss!).toBeGreaterThanOrEqual(before.stop_loss);
        else expect(o.stop_loss!).toBeLessThanOrEqual(before.stop_loss);
      }
      if (o.stop_loss !== before.stop_loss) trailsMoved += 1;
    }
    seen.set(o.id, o);
  }
  for (const o of f.up.db
    .prepare('SELECT * FROM orders WHERE user_id = ? AND status = ? AND close_reason = 4 AND trail_distance IS NOT NULL')
    .all(userId, OrderStatus.Closed) as OrderRow[]) {
    if (seen.get(o.id)?.status === OrderStatus.Holding) trailsFired += 1;
    seen.set(o.id, o);
  }
}

/** Successful withdrawal requests over the whole run: the rules must let some through, or the test proves little. */
let withdrawalsTaken = 0;

function run(f: EngineFixture, users: number[], a: Action, keysSeen: Map<string, number>, real: Map<number, RealUser>) {
  const userId = 'user' in a ? users[a.user]! : 0;
  switch (a.kind) {
    case 'submit': {
      const inst = f.up.market.getByCode(a.code)!;
      const lots = ((inst.lotStep * a.lotSteps) / 1000).toString();
      const o = f.up.engine.submit(userId, {
        side: a.side,
        lots,
        instrumentId: inst.id,
        entryMode: a.pending ? EntryMode.Pending : EntryMode.Market,
        targetPrice: a.pending ? offset(f, a.code, a.target) : null,
        takeProfit: offset(f, a.code, a.tp),
        stopLoss: offset(f, a.code, a.sl),
        trailDistance: distance(f, a.code, a.trail),
        leverage: LEVERAGE[a.code][a.leverageIndex % LEVERAGE[a.code].length]!,
        idempotencyKey: a.key,
      });
      if (a.key) {
        const k = `${userId}|${a.key}`;
        const first = keysSeen.get(k);
        // A repeated key returns the first order, never a second one.
        if (first !== undefined) expect(o.id).toBe(first);
        keysSeen.set(k, o.id);
      }
      return;
    }
    case 'trailSubmit': {
      const inst = f.up.market.getByCode(a.code)!;
      f.up.engine.submit(userId, {
        side: a.side,
        lots: ((inst.minLots + inst.lotStep * a.lotSteps) / 1000).toString(),
        instrumentId: inst.id,
        entryMode: EntryMode.Market,
        targetPrice: null,
        takeProfit: null,
        stopLoss: null,
        trailDistance: distance(f, a.code, a.trail),
        leverage: LEVERAGE[a.code][0]!,
      });
      return;
    }
    case 'tick': {
      const inst = f.up.market.getByCode(a.code)!;
      if (!f.up.market.isOpen(inst.id)) return;
      const p = Math.max(1, Math.round((f.up.market.price(inst.id) * (10000 + a.move * 5)) / 10000));
      f.up.market.applyTick(inst.id, p);
      return;
    }
    case 'close': {
      const list = openOrders(f, userId, OrderStatus.Holding);
      if (list.length) f.up.engine.close(userId, list[a.pick % list.length]!.id);
      return;
    }
    case 'partialClose': {
      const list = openOrders(f, userId, OrderStatus.Holding);
      if (!list.length) return;
      const o = list[a.pick % list.length]!;
      const step = f.up.market.get(o.instrument_id)!.lotStep;
      const part = f.up.engine.close(userId, o.id, String((step * a.steps) / 1000), a.key);
      if (part.parent_id === o.id) partsClosed += 1;
      return;
    }
    case 'closeAll': {
      const before = new Map(openOrders(f, userId, OrderStatus.Holding).map((o) => [o.id, o]));
      const out = f.up.engine.closeAll(userId, (profit) => inCloseScope(a.scope, profit));
      // Every position is either closed or refused (never both); what closed is closed in the database.
      for (const c of out.closed) expect(f.up.engine.order(c.id)!.status).toBe(OrderStatus.Closed);
      for (const x of out.failed) expect(before.has(x.id) && f.up.engine.order(x.id)!.status).toBe(OrderStatus.Holding);
      return;
    }
    case 'cancel': {
      const list = openOrders(f, userId, OrderStatus.Pending);
      if (list.length) f.up.engine.cancel(userId, list[a.pick % list.length]!.id);
      return;
    }
    case 'stops': {
      const list = [...openOrders(f, userId, OrderStatus.Holding), ...openOrders(f, userId, OrderStatus.Pending)];
      if (!list.length) return;
      const o = list[a.pick % list.length]!;
      const c = f.up.market.get(o.instrument_id)!.code as Code;
      f.up.engine.setStops(userId, o.id, offset(f, c, a.tp), offset(f, c, a.sl), distance(f, c, a.trail));
      return;
    }
    case 'reset':
      if (real.has(userId)) return; // the call refuses real accounts before the engine sees them
      f.up.engine.resetDemo(userId, f.up.accounts.demoBalance());
      return;
    case 'adjust':
      f.up.engine.adjustBalance(userId, a.amount * 1_000_000, 'property test');
      return;
    case 'market':
      f.up.market.forceStatus(f.up.market.getByCode(a.code)!.id, a.open ? 1 : 0);
      return;
    case 'restart':
      f.restart();
      return;
    case 'deposit': {
      const r = real.get(userId)!;
      f.up.deposits.submit(userRow(f, userId), {
        kind: a.wire ? 'wire' : 'coin',
        amount: (a.cents / 100).toFixed(2),
        proofUrl: r.proofUrl,
        channelId: a.wire ? 4 : 1,
        address: a.wire ? undefined : 'TQn9Y2khEsLJW1ChVWFMSMeRDow5KcbLSE',
        idempotencyKey: a.key,
      });
      return;
    }
    case 'reviewDeposit': {
      // Mostly a waiting deposit; sometimes any, so that a second review is tried (refused, nothing moves).
      const all = f.up.db.prepare(`SELECT id FROM deposits ${a.pick % 4 ? 'WHERE status = 0' : ''} ORDER BY id`).all() as { id: number }[];
      if (all.length) f.up.deposits.review(all[a.pick % all.length]!.id, a.decision, 'property test');
      return;
    }
    case 'trade': {
      // XAG/USD: a fixed margin of 50 USD a lot and a fee of 6 USD a lot.
      const lots = Math.floor((f.up.engine.available(userId) * 0.85) / 56 / 10_000) / 100;
      if (lots < 0.01) return;
      const inst = f.up.market.getByCode('XAGUSD')!;
      f.up.engine.submit(userId, {
        side: Side.Buy,
        lots: lots.toFixed(2),
        instrumentId: inst.id,
        entryMode: EntryMode.Market,
        targetPrice: null,
        takeProfit: null,
        stopLoss: null,
        leverage: 20,
      });
      return;
    }
    case 'withdraw': {
      const r = real.get(userId)!;
      const cents = Math.floor((f.up.engine.available(userId) * a.permille) / 1000 / 10_000);
      if (cents <= 0) return;
      f.up.withdrawals.request(userRow(f, userId), {
        currencyId: a.currencyId,
        amount: (cents / 100).toFixed(2),
        methodId: r.methods[a.currencyId]!,
        idempotencyKey: a.key,
      });
      withdrawalsTaken += 1;
      return;
    }
    case 'reviewWithdrawal': {
      const all = f.up.db.prepare(`SELECT id FROM withdrawals ${a.pick % 4 ? 'WHERE status = 0' : ''} ORDER BY id`).all() as {
        id: number;
      }[];
      if (all.length) f.up.withdrawals.review(all[a.pick % all.length]!.id, a.decision, 'property test');
      return;
    }
  }
}

/** Each deposit is credited once if approved and never otherwise; each withdrawal is taken once and given back once if rejected. */
function checkFunds(f: EngineFixture, userId: number) {
  const entries = (type: number) =>
    f.up.db.prepare('SELECT memo, value FROM account_log WHERE user_id = ? AND type = ?').all(userId, type) as {
      memo: string;
      value: number;
    }[];
  const count = (list: { memo: string }[], id: number) => list.filter((e) => e.memo === `#${id}`).length;
  const credits = entries(LedgerType.Deposit);
  for (const d of f.up.db.prepare('SELECT id, amount, status FROM deposits WHERE user_id = ?').all(userId) as {
    id: number;
    amount: number;
    status: number;
  }[]) {
    expect(count(credits, d.id), `deposit #${d.id} credits`).toBe(d.status === DepositStatus.Finished ? 1 : 0);
  }
  const taken = entries(LedgerType.Withdrawal);
  const refunds = entries(LedgerType.WithdrawalRefund);
  for (const w of f.up.db.prepare('SELECT id, status FROM withdrawals WHERE user_id = ?').all(userId) as { id: number; status: number }[]) {
    expect(count(taken, w.id), `withdrawal #${w.id} taken`).toBe(1);
    expect(count(refunds, w.id), `withdrawal #${w.id} refunds`).toBe(w.status === WithdrawStatus.Rejected ? 1 : 0);
  }
  const keys = f.up.db
    .prepare(
      `SELECT idempotency_key FROM deposits WHERE user_id = ? AND idempotency_key IS NOT NULL GROUP BY idempotency_key HAVING COUNT(*) > 1
       UNION ALL SELECT idempotency_key FROM withdrawals WHERE user_id = ? AND idempotency_key IS NOT NULL GROUP BY idempotency_key HAVING COUNT(*) > 1`,
    )
    .all(userId, userId);
  expect(keys).toEqual([]);
}

/** Floating profit in memory equals the profit of every holding order recomputed at the current price. */
function checkFloating(f: EngineFixture, userId: number) {
  let expected = 0;
  for (const o of openOrders(f, userId, OrderStatus.Holding)) {
    const inst = f.up.market.get(o.instrument_id)!;
    expected += profitMicro(inst.terms, o.side, o.lots, o.open_price!, f.up.market.price(inst.id), f.up.market.conversion(inst));
  }
  expect(f.up.engine.figures(userId).floatingProfit).toBe(expected);
}

/**
 * One sequence that reaches each rarely-hit path the counters below require: a withdrawal past the volume rule, a
 * partial close, a trailing stop that moves and then fires. fast-check runs it before the random ones, so the
 * counters hold whatever the seed (a CI run once drew 200 sequences without a single withdrawal taken); the random
 * runs still explore everything else.
 */
const reachesEveryPath: Action[] = [
  { kind: 'deposit', user: 2, cents: 400_000, wire: false, key: undefined },
  { kind: 'reviewDeposit', pick: 0, decision: 'approve' },
  { kind: 'trade', user: 2 },
  { kind: 'withdraw', user: 2, permille: 500, currencyId: 1, key: undefined },
  {
    kind: 'submit',
    user: 0,
    code: 'EURUSD',
    side: Side.Buy,
    lotSteps: 100,
    pending: false,
    target: 0,
    tp: 0,
    sl: 0,
    trail: 0,
    leverageIndex: 0,
    key: undefined,
  },
  { kind: 'partialClose', user: 0, pick: 0, steps: 10, key: undefined },
  { kind: 'trailSubmit', user: 1, code: 'EURUSD', side: Side.Buy, lotSteps: 10, trail: 20 },
  { kind: 'tick', code: 'EURUSD', move: 100 },
  { kind: 'tick', code: 'EURUSD', move: -300 },
];

test('balance = ledger, lock = held margins, nothing negative, one order per key — through any sequence', () => {
  fc.assert(
    fc.property(fc.array(action, { minLength: 1, maxLength: 40, size: 'medium' }), (actions) => {
      const f = engineFixture();
      try {
        for (const c of CODES) f.tick(c, START[c]);
        const reals = [newRealUser(f), newRealUser(f)];
        const real = new Map(reals.map((r) => [r.id, r]));
        const users = [f.demoUser(), f.demoUser(), ...reals.map((r) => r.id)];
        const keysSeen = new Map<string, number>();
        const trails = new Map<number, OrderRow>();
        for (const a of actions) {
          try {
            run(f, users, a, keysSeen, real);
          } catch (err) {
            // Refusals are part of the game; anything else is a bug.
            if (!(err instanceof BusinessError)) throw err;
          }
          for (const u of users) {
            f.checkInvariants(u);
            checkFloating(f, u);
            checkFunds(f, u);
            checkParts(f, u);
            checkTrails(f, u, trails, a.kind === 'stops');
          }
        }
      } finally {
        f.close();
      }
    }),
    { numRuns: Number(process.env.PROPERTY_RUNS ?? 200), examples: [[reachesEveryPath]] },
  );
  expect(withdrawalsTaken, 'no withdrawal got past the rules in any run').toBeGreaterThan(0);
  expect(partsClosed, 'no partial close went through in any run').toBeGreaterThan(0);
  expect(trailsMoved, 'no trailing stop moved in any run').toBeGreaterThan(0);
  expect(trailsFired, 'no trailing stop closed a position in any run').toBeGreaterThan(0);
}, 180_000);
