/** Money at a take profit or stop loss, and distances in pips (contract/arithmetic.ts). */
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import {
  conversionAtStop,
  moneyAtStopMicro,
  pipDecimals,
  pipsBetween,
  profitMicro,
  quoteToUsd,
  sideOfStop,
  type InstrumentTerms,
  type StopConversion,
} from './arithmetic';
import { MarginMode, Side } from './enums';

const M = 1_000_000;
const eurusd: InstrumentTerms = { precision: 5, contractSize: 100_000, marginMode: MarginMode.Leverage, feeRateMicro: 5 * M };
const usdjpy: InstrumentTerms = { precision: 3, contractSize: 100_000, marginMode: MarginMode.Leverage, feeRateMicro: 5 * M };
const gold: InstrumentTerms = { precision: 2, contractSize: 100, marginMode: MarginMode.Leverage, feeRateMicro: 10 * M };
const USD: StopConversion = { kind: 'usd', price: null, precision: 0 };
/** USDJPY converts its yen through its own price: at the stop's price. */
const SELF_DIVIDE: StopConversion = { kind: 'divide', price: null, precision: 3 };

describe('money at a stop', () => {
  test('EURUSD: 0.10 lot bought at 1.09000 makes 50 USD at 1.09500 and loses 30 USD at 1.08700', () => {
    expect(moneyAtStopMicro(eurusd, Side.Buy, 100, 109_000, 109_500, USD)).toBe(50 * M);
    expect(moneyAtStopMicro(eurusd, Side.Buy, 100, 109_000, 108_700, USD)).toBe(-30 * M);
    // The same stops of a sell are the other way round.
    expect(moneyAtStopMicro(eurusd, Side.Sell, 100, 109_000, 108_700, USD)).toBe(30 * M);
  });

  test('USDJPY: yen turned into USD at the stop price itself, as the engine does when it closes there', () => {
    // (151 − 150) × 100,000 = 100,000 JPY ÷ 151 = 662.251656 USD
    expect(moneyAtStopMicro(usdjpy, Side.Buy, 1000, 150_000, 151_000, SELF_DIVIDE)).toBe(662_251_656);
    // (149 − 150) × 100,000 = −100,000 JPY ÷ 149 = −671.140940 USD (half away from zero)
    expect(moneyAtStopMicro(usdjpy, Side.Buy, 1000, 150_000, 149_000, SELF_DIVIDE)).toBe(-671_140_940);
  });

  test('through another instrument, at that instrument’s price now', () => {
    // A yen-quoted cross converted through USDJPY at 150.000: 100,000 JPY is 666.666667 USD.
    const viaUsdJpy: StopConversion = { kind: 'divide', price: 150_000, precision: 3 };
    expect(moneyAtStopMicro(usdjpy, Side.Buy, 1000, 160_000, 161_000, viaUsdJpy)).toBe(666_666_667);
    expect(conversionAtStop(viaUsdJpy, 999_999)).toEqual(quoteToUsd('divide', 150_000, 3));
    // A USD-per-unit converter multiplies: 1,000 CHF-like units at 1.10000 are 1,100 USD.
    const multiply: StopConversion = { kind: 'multiply', price: 110_000, precision: 5 };
    expect(moneyAtStopMicro(eurusd, Side.Sell, 1000, 90_000, 89_000, multiply)).toBe(1100 * M);
  });

  test('is the profit function at the stop, with the conversion at the stop: what the close will realise', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(Side.Buy, Side.Sell),
        fc.integer({ min: 1, max: 100_000 }),
        fc.integer({ min: 50_000, max: 300_000 }),
        fc.integer({ min: 50_000, max: 300_000 }),
        (side, lots, entry, stop) => {
          const conversion = quoteToUsd('divide', stop, 3);
          expect(moneyAtStopMicro(usdjpy, side, lots, entry, stop, SELF_DIVIDE)).toBe(
            profitMicro(usdjpy, side, lots, entry, stop, conversion),
          );
        },
      ),
    );
  });

  test('a stop at 0 or below is no price', () => {
    expect(() => moneyAtStopMicro(eurusd, Side.Buy, 10, 109_000, 0, USD)).toThrow(RangeError);
  });
});

