import { describe, expect, test } from 'vitest';
import { ordersUrl, positiveIntOf, tabOf } from './orders-url';

describe('the orders URL', () => {
  test('a tab is 1 (holding), 0 (pending) or 3 (history); anything else is holding', () => {
    expect(tabOf('0')).toBe(0);
    expect(tabOf('3')).toBe(3);
    expect(tabOf('1')).toBe(1);
    for (const other of [null, '', '2', '4', 'x', '0.5', '-1']) expect(tabOf(other)).toBe(1);
  });

  test('page and detail ids are positive whole numbers', () => {
    expect(positiveIntOf('12')).toBe(12);
    for (const bad of [null, '', '0', '-3', '1.5', 'abc', '1e99']) expect(positiveIntOf(bad)).toBeNull();
    expect(positiveIntOf('101', 100)).toBeNull();
  });

  test('the first page and a closed popup leave their parameters out', () => {
    expect(ordersUrl({ type: 1 })).toBe('/order?type=1');
    expect(ordersUrl({ type: 0, page: 2 })).toBe('/order?type=0&page=2');
    expect(ordersUrl({ type: 3, page: 1, detail: 7 })).toBe('/order?type=3&detail=7');
  });
});
