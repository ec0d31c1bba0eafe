/**
 * Take-profit, stop-loss, pending triggers, stop-out and negative-balance protection, driven by injected
 * prices; each checks the orders and the ledger afterwards.
 */
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { CloseReason, EntryMode, LedgerType, OrderStatus, Side } from '../../contract/enums';
import type { ClosedEvent, SubmitInput } from '../trading/engine';
import { engineFixture, type EngineFixture } from './fixture';

const M = 1_000_000; // micro-USD per USD
let f: EngineFixture;
let closed: ClosedEvent[];

beforeEach(() => {
  f = engineFixture();
  closed = [];
  f.up.engine.onClosed((e) => closed.push(e));
  f.tick('EURUSD', 1.1);
});
afterEach(() => f.close());

function order(overrides: Partial<SubmitInput>): SubmitInput {
  return {
    side: Side.Buy,
    lots: '1',
    instrumentId: f.id('EURUSD'),
    entryMode: EntryMode.Market,
    targetPrice: null,
    stopLoss: null,
    takeProfit: null,
    leverage: 100,
    ...overrides,
  };
}

function ledger(userId: number) {
  return f.up.db.prepare('SELECT value, type, order_id FROM account_log WHERE user_id = ? ORDER BY id').all(userId) as {
    value: number;
    type: number;
    order_id: number | null;
  }[];
}

describe('take-profit and stop-loss', () => {
  test('a buy take-profit fills at the price of the tick that crossed it', () => {
    const user = f.demoUser();
    const o = f.up.engine.submit(user, order({ takeProfit: '1.102' }));
    f.tick('EURUSD', 1.1019);
    expect(f.up.engine.order(o.id)!.status).toBe(OrderStatus.Holding);
    f.tick('EURUSD', 1.1025); // gaps past the target: filled at 1.1025, not 1.102
    const row = f.up.engine.order(o.id)!;
    expect(row).toMatchObject({ status: OrderStatus.Closed, close_reason: CloseReason.TakeProfit, close_price: 110250, profit: 250 * M });
    expect(closed).toEqual([{ userId: user, orderIds: [o.id], reason: CloseReason.TakeProfit }]);
    // margin 1 × 100,000 × 1.1 ÷ 100 = 1,100; fee 5 per lot
    expect(ledger(user).filter((l) => l.order_id === o.id)).toEqual([
      { value: -1100 * M, type: LedgerType.MarginHeld, order_id: o.id },
      { value: -5 * M, type: LedgerType.TradeFee, order_id: o.id },
      { value: 1100 * M, type: LedgerType.MarginReleased, order_id: o.id },
      { value: 250 * M, type: LedgerType.RealisedProfit, order_id: o.id },
    ]);
    expect(f.up.engine.figures(user)).toEqual({ balance: (100000 - 5 + 250) * M, lockBalance: 0, floatingProfit: 0 });
    f.checkInvariants(user);
  });

  test('a sell stop-loss closes with the loss when the price rises to it', () => {
    const user = f.demoUser();
    const o = f.up.engine.submit(user, order({ side: Side.Sell, stopLoss: '1.105', lots: '0.1' }));
    f.tick('EURUSD', 1.1049);
    expect(f.up.engine.order(o.id)!.status).toBe(OrderStatus.Holding);
    f.tick('EURUSD', 1.105);
    const row = f.up.engine.order(o.id)!;
    // (1.1 − 1.105) × 0.1 × 100,000 = −50
    expect(row).toMatchObject({ status: OrderStatus.Closed, close_reason: CloseReason.StopLoss, profit: -50 * M });
    expect(ledger(user).at(-1)).toEqual({ value: -50 * M, type: LedgerType.RealisedProfit, order_id: o.id });
    expect(f.up.engine.figures(user).balance).toBe((100000 - 0.5 - 50) * M);
    f.checkInvariants(user);
  });

  test('a buy stop-loss is not fired by a tick above it', () => {
    const user = f.demoUser();
    const o = f.up.engine.submit(user, order({ stopLoss: '1.09', takeProfit: '1.11' }));
    f.tick('EURUSD', 1.0901);
    f.tick('EURUSD', 1.1099);
    expect(f.up.engine.order(o.id)!.status).toBe(OrderStatus.Holding);
    expect(closed).toEqual([]);
  });
});

