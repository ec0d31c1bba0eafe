import { expect, test } from 'vitest';
import { SPARKLINE_POINTS, thinPoints } from './sparkline';

test('a long line keeps 24 evenly spread points with its first and last', () => {
  const points = Array.from({ length: 48 }, (_, i) => i);
  const thin = thinPoints(points);
  expect(thin).toHaveLength(SPARKLINE_POINTS);
  expect(thin[0]).toBe(0);
  expect(thin.at(-1)).toBe(47);
  // Evenly spread: every gap is 2 or 3 of the original points.
  for (let i = 1; i < thin.length; i++) expect([2, 3]).toContain(thin[i]! - thin[i - 1]!);
});

test('a short line is kept whole (a copy)', () => {
  const points = [3, 1, 2];
  expect(thinPoints(points)).toEqual(points);
  expect(thinPoints(points)).not.toBe(points);
  expect(thinPoints([])).toEqual([]);
});
