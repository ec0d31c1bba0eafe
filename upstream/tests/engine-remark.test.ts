/**
 * The re-mark's fast path (issue 41, decision 0042) against the per-position computation: after any sequence of
 * orders, stop changes, partial closes and ticks, every position's profit and every account's floating profit are
 * exactly decision 0004's per-position figures at the current price; no take-profit, stop-loss or pending target the
 * price has reached is left waiting; no account is left at or below the stop-out level; what a tick closed, it
 * closed at its own price for a reason the price gave.
 */
import fc from 'fast-check';
import { afterEach, beforeEach, expect, test } from 'vitest';
import { isStopOut, profitMicro } from '../../contract/arithmetic';
import { CloseReason, EntryMode, OrderStatus, Side } from '../../contract/enums';
import { BusinessError } from '../shared/errors';
import type { Instrument } from '../market/market';
import type { OrderRow } from '../trading/engine';
import { engineFixture, type EngineFixture } from './fixture';

const CODES = ['EURUSD', 'USDJPY', 'XAUUSD'] as const;

let f: EngineFixture;
beforeEach(() => {
  f = engineFixture();
});
afterEach(() => f.close());

type Command =
  | {
      kind: 'order';
      user: number;
      code: number;
      buy: boolean;
      size: number;
      tp: number | null;
      sl: number | null;
      trail: number | null;
      pending: number | null;
    }
  | { kind: 'stops'; pick: number; tp: number | null; sl: number | null }
  | { kind: 'part'; pick: number }
  | { kind: 'tick'; code: number; move: number };

/** Offsets in thousandths of the price; null leaves the stop out. */
const offset = fc.option(fc.integer({ min: 1, max: 40 }), { nil: null });
const command: fc.Arbitrary<Command> = fc.oneof(
  {
    weight: 3,
    arbitrary: fc.record({
      kind: fc.constant('order' as const),
      user: fc.integer({ min: 0, max: 2 }),
      code: fc.integer({ min: 0, max: CODES.length - 1 }),
      buy: fc.boolean(),
      size: fc.oneof(fc.integer({ min: 1, max: 400 }), fc.integer({ min: 1000, max: 15000 })),
      tp: offset,
      sl: offset,
      trail: fc.option(fc.integer({ min: 2, max: 20 }), { nil: null }),
      pending: fc.option(
        fc.integer({ min: -20, max: 20 }).filter((n) => n !== 0),
        { nil: null },
      ),
    }),
  },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('stops' as const), pick: fc.nat(), tp: offset, sl: offset }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('part' as const), pick: fc.nat() }) },
  {
    weight: 6,
    arbitrary: fc.record({
      kind: fc.constant('tick' as const),
      code: fc.integer({ min: 0, max: CODES.length - 1 }),
      move: fc.integer({ min: -15, max: 15 }),
    }),
  },
);

const STOP_LOSS_THEN_STOP_OUT: Command[] = [
  { kind: 'order', user: 2, code: 1, buy: false, size: 1899, tp: null, sl: 1, trail: null, pending: 13 },
  { kind: 'tick', code: 0, move: 7 },
  { kind: 'tick', code: 0, move: 1 },
  { kind: 'tick', code: 1, move: 10 },
  { kind: 'tick', code: 1, move: 3 },
  { kind: 'order', user: 2, code: 0, buy: false, size: 4840, tp: null, sl: null, trail: null, pending: -1 },
  { kind: 'tick', code: 0, move: -1 },
  { kind: 'order', user: 0, code: 0, buy: false, size: 1000, tp: null, sl: null, trail: null, pending: null },
  { kind: 'order', user: 0, code: 0, buy: false, size: 1000, tp: null, sl: null, trail: null, pending: null },
  { kind: 'order', user: 2, code: 0, buy: false, size: 1080, tp: null, sl: null, trail: null, pending: null },
  { kind: 'tick', code: 0, move: 10 },
  { kind: 'tick', code: 1, move: 10 },
];

const text = (scaled: number, precision: number) => (scaled / 10 ** precision).toFixed(precision);

