import { describe, expect, test } from 'vitest';
import { onlyDetailChanged, ordersUrl, positiveIntOf, tabOf } from './orders-url';

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

  test('opening or closing a popup is the only change that skips a re-read', () => {
    const at = (path: string) => new URL(path, 'http://localhost');
    expect(onlyDetailChanged(at('/order?type=1&page=2'), at('/order?page=2&type=1&detail=7'))).toBe(true);
    expect(onlyDetailChanged(at('/order?type=1&detail=7'), at('/order?type=1'))).toBe(true);
    expect(onlyDetailChanged(at('/order?type=1&detail=7'), at('/order?type=1&detail=7'))).toBe(false);
    expect(onlyDetailChanged(at('/order?type=1'), at('/order?type=0&detail=7'))).toBe(false);
    expect(onlyDetailChanged(at('/order?type=1'), at('/trade?type=1&detail=7'))).toBe(false);
  });
});
