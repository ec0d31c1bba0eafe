/** The server SVG's chart types (issue 40): each a few paths (decision 0029), placed where the prices are. */
import { renderToString } from 'react-dom/server';
import { expect, test } from 'vitest';
import { formatPrice } from '~/utils/format';
import type { Candle } from './candles';
import type { ChartType } from './chart-types';
import { chartLayout, SvgCandles } from './svg-candles';

const START = Date.UTC(2025, 6, 1, 12) / 1000;
function series(count: number): Candle[] {
  return Array.from({ length: count }, (_, i) => {
    const open = 70_000 + i * 10;
    const close = i % 2 === 0 ? open + 25 : open - 25;
    return { time: START + i * 900, open, high: Math.max(open, close) + 5, low: Math.min(open, close) - 5, close };
  });
}
const price2 = (p: number) => formatPrice(p, 2, 'en');
const draw = (type: ChartType, candles = series(80)) =>
  renderToString(
    <SvgCandles candles={candles} period="15min" precision={2} locale="en" label="BTC/USD" formatPrice={price2} type={type} />,
  );
const paths = (svg: string, className: string) =>
  [...svg.matchAll(new RegExp(`<path class="${className}" d="([^"]*)"`, 'g'))].map((m) => m[1]!);
const marksIn = (svg: string) =>
  /<g class="chart-candles"[^>]*>(.*?)<\/g><g class="chart-axis"|<g class="chart-candles"[^>]*>(.*)/s.exec(svg)![0];

test('candles by default: the bodies and wicks, no line, bars or area', () => {
  const svg = marksIn(draw('candles'));
  expect(svg).toContain('class="bodies"');
  expect(paths(svg, 'price-line')).toHaveLength(0);
  expect(svg).not.toContain('ohlc');
  expect(svg).not.toContain('price-area');
});

test('OHLC bars: one path per direction and the last bar apart; a bar is its high–low stroke and two ticks', () => {
  const candles = series(80);
  const svg = marksIn(draw('bars', candles));
  const up = paths(svg, 'ohlc up');
  const down = paths(svg, 'ohlc down');
  // Rising and falling bars before the last, then the last one (here a falling one: 79 is odd).
  expect(up).toHaveLength(1);
  expect(down).toHaveLength(2);
  expect(svg).not.toContain('class="bodies"');
  // 64 bars shown: three moves each.
  const moves = [...up, ...down].join('').match(/M/g)!.length;
  expect(moves).toBe(64 * 3);
  // The last bar's open tick is on its left at the open's height, its close tick on its right at the close's.
  const layout = chartLayout(candles, 2, price2, []);
  const last = layout.candles.at(-1)!;
  expect(down[1]).toContain(`H${last.x}M${last.x} ${layout.y(candles.at(-1)!.close)}H`);
  expect(down[1]).toContain(` ${layout.y(candles.at(-1)!.open)}H${last.x}`);
});

test('line: the closes joined, the last segment (the one live prices move) apart; area adds its fill below', () => {
  const candles = series(80);
  const layout = chartLayout(candles, 2, price2, []);
  const line = paths(marksIn(draw('line', candles)), 'price-line');
  expect(line).toHaveLength(2);
  expect(line[0]!.match(/[ML]/g)).toHaveLength(63);
  const [a, b] = layout.candles.slice(-2);
  expect(line[1]).toBe(`M${a!.x} ${a!.closeY}L${b!.x} ${b!.closeY}`);
  expect(a!.closeY).toBe(layout.y(candles.at(-2)!.close));
  const area = marksIn(draw('area', candles));
  const fills = paths(area, 'price-area');
  expect(fills).toHaveLength(2);
  // The fill closes down to the plot's bottom.
  expect(fills[0]).toMatch(new RegExp(`^M[\\d.]+ ${layout.plotBottom}L`));
  expect(fills[0]!.endsWith('Z')).toBe(true);
  expect(paths(area, 'price-line')).toHaveLength(2);
  expect(area).not.toContain('class="bodies"');
});

test('one candle: a line has no segment to draw (the last price’s mark shows it), bars draw the one bar', () => {
  const line = draw('line', series(1));
  expect(paths(marksIn(line), 'price-line')).toHaveLength(0);
  expect(line).toContain('chart-last');
  expect(paths(marksIn(draw('bars', series(1))), 'ohlc up')).toHaveLength(1);
});