describe('pending orders', () => {
  test('a buy placed below the market fills when the price falls to the target, at the tick price', () => {
    const user = f.demoUser();
    const o = f.up.engine.submit(user, order({ entryMode: EntryMode.Pending, targetPrice: '1.095', lots: '0.5' }));
    expect(o).toMatchObject({ status: OrderStatus.Pending, target_price: 109500, margin: 547.5 * M, fee: 2.5 * M });
    f.tick('EURUSD', 1.0951);
    expect(f.up.engine.order(o.id)!.status).toBe(OrderStatus.Pending);
    f.tick('EURUSD', 1.0948);
    expect(f.up.engine.order(o.id)).toMatchObject({ status: OrderStatus.Holding, open_price: 109480 });
    // Margin and fee were taken at submission; filling moves no money.
    expect(
      ledger(user)
        .filter((l) => l.order_id === o.id)
        .map((l) => l.type),
    ).toEqual([LedgerType.MarginHeld, LedgerType.TradeFee]);
    f.tick('EURUSD', 1.0958);
    expect(f.up.engine.live(o.id)).toEqual({ profit: 50 * M, mark: 109580 });
    f.checkInvariants(user);
  });

  test('a sell placed below the market fills when the price falls to it; one placed above when it rises', () => {
    const user = f.demoUser();
    const below = f.up.engine.submit(user, order({ side: Side.Sell, entryMode: EntryMode.Pending, targetPrice: '1.09' }));
    const above = f.up.engine.submit(user, order({ side: Side.Sell, entryMode: EntryMode.Pending, targetPrice: '1.11' }));
    f.tick('EURUSD', 1.111);
    expect(f.up.engine.order(above.id)!.status).toBe(OrderStatus.Holding);
    expect(f.up.engine.order(below.id)!.status).toBe(OrderStatus.Pending);
    f.tick('EURUSD', 1.0899);
    expect(f.up.engine.order(below.id)!.status).toBe(OrderStatus.Holding);
    f.checkInvariants(user);
  });

  test('cancelling returns margin and fee', () => {
    const user = f.demoUser();
    const o = f.up.engine.submit(user, order({ entryMode: EntryMode.Pending, targetPrice: '1.09' }));
    f.up.engine.cancel(user, o.id);
    expect(f.up.engine.order(o.id)!.status).toBe(OrderStatus.Cancelled);
    expect(f.up.engine.figures(user)).toEqual({ balance: 100000 * M, lockBalance: 0, floatingProfit: 0 });
    // The margin of a pending order is taken at its target: 1 × 100,000 × 1.09 ÷ 100 = 1,090.
    expect(ledger(user).slice(-2)).toEqual([
      { value: 1090 * M, type: LedgerType.MarginReleased, order_id: o.id },
      { value: 5 * M, type: LedgerType.TradeFeeRefund, order_id: o.id },
    ]);
    f.checkInvariants(user);
  });

  test('a fill that gaps past its own stop-loss closes at once', () => {
    const user = f.demoUser();
    const o = f.up.engine.submit(user, order({ entryMode: EntryMode.Pending, targetPrice: '1.095', stopLoss: '1.094' }));
    f.tick('EURUSD', 1.0935);
    expect(f.up.engine.order(o.id)).toMatchObject({
      status: OrderStatus.Closed,
      open_price: 109350,
      close_price: 109350,
      close_reason: CloseReason.StopLoss,
      profit: 0,
    });
    f.checkInvariants(user);
  });
});