describe('the sign rules', () => {
  const terms = fc.constantFrom(
    { terms: eurusd, conversion: USD },
    { terms: usdjpy, conversion: SELF_DIVIDE },
    { terms: gold, conversion: USD },
  );
  // Lots from the smallest step of 0.01 up to 100, prices on a realistic scale.
  const lots = fc.integer({ min: 10, max: 100_000 });
  const price = fc.integer({ min: 10_000, max: 2_000_000 });

  test('a take profit on its side of the price always shows a profit, a stop loss always a loss', () => {
    fc.assert(
      fc.property(
        terms,
        fc.constantFrom(Side.Buy, Side.Sell),
        lots,
        price,
        fc.integer({ min: 1, max: 1_000_000 }),
        (t, side, l, ref, gap) => {
          // Stops within half the price either way: a yen price near 0 converts to absurd dollars.
          const distance = 1 + (gap % Math.floor(ref / 2));
          const up = ref + distance;
          const down = ref - distance;
          // A buy's take profit is above the price, a sell's below; stop losses the other way round.
          const takeProfit = side === Side.Buy ? up : down;
          const stopLoss = side === Side.Buy ? down : up;
          expect(sideOfStop('takeProfit', ref, takeProfit)).toBe(side);
          expect(sideOfStop('stopLoss', ref, stopLoss)).toBe(side);
          expect(moneyAtStopMicro(t.terms, side, l, ref, takeProfit, t.conversion)).toBeGreaterThan(0);
          expect(moneyAtStopMicro(t.terms, side, l, ref, stopLoss, t.conversion)).toBeLessThan(0);
        },
      ),
    );
  });

  test('for lots L the money is L/step times that of one step, within the one rounding', () => {
    const step = 10; // 0.01 lot
    fc.assert(
      fc.property(
        terms,
        fc.constantFrom(Side.Buy, Side.Sell),
        fc.integer({ min: 1, max: 1000 }),
        price,
        price,
        (t, side, k, entry, stop) => {
          const one = moneyAtStopMicro(t.terms, side, step, entry, stop, t.conversion);
          const many = moneyAtStopMicro(t.terms, side, k * step, entry, stop, t.conversion);
          // Each figure is within half a micro-dollar of the exact amount: k of them within k/2, plus 1/2.
          expect(Math.abs(many - k * one) * 2).toBeLessThanOrEqual(k + 1);
        },
      ),
    );
  });

  test('a buy and a sell of the same stop are exact opposites', () => {
    fc.assert(
      fc.property(terms, lots, price, price, (t, l, entry, stop) => {
        const buy = moneyAtStopMicro(t.terms, Side.Buy, l, entry, stop, t.conversion);
        const sell = moneyAtStopMicro(t.terms, Side.Sell, l, entry, stop, t.conversion);
        expect(buy + sell).toBe(0);
      }),
    );
  });

  test('no side for a stop at the price itself', () => {
    expect(sideOfStop('takeProfit', 100, 100)).toBeNull();
    expect(sideOfStop('takeProfit', 100, 101)).toBe(Side.Buy);
    expect(sideOfStop('stopLoss', 100, 101)).toBe(Side.Sell);
  });
});

describe('pips', () => {
  test('ten points a pip for 5 and 3 decimals, one otherwise', () => {
    expect(pipDecimals(5)).toBe(1);
    expect(pipDecimals(3)).toBe(1);
    expect(pipDecimals(2)).toBe(0);
    expect(pipsBetween(5, 109_000, 109_500)).toBe('50.0');
    expect(pipsBetween(5, 109_500, 109_000)).toBe('50.0');
    expect(pipsBetween(5, 109_000, 109_005)).toBe('0.5');
    expect(pipsBetween(3, 150_000, 151_000)).toBe('100.0');
    expect(pipsBetween(2, 200_000, 201_000)).toBe('1000');
    expect(pipsBetween(5, 109_000, 109_000)).toBe('0.0');
  });
});
