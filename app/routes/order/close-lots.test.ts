import { describe, expect, test } from 'vitest';
import { realisedByLots } from './close-lots';

describe('realisedByLots', () => {
  test('the share of the floating profit that the lots carry, exact', () => {
    expect(realisedByLots(65, '0.2', 0.5)).toBe(26);
    expect(realisedByLots(-65, '0.25', 0.5)).toBe(-32.5);
    expect(realisedByLots(0.03, '1', 3)).toBe(0.01);
    expect(realisedByLots(39, '0.3', 0.3)).toBe(39);
  });
  test('nothing for lots that are not a part of the position', () => {
    for (const text of ['', 'abc', '0', '0.6', '-0.1', '0.0001']) expect(realisedByLots(10, text, 0.5)).toBeNull();
  });
});