describe('stop-out', () => {
  test('at 50 % the largest loss is closed first, until the level is back above', () => {
    const user = f.demoUser();
    f.tick('XAUUSD', 2000);
    // Leave 2,000 USD of cash after two positions: shrink the account first.
    f.up.engine.adjustBalance(user, -97000 * M, 'test setup');
    const gold = f.up.engine.submit(user, order({ instrumentId: f.id('XAUUSD'), lots: '1', leverage: 100 })); // margin 2,000, fee 8
    const euro = f.up.engine.submit(user, order({ lots: '0.5', leverage: 100 })); // margin 550, fee 2.5
    expect(f.up.engine.figures(user)).toMatchObject({ balance: (3000 - 2000 - 8 - 550 - 2.5) * M, lockBalance: 2550 * M });
    // Equity = 439.5 + 2,550 + floating. Stop-out when equity ≤ 1,275 (50 % of 2,550): floating ≤ −1,714.5.
    f.tick('EURUSD', 1.099); // euro −50
    f.tick('XAUUSD', 1984); // gold −1,600 → floating −1,650: equity 1,339.5 > 1,275, nothing closes
    expect(closed).toEqual([]);
    f.tick('XAUUSD', 1983); // gold −1,700 → floating −1,750: equity 1,239.5 ≤ 1,275 → close gold (largest loss)
    expect(closed).toEqual([{ userId: user, orderIds: [gold.id], reason: CloseReason.StopOut }]);
    expect(f.up.engine.order(gold.id)).toMatchObject({ status: OrderStatus.Closed, close_reason: CloseReason.StopOut, profit: -1700 * M });
    expect(f.up.engine.order(euro.id)!.status).toBe(OrderStatus.Holding);
    // After: balance 439.5 + 2,000 − 1,700 = 739.5; lock 550; floating −50; equity 1,239.5 ≥ 275.
    expect(f.up.engine.figures(user)).toEqual({ balance: 739.5 * M, lockBalance: 550 * M, floatingProfit: -50 * M });
    f.checkInvariants(user);
  });

  test('a loss beyond the account is written off: the balance ends at zero, never below', () => {
    const user = f.demoUser();
    f.up.engine.adjustBalance(user, -99000 * M, 'test setup'); // 1,000 USD left
    const o = f.up.engine.submit(user, order({ lots: '0.5', leverage: 200 })); // margin 275, fee 2.5
    f.tick('EURUSD', 1.07); // a 300-pip gap: −1,500 USD on a 1,000 USD account
    const row = f.up.engine.order(o.id)!;
    expect(row).toMatchObject({ status: OrderStatus.Closed, close_reason: CloseReason.StopOut, profit: -1500 * M });
    expect(ledger(user).slice(-3)).toEqual([
      { value: 275 * M, type: LedgerType.MarginReleased, order_id: o.id },
      { value: -1500 * M, type: LedgerType.RealisedProfit, order_id: o.id },
      { value: 502.5 * M, type: LedgerType.NegativeBalanceProtection, order_id: o.id },
    ]);
    expect(f.up.engine.figures(user)).toEqual({ balance: 0, lockBalance: 0, floatingProfit: 0 });
    f.checkInvariants(user);
  });
});

describe('restart', () => {
  test('open positions and pending orders come back from the database with their stops', () => {
    const user = f.demoUser();
    const held = f.up.engine.submit(user, order({ takeProfit: '1.12' }));
    const pending = f.up.engine.submit(user, order({ entryMode: EntryMode.Pending, targetPrice: '1.09' }));
    f.restart();
    f.tick('EURUSD', 1.0899);
    expect(f.up.engine.order(pending.id)!.status).toBe(OrderStatus.Holding);
    f.tick('EURUSD', 1.1201);
    expect(f.up.engine.order(held.id)).toMatchObject({ status: OrderStatus.Closed, close_reason: CloseReason.TakeProfit });
    f.checkInvariants(user);
  });
});

describe('demo reset', () => {
  test('closes positions, cancels pending orders and restores 100,000', () => {
    const user = f.demoUser();
    const held = f.up.engine.submit(user, order({}));
    const pending = f.up.engine.submit(user, order({ entryMode: EntryMode.Pending, targetPrice: '1.09' }));
    f.tick('EURUSD', 1.09);
    f.up.engine.resetDemo(user, 100000 * M);
    expect(f.up.engine.order(held.id)!.status).toBe(OrderStatus.Closed);
    expect(f.up.engine.order(pending.id)!.status).toBe(OrderStatus.Closed); // it filled at 1.09 first, then was closed
    expect(f.up.engine.figures(user)).toEqual({ balance: 100000 * M, lockBalance: 0, floatingProfit: 0 });
    expect(ledger(user).at(-1)!.type).toBe(LedgerType.DemoReset);
    f.checkInvariants(user);
  });
});
