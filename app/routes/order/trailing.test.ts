import { describe, expect, test } from 'vitest';
import type { Position } from '#contract/views';
import { OrderStatus, Side } from '#contract/enums';
import { shownStopLoss, trailsMovedLive } from './trailing';

const order = (o: Partial<Position>): Position =>
  ({
    id: 1,
    side: Side.Buy,
    status: OrderStatus.Holding,
    stopLoss: 1.098,
    trailDistance: 0.002,
    instrument: { symbol: 'EUR/USD', code: 'EURUSD', digits: 5 },
    ...o,
  }) as Position;

describe('shownStopLoss', () => {
  test('a buy follows the live mark up, never down; a sell down, never up', () => {
    expect(shownStopLoss(order({}), 1.1013)).toBe(1.0993);
    expect(shownStopLoss(order({}), 1.0999)).toBe(1.098);
    expect(shownStopLoss(order({ side: Side.Sell, stopLoss: 1.102 }), 1.0987)).toBe(1.1007);
    expect(shownStopLoss(order({ side: Side.Sell, stopLoss: 1.102 }), 1.1005)).toBe(1.102);
  });

  test('the loaded stop without a mark, without a trail, or off the holding tab', () => {
    expect(shownStopLoss(order({}), undefined)).toBe(1.098);
    expect(shownStopLoss(order({ trailDistance: 0 }), 1.2)).toBe(1.098);
    expect(shownStopLoss(order({ status: OrderStatus.Pending, stopLoss: 0 }), 1.2)).toBe(0);
  });

  test('no float drift: prices that are not exact in binary come out on the tick', () => {
    expect(shownStopLoss(order({ stopLoss: 0, trailDistance: 0.0003 }), 1.1001)).toBe(1.0998);
  });
});

test('trailsMovedLive: only when a mark carried a stop past the loaded one', () => {
  const list = [order({ id: 1 }), order({ id: 2, trailDistance: 0 })];
  expect(trailsMovedLive(list, () => 1.1)).toBe(false);
  expect(trailsMovedLive(list, (id) => (id === 1 ? 1.1001 : 1.5))).toBe(true);
  expect(trailsMovedLive(list, (id) => (id === 2 ? 1.5 : undefined))).toBe(false);
});
