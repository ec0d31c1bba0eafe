/**
 * Property test of the money: random sequences of orders (market and pending, with take-profit and
 * stop-loss), price moves large enough to trigger them and stop-outs, closes, cancels, stop edits, demo
 * resets, balance adjustments, market switches and restarts. After every step, for every account:
 * balance = sum of its ledger, lock_balance = margins held, nothing negative, memory = database, and
 * one order per idempotency key.
 */
import fc from 'fast-check';
import { expect, test } from 'vitest';
import { profitMicro } from '../../contract/arithmetic';
import { EntryMode, OrderStatus, Side } from '../../contract/enums';
import { BusinessError } from '../shared/errors';
import type { OrderRow } from '../trading/engine';
import { engineFixture, type EngineFixture } from './fixture';

const CODES = ['EURUSD', 'USDJPY', 'XAGUSD', 'BTCUSD', 'NGAS'] as const;
type Code = (typeof CODES)[number];
const START: Record<Code, number> = { EURUSD: 1.1, USDJPY: 150, XAGUSD: 30, BTCUSD: 60000, NGAS: 3 };
const LEVERAGE: Record<Code, number[]> = { EURUSD: [100, 200, 7], USDJPY: [50, 200], XAGUSD: [20, 50], BTCUSD: [5, 20], NGAS: [10, 20] };

const code = fc.constantFrom(...CODES);
const user = fc.integer({ min: 0, max: 1 });

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
      leverageIndex: fc.integer({ min: 0, max: 2 }),
      key: fc.option(fc.constantFrom('k1', 'k2', 'k3'), { nil: undefined }),
    }),
  },
  { weight: 6, arbitrary: fc.record({ kind: fc.constant('tick' as const), code, move: fc.integer({ min: -400, max: 400 }) }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('close' as const), user, pick: fc.nat() }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('cancel' as const), user, pick: fc.nat() }) },
  {
    weight: 1,
    arbitrary: fc.record({ kind: fc.constant('stops' as const), user, pick: fc.nat(), tp: fc.integer({ min: -200, max: 200 }), sl: fc.integer({ min: -200, max: 200 }) }),
  },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('reset' as const), user }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('adjust' as const), user, amount: fc.integer({ min: -120_000, max: 50_000 }) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('market' as const), code, open: fc.boolean() }) },
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

function openOrders(f: EngineFixture, userId: number, status: number): OrderRow[] {
  return f.up.db.prepare('SELECT * FROM orders WHERE user_id = ? AND status = ? ORDER BY id').all(userId, status) as OrderRow[];
}

function run(f: EngineFixture, users: number[], a: Action, keysSeen: Map<string, number>) {
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
      f.up.engine.setStops(userId, o.id, offset(f, c, a.tp), offset(f, c, a.sl));
      return;
    }
    case 'reset':
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
  }
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

test('balance = ledger, lock = held margins, nothing negative, one order per key — through any sequence', () => {
  fc.assert(
    fc.property(fc.array(action, { minLength: 1, maxLength: 40 }), (actions) => {
      const f = engineFixture();
      try {
        for (const c of CODES) f.tick(c, START[c]);
        const users = [f.demoUser(), f.demoUser()];
        const keysSeen = new Map<string, number>();
        for (const a of actions) {
          try {
            run(f, users, a, keysSeen);
          } catch (err) {
            // Refusals are part of the game; anything else is a bug.
            if (!(err instanceof BusinessError)) throw err;
          }
          for (const u of users) {
            f.checkInvariants(u);
            checkFloating(f, u);
          }
        }
      } finally {
        f.close();
      }
    }),
    { numRuns: Number(process.env.PROPERTY_RUNS ?? 200) },
  );
}, 180_000);
