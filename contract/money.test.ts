import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { divRound, formatUnits, mulDiv, parseUnits, roundToUnits } from './money';

/** The rule, written the slow and obvious way: exact rational, then half away from zero. */
function reference(factors: number[], divisors: number[]): bigint {
  const n = factors.reduce((a, b) => a * BigInt(b), 1n);
  const d = divisors.reduce((a, b) => a * BigInt(b), 1n);
  const sign = n < 0n !== d < 0n ? -1n : 1n;
  const an = n < 0n ? -n : n;
  const ad = d < 0n ? -d : d;
  const q = an / ad;
  const r = an % ad;
  return sign * (2n * r >= ad ? q + 1n : q);
}

describe('mulDiv: one rounding, half away from zero, exact', () => {
  test('halves round away from zero on both sides', () => {
    expect(mulDiv([5], [10])).toBe(1);
    expect(mulDiv([-5], [10])).toBe(-1);
    expect(mulDiv([15], [10])).toBe(2);
    expect(mulDiv([-15], [10])).toBe(-2);
    expect(mulDiv([14], [10])).toBe(1);
    expect(mulDiv([-14], [10])).toBe(-1);
    expect(mulDiv([0], [7])).toBe(0);
    expect(Object.is(mulDiv([-1], [3]), -0)).toBe(false);
  });

  test('matches the BigInt reference for small and huge operands alike', () => {
    const int = fc.oneof(fc.integer({ min: -1_000_000, max: 1_000_000 }), fc.integer({ min: -(2 ** 40), max: 2 ** 40 }));
    const divisor = fc.oneof(
      fc.integer({ min: 1, max: 1_000_000 }),
      fc.integer({ min: -(2 ** 30), max: -1 }),
      fc.integer({ min: 1, max: 2 ** 40 }),
    );
    fc.assert(
      fc.property(fc.array(int, { minLength: 1, maxLength: 4 }), fc.array(divisor, { minLength: 1, maxLength: 3 }), (factors, divisors) => {
        const expected = reference(factors, divisors);
        if (expected > BigInt(Number.MAX_SAFE_INTEGER) || expected < -BigInt(Number.MAX_SAFE_INTEGER)) {
          expect(() => mulDiv(factors, divisors)).toThrow(RangeError);
        } else {
          expect(mulDiv(factors, divisors)).toBe(Number(expected));
        }
      }),
      { numRuns: 2000 },
    );
  });

  test('divRound agrees with the reference', () => {
    fc.assert(
      fc.property(fc.bigInt({ min: -(10n ** 30n), max: 10n ** 30n }), fc.bigInt({ min: 1n, max: 10n ** 20n }), (n, d) => {
        const sign = n < 0n ? -1n : 1n;
        const an = n < 0n ? -n : n;
        const q = an / d;
        expect(divRound(n, d)).toBe(sign * (2n * (an % d) >= d ? q + 1n : q));
      }),
    );
  });
});

describe('decimal text ↔ integer units', () => {
  test('parses exactly and refuses more places than the unit has', () => {
    expect(parseUnits('1.08450', 5)).toBe(108450);
    expect(parseUnits('0.01', 3)).toBe(10);
    expect(parseUnits('100000', 6)).toBe(100_000_000_000);
    expect(parseUnits('1.234567', 6)).toBe(1_234_567);
    expect(parseUnits('1.2345670', 6)).toBe(1_234_567);
    expect(parseUnits('1.2345678', 6)).toBeNull();
    expect(parseUnits('abc', 2)).toBeNull();
    expect(parseUnits('1e5', 2)).toBeNull();
    expect(parseUnits(0.1, 6)).toBe(100_000);
  });

  test('format then parse is the identity', () => {
    fc.assert(
      fc.property(fc.integer({ min: -(2 ** 50), max: 2 ** 50 }), fc.integer({ min: 0, max: 8 }), (units, places) => {
        expect(parseUnits(formatUnits(units, places), places)).toBe(units);
      }),
    );
  });

  test('roundToUnits rounds a computed number half away from zero', () => {
    expect(roundToUnits(1.0000005, 6)).toBe(1_000_001);
    expect(roundToUnits(-2.5, 0)).toBe(-3);
    expect(roundToUnits(2.4, 0)).toBe(2);
  });
});
