import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { LANGUAGE_TAGS } from '#contract/languages';
import { formatWithSymbols, readNumberSymbols } from './number-symbols';

const LOCALES = Object.values(LANGUAGE_TAGS);
const intl = (locale: string, min: number, max: number, signed: boolean) =>
  new Intl.NumberFormat(locale, { minimumFractionDigits: min, maximumFractionDigits: max, signDisplay: signed ? 'exceptZero' : 'auto' });

describe('numbers without Intl in the browser', () => {
  it('writes what Intl writes, in every language of the app', () => {
    const symbols = new Map(LOCALES.map((l) => [l, readNumberSymbols(l)]));
    fc.assert(
      fc.property(
        fc.constantFrom(...LOCALES),
        fc.oneof(
          fc.double({ min: -1e12, max: 1e12, noNaN: true }),
          // prices and money near the rounding edges
          fc.integer({ min: -10_000_000, max: 10_000_000 }).map((n) => n / 1000),
          fc.integer({ min: -2_000_000, max: 2_000_000 }).map((n) => n / 100_000 + 0.000005),
          fc.constantFrom(0, -0, 0.5, -0.5, 1.005, 1234, 12345, 1234567.891, -0.0001, 999.9995),
        ),
        fc.integer({ min: 0, max: 6 }),
        fc.integer({ min: 0, max: 6 }),
        fc.boolean(),
        (locale, value, a, b, signed) => {
          const [min, max] = a <= b ? [a, b] : [b, a];
          expect(formatWithSymbols(value, { min, max, signed }, symbols.get(locale)!)).toBe(intl(locale, min, max, signed).format(value));
        },
      ),
      { numRuns: 5000 },
    );
  });

  it('knows the separators, the grouping and the digits of languages that differ', () => {
    const price = (locale: string) => formatWithSymbols(1234567.125, { min: 2, max: 2 }, readNumberSymbols(locale));
    expect(price('en')).toBe('1,234,567.13');
    expect(price('de')).toBe('1.234.567,13');
    expect(price('hi')).toBe('12,34,567.13');
    expect(formatWithSymbols(1234, { min: 0, max: 0 }, readNumberSymbols('es'))).toBe('1234');
    expect(formatWithSymbols(-1.5, { min: 1, max: 1, signed: true }, readNumberSymbols('en'))).toBe('-1.5');
    expect(formatWithSymbols(0.001, { min: 2, max: 2, signed: true }, readNumberSymbols('en'))).toBe('0.00');
  });
});
