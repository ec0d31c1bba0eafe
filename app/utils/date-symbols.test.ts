import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CHART_TIMEZONE } from '#contract/enums';
import { LANGUAGE_TAGS } from '#contract/languages';
import { DATE_STYLES, formatWithPattern, readDatePattern, type DateStyle } from './date-symbols';

const LOCALES = Object.values(LANGUAGE_TAGS);
const STYLES = Object.keys(DATE_STYLES) as DateStyle[];

describe('dates without Intl in the browser', () => {
  it('writes what Intl writes in London time, in every language of the app and both styles', () => {
    const patterns = new Map(LOCALES.flatMap((l) => STYLES.map((s) => [`${l} ${s}`, readDatePattern(l, s)] as const)));
    const intl = new Map(
      LOCALES.flatMap((l) =>
        STYLES.map((s) => [`${l} ${s}`, new Intl.DateTimeFormat(l, { ...DATE_STYLES[s], timeZone: CHART_TIMEZONE })] as const),
      ),
    );
    fc.assert(
      fc.property(
        fc.constantFrom(...LOCALES),
        fc.constantFrom(...STYLES),
        fc.oneof(
          fc.integer({ min: Date.UTC(2000, 0, 1), max: Date.UTC(2060, 0, 1) }),
          // around midnight, noon and the clock changes
          fc.constantFrom(
            Date.UTC(2026, 2, 29, 0, 59, 59),
            Date.UTC(2026, 2, 29, 1),
            Date.UTC(2026, 9, 25, 0, 30),
            Date.UTC(2026, 9, 25, 1, 30),
          ),
          fc
            .integer({ min: 0, max: 400 })
            .map((d) => Date.UTC(2026, 0, 1) + d * 86_400_000 + [0, 11, 12, 23][d % 4]! * 3_600_000 - 1000 * (d % 2)),
        ),
        (locale, style, ms) => {
          const iso = new Date(ms).toISOString();
          expect(formatWithPattern(iso, patterns.get(`${locale} ${style}`)!)).toBe(intl.get(`${locale} ${style}`)!.format(ms));
        },
      ),
      { numRuns: 5000 },
    );
  });

  it('knows the orders, the clocks, the calendars and the digits of languages that differ', () => {
    const at = '2026-07-04T13:05:09.000Z'; // 14:05:09 in London (summer time)
    expect(formatWithPattern(at, readDatePattern('en', 'dateTime'))).toBe(
      new Intl.DateTimeFormat('en', { ...DATE_STYLES.dateTime, timeZone: CHART_TIMEZONE }).format(Date.parse(at)),
    );
    expect(formatWithPattern(at, readDatePattern('de', 'dateTime'))).toBe('04.07.26, 14:05:09');
    expect(formatWithPattern(at, readDatePattern('th', 'dateTime'))).toBe('4/7/69 14:05:09'); // Buddhist year 2569
    expect(formatWithPattern(at, readDatePattern('th', 'date'))).toContain('2569');
    expect(formatWithPattern(at, readDatePattern('ar', 'dateTime'))).toBe('4\u200f/7\u200f/2026، 2:05:09 م'); // right-to-left marks, a 12-hour clock
    expect(formatWithPattern(at, readDatePattern('en', 'date'))).toBe('Jul 4, 2026');
    expect(formatWithPattern('not a date', readDatePattern('en', 'date'))).toBe('');
  });
});
