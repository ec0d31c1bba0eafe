/**
 * Trailing stops in the engine, driven by injected ticks: the stop follows the price in the trader's favour and
 * never back, fires when crossed (at the crossing tick's price, as a stop loss), is written only when it moves,
 * and survives a restart.
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

const stopOf = (orderId: number) => f.up.engine.order(orderId)!.stop_loss;

/** Counts UPDATEs of the orders table from now on (a temporary trigger on this connection). */
function countOrderWrites(): () => number {
  const db = f.up.db;
  db.exec(`CREATE TEMP TABLE IF NOT EXISTS order_writes (id INTEGER);
    CREATE TEMP TRIGGER IF NOT EXISTS count_order_writes AFTER UPDATE ON main.orders BEGIN INSERT INTO order_writes VALUES (new.id); END;
    DELETE FROM order_writes;`);
  return () => (db.prepare('SELECT COUNT(*) AS n FROM order_writes').get() as { n: number }).n;
}

describe('trailing stop', () => {
  test('a buy: the stop follows the price up, never back down, and fires at the tick that crosses it', () => {
    const user = f.demoUser();
    const o = f.up.engine.submit(user, order({ trailDistance: '0.0020' }));
    expect(o).toMatchObject({ trail_distance: 200, stop_loss: 109800 });
    const path: [number, number][] = [
      [1.1005, 109850], // up: follows
      [1.1012, 109920],
      [1.1003, 109920], // down: stays
      [1.0995, 109920],
      [1.101, 109920], // up, below the high: stays
      [1.1031, 110110], // a new high: follows
      [1.1018, 110110],
    ];
    for (const [price, stop] of path) {
      f.tick('EURUSD', price);
      expect(stopOf(o.id), `after ${price}`).toBe(stop);
      expect(f.up.engine.order(o.id)!.status).toBe(OrderStatus.Holding);
    }
    f.tick('EURUSD', 1.1012); // just above the stop
    expect(f.up.engine.order(o.id)!.status).toBe(OrderStatus.Holding);
    f.tick('EURUSD', 1.1009); // crossed: closed at this tick's price
    const row = f.up.engine.order(o.id)!;
    // (1.1009 − 1.1) × 100,000 = +90: a trailing stop can lock in a profit.
    expect(row).toMatchObject({ status: OrderStatus.Closed, close_reason: CloseReason.StopLoss, close_price: 110090, profit: 90 * M });
    expect(row.stop_loss).toBe(110110);
    expect(closed).toEqual([{ userId: user, orderIds: [o.id], reason: CloseReason.StopLoss }]);
    expect(f.up.engine.figures(user)).toEqual({ balance: (100000 - 5 + 90) * M, lockBalance: 0, floatingProfit: 0 });
    f.checkInvariants(user);
  });

  test('a sell: the stop follows the price down, never back up; a gap past it fills at the gap price', () => {
    const user = f.demoUser();
    const o = f.up.engine.submit(user, order({ side: Side.Sell, lots: '0.1', trailDistance: '0.001' }));
    expect(o.stop_loss).toBe(110100);
    for (const [price, stop] of [
      [1.0992, 110020],
      [1.0998, 110020],
      [1.0985, 109950],
      [1.0994, 109950],
    ] as const) {
      f.tick('EURUSD', price);
      expect(stopOf(o.id), `after ${price}`).toBe(stop);
    }
    f.tick('EURUSD', 1.1); // gaps past 1.0995
    // (1.1 − 1.1) × 10,000: closed flat, at the gap's price.
    expect(f.up.engine.order(o.id)).toMatchObject({ status: OrderStatus.Closed, close_reason: CloseReason.StopLoss, close_price: 110000 });
    expect(f.up.engine.order(o.id)!.profit).toBe(0);
    f.checkInvariants(user);
  });

  test('a typed stop nearer than the distance is kept until the trail passes it; take-profit still fires', () => {
    const user = f.demoUser();
    const o = f.up.engine.submit(user, order({ stopLoss: '1.0990', takeProfit: '1.1040', trailDistance: '0.0020' }));
    expect(o.stop_loss).toBe(109900);
    f.tick('EURUSD', 1.1008); // 1.0988 would be further: the typed stop stays
    expect(stopOf(o.id)).toBe(109900);
    f.tick('EURUSD', 1.1025);
    expect(stopOf(o.id)).toBe(110050);
    f.tick('EURUSD', 1.1041);
    expect(f.up.engine.order(o.id)).toMatchObject({ status: OrderStatus.Closed, close_reason: CloseReason.TakeProfit });
  });

  test('a pending order trails from the tick that fills it', () => {
    const user = f.demoUser();
    const o = f.up.engine.submit(user, order({ entryMode: EntryMode.Pending, targetPrice: '1.095', trailDistance: '0.0005' }));
    expect(o).toMatchObject({ status: OrderStatus.Pending, trail_distance: 50, stop_loss: null });
    f.tick('EURUSD', 1.096);
    expect(stopOf(o.id)).toBeNull();
    f.tick('EURUSD', 1.0948);
    expect(f.up.engine.order(o.id)).toMatchObject({ status: OrderStatus.Holding, open_price: 109480, stop_loss: 109430 });
    f.tick('EURUSD', 1.0951);
    expect(stopOf(o.id)).toBe(109460);
  });

  test('setStops starts, changes and ends the trail', () => {
    const user = f.demoUser();
    const o = f.up.engine.submit(user, order({}));
    f.tick('EURUSD', 1.1004);
    expect(f.up.engine.setStops(user, o.id, null, null, '0.001')).toMatchObject({ trail_distance: 100, stop_loss: 109940 });
    f.tick('EURUSD', 1.101);
    expect(stopOf(o.id)).toBe(110000);
    // Off (null): the stop stays where the trail left it, and no longer moves.
    expect(f.up.engine.setStops(user, o.id, null, '1.1', null)).toMatchObject({ trail_distance: null, stop_loss: 110000 });
    f.tick('EURUSD', 1.102);
    expect(stopOf(o.id)).toBe(110000);
    f.checkInvariants(user);
  });

  test('a tick that does not move a stop writes nothing; one that moves stops writes them once', () => {
    const user = f.demoUser();
    const a = f.up.engine.submit(user, order({ trailDistance: '0.0020' }));
    const b = f.up.engine.submit(user, order({ side: Side.Sell, trailDistance: '0.0020' }));
    const writes = countOrderWrites();
    // Down, then up below the high: the buy's stop holds still (the sell's moves down on the way down only).
    f.tick('EURUSD', 1.0999);
    expect(writes()).toBe(1); // the sell's stop
    f.tick('EURUSD', 1.1);
    f.tick('EURUSD', 1.0999);
    f.tick('EURUSD', 1.0999);
    expect(writes()).toBe(1);
    f.tick('EURUSD', 1.1001); // the buy's new high
    expect(writes()).toBe(2);
    expect([stopOf(a.id), stopOf(b.id)]).toEqual([109810, 110190]);
  });

  test('a restart keeps the moved stop and the distance, and the trail goes on from there', () => {
    const user = f.demoUser();
    const o = f.up.engine.submit(user, order({ trailDistance: '0.0020' }));
    f.tick('EURUSD', 1.103);
    expect(stopOf(o.id)).toBe(110100);
    f.restart();
    f.up.engine.onClosed((e) => closed.push(e));
    expect(f.up.engine.order(o.id)).toMatchObject({ status: OrderStatus.Holding, stop_loss: 110100, trail_distance: 200 });
    // A lower price after the restart does not pull the stop back.
    f.tick('EURUSD', 1.102);
    expect(stopOf(o.id)).toBe(110100);
    f.tick('EURUSD', 1.1035);
    expect(stopOf(o.id)).toBe(110150);
    f.tick('EURUSD', 1.1015);
    expect(f.up.engine.order(o.id)).toMatchObject({ status: OrderStatus.Closed, close_reason: CloseReason.StopLoss, profit: 150 * M });
    expect(closed).toEqual([{ userId: user, orderIds: [o.id], reason: CloseReason.StopLoss }]);
    const released = f.up.db
      .prepare('SELECT value FROM account_log WHERE order_id = ? AND type = ?')
      .all(o.id, LedgerType.MarginReleased) as { value: number }[];
    expect(released).toEqual([{ value: 1100 * M }]);
    f.checkInvariants(user);
  });

  test('a partial close keeps the trail on the rest; the closed part records the distance', () => {
    const user = f.demoUser();
    const o = f.up.engine.submit(user, order({ trailDistance: '0.0020' }));
    f.tick('EURUSD', 1.102);
    const part = f.up.engine.close(user, o.id, '0.4');
    expect(part).toMatchObject({ parent_id: o.id, trail_distance: 200, stop_loss: 110000 });
    f.tick('EURUSD', 1.1025);
    expect(f.up.engine.order(o.id)).toMatchObject({ lots: 600, stop_loss: 110050, trail_distance: 200 });
    f.checkInvariants(user);
  });
});
