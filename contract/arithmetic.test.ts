import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import {
  equityMicro,
  feeMicro,
  freeMarginMicro,
  isStopOut,
  lotShare,
  lotsAllowed,
  marginMicro,
  profitMicro,
  quoteToUsd,
  riskRateBasisPoints,
  stopsValid,
  trailDistanceRefusal,
  trailedStop,
  withdrawalFeeMicro,
  type InstrumentTerms,
} from './arithmetic';
import { MarginMode, Side, TradeFeeType, WithdrawFeeType } from './enums';

const M = 1_000_000;
const eurusd: InstrumentTerms = { precision: 5, contractSize: 100_000, marginMode: MarginMode.Leverage, feeRateMicro: 5 * M };
const usdjpy: InstrumentTerms = { precision: 3, contractSize: 100_000, marginMode: MarginMode.Leverage, feeRateMicro: 5 * M };
const silver: InstrumentTerms = { precision: 3, contractSize: 50, marginMode: MarginMode.Fixed, feeRateMicro: 6 * M };

describe('margin (spec §9)', () => {
  test('leverage mode: lots × units × price ÷ leverage', () => {
    // 1 lot EURUSD at 1.08450, 1:100 → 1,084.50 USD
    expect(marginMicro(eurusd, 1000, 108450, 100)).toBe(1084.5 * M);
    // 0.01 lot → 10.845 USD
    expect(marginMicro(eurusd, 10, 108450, 100)).toBe(10.845 * M);
  });
  test('fixed mode: lots × units per lot, whatever the price and leverage', () => {
    expect(marginMicro(silver, 2000, 31250, 20)).toBe(100 * M);
    expect(marginMicro(silver, 2000, 99999, 50)).toBe(100 * M);
  });
  test('a non-USD quote is converted at the current price: USDJPY margin is in USD', () => {
    // 1 lot × 100,000 × 150 JPY ÷ 100 = 150,000 JPY = 1,000 USD at 150
    expect(marginMicro(usdjpy, 1000, 150_000, 100, quoteToUsd('divide', 150_000, 3))).toBe(1000 * M);
  });
});

describe('handling fee (spec §9)', () => {
  test('trade_fee_type 1: lots × rate', () => {
    expect(feeMicro(eurusd, TradeFeeType.PerLot, 250, 0)).toBe(1.25 * M);
  });
  test('otherwise: margin × rate', () => {
    const terms = { ...eurusd, feeRateMicro: 5000 }; // 0.5 %
    expect(feeMicro(terms, TradeFeeType.OfMargin, 1000, 1084.5 * M)).toBe(5.4225 * M);
  });
});

describe('profit', () => {
  test('buy gains when the price rises; sell gains when it falls', () => {
    expect(profitMicro(eurusd, Side.Buy, 1000, 108450, 108550)).toBe(100 * M);
    expect(profitMicro(eurusd, Side.Sell, 1000, 108450, 108550)).toBe(-100 * M);
  });
  test('USDJPY profit is JPY turned into USD at the exit price', () => {
    // (151 − 150) × 100,000 = 100,000 JPY ÷ 151 = 662.251656 USD
    expect(profitMicro(usdjpy, Side.Buy, 1000, 150_000, 151_000, quoteToUsd('divide', 151_000, 3))).toBe(662_251_656);
  });
  test('buy and sell of the same position are exact opposites', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 100_000 }),
        fc.integer({ min: 1, max: 10_000_000 }),
        fc.integer({ min: 1, max: 10_000_000 }),
        (lots, a, b) => {
          expect(profitMicro(eurusd, Side.Buy, lots, a, b) + profitMicro(eurusd, Side.Sell, lots, a, b)).toBe(0);
        },
      ),
    );
  });
});

describe('account figures', () => {
  const f = { balance: 1000 * M, lockBalance: 2000 * M, floatingProfit: -500 * M };
  test('equity, free margin and risk rate', () => {
    expect(equityMicro(f)).toBe(2500 * M);
    expect(freeMarginMicro(f)).toBe(500 * M);
    expect(riskRateBasisPoints(f)).toBe(12500); // 125.00 %
    expect(riskRateBasisPoints({ ...f, lockBalance: 0 })).toBeNull();
  });
  test('stop-out at 50 % exactly, not above', () => {
    expect(isStopOut({ balance: 0, lockBalance: 2000 * M, floatingProfit: -1000 * M })).toBe(true);
    expect(isStopOut({ balance: 0, lockBalance: 2000 * M, floatingProfit: -999_999_999 })).toBe(false);
    expect(isStopOut({ balance: 0, lockBalance: 0, floatingProfit: 0 })).toBe(false);
  });
});

