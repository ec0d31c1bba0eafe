import { describe, expect, test } from 'vitest';
import { addAlertSchema } from './schema';
import { sideFor } from './side';

describe('sideFor: the direction a typed price calls for', () => {
  test('above the current price rises to it, below falls to it, at it neither', () => {
    expect(sideFor('1.10500', 1.1, 5)).toBe('above');
    expect(sideFor('1.09', 1.1, 5)).toBe('below');
    expect(sideFor('1.1', 1.1, 5)).toBeNull();
    // Compared exactly at the product's decimals, not as floating point.
    expect(sideFor('1.10001', 1.1, 5)).toBe('above');
    expect(sideFor('0.3', 0.1 + 0.2, 1)).toBeNull();
  });

  test('no direction for what is not a positive price on the decimals', () => {
    for (const typed of ['', 'abc', '0', '-1', '1.123456']) expect(sideFor(typed, 1.1, 5)).toBeNull();
  });
});

describe('addAlertSchema', () => {
  const parse = (price: string, extra: Record<string, string> = {}) =>
    addAlertSchema(2).safeParse({ intent: 'add', code: 'XAUUSD', price, ...extra });
  const messages = (price: string) => {
    const r = parse(price);
    return r.success ? [] : r.error.issues.map((i) => i.message);
  };

  test('a positive price on the product decimals, an optional direction and a short note', () => {
    expect(parse('2400.5').success).toBe(true);
    expect(parse('2400.50', { direction: 'below', note: 'support' }).success).toBe(true);
    expect(parse('2400', { direction: 'sideways' }).success).toBe(false);
    expect(parse('2400', { note: 'x'.repeat(81) }).success).toBe(false);
  });

  test('each wrong price says what is wrong', () => {
    expect(messages('')).toEqual(['alerts:validation.priceRequired']);
    expect(messages('0')).toEqual(['alerts:validation.price']);
    expect(messages('-5')).toEqual(['alerts:validation.price']);
    expect(messages('2400.505')).toEqual(['alerts:validation.decimals']);
  });
});