test('the fast re-mark gives the per-position figures, fires every reached trigger and leaves no account stopped out', () => {
  const users = [f.demoUser(), f.demoUser(), f.demoUser()];
  const insts = CODES.map((code) => f.up.market.getByCode(code)!);
  const start = new Map(insts.map((i) => [i.id, f.up.market.price(i.id)]));
  fc.assert(
    fc.property(fc.array(command, { minLength: 10, maxLength: 80 }), (commands) => {
      for (const u of users) f.up.engine.resetDemo(u, 100_000_000_000);
      for (const i of insts) f.up.market.applyTick(i.id, start.get(i.id)!);
      for (const c of commands) {
        if (c.kind === 'tick') {
          const inst = insts[c.code]!;
          const before = f.up.market.price(inst.id);
          const price = Math.max(1, before + Math.round((before * c.move) / 1000));
          const open = openOrders();
          f.up.market.applyTick(inst.id, price);
          checkTick(open, inst.id, price);
          continue;
        }
        try {
          if (c.kind === 'order') place(c, users, insts);
          else {
            const holding = openOrders().filter((o) => o.status === OrderStatus.Holding);
            const o = holding[c.pick % Math.max(1, holding.length)];
            if (!o) continue;
            const inst = insts.find((i) => i.id === o.instrument_id)!;
            const price = f.up.market.price(inst.id);
            const sign = o.side === Side.Buy ? 1 : -1;
            if (c.kind === 'stops') {
              const tp = c.tp === null ? null : text(price + sign * Math.max(1, Math.round((price * c.tp) / 1000)), inst.precision);
              const sl = c.sl === null ? null : text(price - sign * Math.max(1, Math.round((price * c.sl) / 1000)), inst.precision);
              f.up.engine.setStops(o.user_id, o.id, tp, sl, null);
            } else if (o.lots >= 2 * inst.minLots) f.up.engine.close(o.user_id, o.id, text(inst.minLots, 3));
          }
        } catch (err) {
          if (!(err instanceof BusinessError)) throw err;
        }
        checkFigures();
      }
    }),
    // CI's counterexample: a stop-loss closed an account's only USDJPY position at a tick that also sank its equity
    // below the stop-out level; the account was no longer that book's holder, so its EURUSD positions stayed open.
    { numRuns: 40, examples: [[STOP_LOSS_THEN_STOP_OUT]] },
  );

  function openOrders(): OrderRow[] {
    return f.up.db.prepare('SELECT * FROM orders WHERE status IN (0, 1) ORDER BY id').all() as OrderRow[];
  }

  /** Every holding position and account, against profitMicro at the current price, one position at a time. */
  function checkFigures() {
    const floating = new Map<number, number>();
    for (const o of openOrders()) {
      if (o.status !== OrderStatus.Holding) continue;
      const inst = f.up.market.get(o.instrument_id)!;
      const price = f.up.market.price(inst.id);
      const expected = profitMicro(inst.terms, o.side, o.lots, o.open_price!, price, f.up.market.conversion(inst));
      expect(f.up.engine.live(o.id)).toEqual({ profit: expected, mark: price });
      floating.set(o.user_id, (floating.get(o.user_id) ?? 0) + expected);
    }
    for (const u of users) {
      const figures = f.up.engine.figures(u);
      expect(figures.floatingProfit).toBe(floating.get(u) ?? 0);
      expect(isStopOut(figures) && (floating.has(u) || false)).toBe(false);
      f.checkInvariants(u);
    }
  }

  /** After a tick: what is still waiting was not reached; what closed or filled, the tick reached. */
  function checkTick(before: OrderRow[], instrumentId: number, price: number) {
    const after = new Map(
      (
        f.up.db
          .prepare('SELECT * FROM orders WHERE id IN (SELECT value FROM json_each(?))')
          .all(JSON.stringify(before.map((o) => o.id))) as OrderRow[]
      ).map((o) => [o.id, o]),
    );
    for (const o of before) {
      const now = after.get(o.id)!;
      const buy = o.side === Side.Buy;
      if (now.status === OrderStatus.Holding && o.instrument_id === instrumentId) {
        if (now.take_profit !== null) expect(buy ? price < now.take_profit : price > now.take_profit).toBe(true);
        if (now.stop_loss !== null) expect(buy ? price > now.stop_loss : price < now.stop_loss).toBe(true);
      }
      if (now.status === OrderStatus.Pending && o.instrument_id === instrumentId) {
        const rising = now.target_price! > now.origin_price;
        expect(rising ? price < now.target_price! : price > now.target_price!).toBe(true);
      }
      if (o.status !== OrderStatus.Closed && now.status === OrderStatus.Closed) {
        if (now.close_reason === CloseReason.TakeProfit) {
          expect(now.instrument_id).toBe(instrumentId);
          expect(now.close_price).toBe(price);
          expect(buy ? price >= now.take_profit! : price <= now.take_profit!).toBe(true);
        } else if (now.close_reason === CloseReason.StopLoss) {
          expect(now.instrument_id).toBe(instrumentId);
          expect(now.close_price).toBe(price);
          expect(buy ? price <= now.stop_loss! : price >= now.stop_loss!).toBe(true);
        } else expect(now.close_reason).toBe(CloseReason.StopOut);
      }
    }
    checkFigures();
  }
}, 300_000);

function place(c: Extract<Command, { kind: 'order' }>, users: number[], insts: Instrument[]) {
  const inst = insts[c.code]!;
  const price = f.up.market.price(inst.id);
  const reference = c.pending === null ? price : price + Math.round((price * c.pending) / 1000);
  const sign = c.buy ? 1 : -1;
  const away = (n: number) => Math.max(1, Math.round((reference * n) / 1000));
  f.up.engine.submit(users[c.user]!, {
    side: c.buy ? Side.Buy : Side.Sell,
    lots: text(c.size * inst.minLots, 3),
    instrumentId: inst.id,
    entryMode: c.pending === null ? EntryMode.Market : EntryMode.Pending,
    targetPrice: c.pending === null ? null : text(reference, inst.precision),
    takeProfit: c.tp === null ? null : text(reference + sign * away(c.tp), inst.precision),
    stopLoss: c.sl === null ? null : text(reference - sign * away(c.sl), inst.precision),
    trailDistance: c.trail === null ? null : text(away(c.trail), inst.precision),
    leverage: Math.max(...inst.leverages),
  });
}