describe('withdrawal fee', () => {
  test('fixed or a percentage of the amount, never more than the amount', () => {
    expect(withdrawalFeeMicro(WithdrawFeeType.Fixed, 5 * M, 100 * M)).toBe(5 * M);
    expect(withdrawalFeeMicro(WithdrawFeeType.Percent, 2.5 * M, 200 * M)).toBe(5 * M);
    expect(withdrawalFeeMicro(WithdrawFeeType.Fixed, 5 * M, 3 * M)).toBe(3 * M);
  });
});

describe('order rules', () => {
  test('lots: above zero, at least the minimum, whole steps', () => {
    expect(lotsAllowed(10, 10, 10)).toBe(true);
    expect(lotsAllowed(0, 10, 10)).toBe(false);
    expect(lotsAllowed(15, 10, 10)).toBe(false);
    expect(lotsAllowed(5, 10, 5)).toBe(false);
  });
  test('take-profit above and stop-loss below for a buy, mirrored for a sell; unset is fine', () => {
    expect(stopsValid(Side.Buy, 100, 110, 90)).toEqual({ takeProfit: true, stopLoss: true });
    expect(stopsValid(Side.Buy, 100, 90, 110)).toEqual({ takeProfit: false, stopLoss: false });
    expect(stopsValid(Side.Sell, 100, 90, 110)).toEqual({ takeProfit: true, stopLoss: true });
    expect(stopsValid(Side.Sell, 100, null, null)).toEqual({ takeProfit: true, stopLoss: true });
  });
});

describe('lotShare', () => {
  test('the part and the rest add up to the whole, rounded once, half away from zero', () => {
    expect(lotShare(550_000_000, 200, 500)).toBe(220_000_000);
    // 1 micro split 1 of 2 lots: 0.5 rounds away from zero; the rest keeps 0.
    expect(lotShare(1, 1, 2)).toBe(1);
    expect(lotShare(-1, 1, 2)).toBe(-1);
    for (const [amount, part, whole] of [
      [7, 1, 3],
      [2_500_001, 333, 1000],
      [-39_000_000, 100, 300],
    ] as const) {
      const share = lotShare(amount, part, whole);
      expect(share + (amount - share)).toBe(amount);
      expect(Math.abs(share * whole - amount * part) * 2).toBeLessThanOrEqual(whole);
    }
    expect(() => lotShare(10, 4, 3)).toThrow(RangeError);
  });
});

describe('trailedStop', () => {
  test('a buy: distance below the price, only ever up; a sell: above it, only ever down; an absent stop is set', () => {
    expect(trailedStop(Side.Buy, null, 110000, 200)).toBe(109800);
    expect(trailedStop(Side.Buy, 109800, 110050, 200)).toBe(109850);
    expect(trailedStop(Side.Buy, 109850, 109900, 200)).toBe(109850);
    expect(trailedStop(Side.Sell, null, 110000, 200)).toBe(110200);
    expect(trailedStop(Side.Sell, 110200, 109900, 200)).toBe(110100);
    expect(trailedStop(Side.Sell, 110100, 110300, 200)).toBe(110100);
    // A buy whose candidate would be 0 or below keeps what it has.
    expect(trailedStop(Side.Buy, null, 200, 200)).toBeNull();
    expect(trailedStop(Side.Buy, 50, 150, 200)).toBe(50);
  });

  test('never against the trader, over any path of prices', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(Side.Buy, Side.Sell),
        fc.integer({ min: 1, max: 10_000 }),
        fc.array(fc.integer({ min: 1, max: 1_000_000 }), { minLength: 1, maxLength: 50 }),
        (side, distance, prices) => {
          let stop: number | null = null;
          for (const price of prices) {
            const next = trailedStop(side, stop, price, distance);
            if (stop !== null) expect(side === Side.Buy ? next! >= stop : next! <= stop).toBe(true);
            // Never nearer to the price than the distance, when it moved at this price.
            if (next !== stop) expect(Math.abs(price - next!)).toBe(distance);
            stop = next;
          }
        },
      ),
    );
  });
});

describe('trailDistanceRefusal', () => {
  test('above 0 and less than half the reference price', () => {
    expect(trailDistanceRefusal(0, 110000)).toBe('TrailDistanceInvalid');
    expect(trailDistanceRefusal(-5, 110000)).toBe('TrailDistanceInvalid');
    expect(trailDistanceRefusal(1, 110000)).toBeNull();
    expect(trailDistanceRefusal(54999, 110000)).toBeNull();
    expect(trailDistanceRefusal(55000, 110000)).toBe('TrailDistanceTooLarge');
  });
});
