import { renderToStaticMarkup } from 'react-dom/server';
import { expect, test } from 'vitest';
import { Sparkline, SPARKLINE_POINTS, thinPoints } from './sparkline';

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

test('a tick that moves the last point by less than half a pixel leaves the drawn line as it was', () => {
  const day = Array.from({ length: SPARKLINE_POINTS }, (_, i) => 1.1 + (i % 5) * 0.0025); // a range of 0.01
  const drawn = (last: number) => renderToStaticMarkup(<Sparkline points={[...day.slice(0, -1), last]} trend="up" />);
  // 24 px of height for a range of 0.01: a pip (0.0001) is 0.24 px.
  expect(drawn(1.1051)).toBe(drawn(1.105));
  // Three pips are 0.72 px: the line moves.
  expect(drawn(1.1053)).not.toBe(drawn(1.105));
  // Coordinates are whole or half pixels.
  expect(
    drawn(1.1053)
      .match(/[\d.]+/g)!
      .filter((n) => (Number(n) * 2) % 1 !== 0),
  ).toEqual([]);
});
