import { renderToString } from 'react-dom/server';
import { describe, expect, test } from 'vitest';
import { formatInteger, formatPrice } from '~/utils/format';
import type { Candle } from './candles';
import { BOLL, type DrawnIndicator, type Indicator, KDJ, MACD_DEFAULT, RSI_DEFAULT } from './indicator-kinds';
import { drawnIndicator, indicatorSeries } from './indicators';
import { chartLayout, SHOWN_CANDLES, SvgCandles, VIEW_HEIGHT, VIEW_WIDTH } from './svg-candles';
import { linePath, PANE_HEIGHT, valuesAtShown } from './svg-indicators';

const START = Date.UTC(2025, 6, 1, 12) / 1000;
/** 15-minute candles along a wave, so every indicator moves. */
function series(count: number): Candle[] {
  return Array.from({ length: count }, (_, i) => {
    const open = 70_000 + Math.sin(i / 6) * 300;
    const close = 70_000 + Math.sin((i + 1) / 6) * 300;
    return { time: START + i * 900, open, high: Math.max(open, close) + 20, low: Math.min(open, close) - 20, close };
  });
}
const price2 = (p: number) => formatPrice(p, 2, 'en');
const label = (i: Indicator) => `${i.kind.toUpperCase()}`;
const drawn = (candles: Candle[], ...chosen: Indicator[]) =>
  chosen.map((i) => drawnIndicator(i, candles, { label: label(i), count: SHOWN_CANDLES, precision: 2 }));
const render = (candles: Candle[], indicators: DrawnIndicator[], locale = 'en') =>
  renderToString(
    <SvgCandles
      candles={candles}
      period="15min"
      precision={2}
      locale={locale}
      label="BTC/USD 15-minute candles"
      formatPrice={price2}
      indicators={indicators}
    />,
  );
/** The points of the path with this class: [x, y] per point. */
function points(html: string, className: string): [number, number][] {
  const d = html.match(new RegExp(`<path class="${className}" d="([^"]*)"`))?.[1] ?? '';
  return [...d.matchAll(/[ML]([\d.]+) ([\d.-]+)/g)].map((m) => [Number(m[1]), Number(m[2])]);
}

describe('the values at the shown candles', () => {
  const candles = series(100);
  const [ema] = drawn(candles, { kind: 'ema', period: 10 });

  test('start at the candle the server computed them from', () => {
    const values = valuesAtShown(
      ema!,
      candles.map((c) => c.time),
      SHOWN_CANDLES,
    );
    expect(values[0]).toEqual(ema!.lines[0]);
  });

  test('a live candle after the page’s has none yet, and the others keep their candles', () => {
    const moved = [...candles, { ...candles.at(-1)!, time: candles.at(-1)!.time + 900 }];
    const [line] = valuesAtShown(
      ema!,
      moved.map((c) => c.time),
      SHOWN_CANDLES,
    );
    expect(line!.slice(0, -1)).toEqual(ema!.lines[0]!.slice(1));
    expect(line!.at(-1)).toBeNull();
  });

  test('another instrument’s or period’s values are not drawn', () => {
    const values = valuesAtShown(
      { ...ema!, from: 1 },
      candles.map((c) => c.time),
      SHOWN_CANDLES,
    );
    expect(values[0]!.every((v) => v === null)).toBe(true);
  });

  test('a line lifts its pen where there is no value', () => {
    expect(linePath([1, 2, 3, 4, 5], [null, 10, 20, null, 30], (v) => v / 10)).toBe('M2 1L3 2M5 3');
    expect(linePath([1, 2], [null, null], (v) => v)).toBe('');
  });
});

describe('SvgCandles with indicators', () => {
  const candles = series(120);

  test('draws MA and EMA lines through their values on the price scale, one colour class per line', () => {
    const chosen = drawn(candles, { kind: 'ma', period: 5 }, { kind: 'ma', period: 20 }, { kind: 'ema', period: 10 });
    const html = render(candles, chosen);
    const values = chosen.flatMap((d) => d.lines[0]!.filter((v): v is number => v !== null));
    const layout = chartLayout(candles, 2, price2, values);
    const ma5 = points(html, 'indicator ma n1');
    expect(ma5).toHaveLength(SHOWN_CANDLES);
    const last = chosen[0]!.lines[0]!.at(-1)!;
    expect(ma5.at(-1)).toEqual([layout.candles.at(-1)!.x, layout.y(last)]);
    expect(points(html, 'indicator ma n2')).toHaveLength(SHOWN_CANDLES);
    expect(points(html, 'indicator ema n1')).toHaveLength(SHOWN_CANDLES);
    // Overlays alone add no pane.
    expect(html).toContain(`viewBox="0 0 ${VIEW_WIDTH} ${VIEW_HEIGHT}"`);
  });

  test('Bollinger Bands: three lines, and the scale takes them in', () => {
    const chosen = drawn(candles, BOLL);
    const html = render(candles, chosen);
    for (const line of ['upper', 'middle', 'lower']) expect(points(html, `indicator boll ${line}`)).toHaveLength(SHOWN_CANDLES);
    const upper = Math.max(...chosen[0]!.lines[0]!.map((v) => v ?? -Infinity));
    const highest = Math.max(...candles.slice(-SHOWN_CANDLES).map((c) => c.high));
    expect(upper).toBeGreaterThan(highest);
    const [top] = points(html, 'indicator boll upper').sort((a, b) => a[1] - b[1]);
    expect(top![1]).toBeGreaterThan(0);
  });

  test('a line starts where its indicator has enough candles', () => {
    const few = series(30);
    const html = render(few, drawn(few, BOLL, MACD_DEFAULT));
    expect(points(html, 'indicator boll middle')).toHaveLength(30 - 19);
    expect(points(html, 'indicator macd macd')).toHaveLength(30 - 25);
    expect(html).not.toContain('class="indicator macd signal"');
  });

  test('each oscillator gets a pane under the price, titled, and the time axis goes under them all', () => {
    const html = render(candles, drawn(candles, MACD_DEFAULT, RSI_DEFAULT, KDJ));
    const height = VIEW_HEIGHT + 3 * PANE_HEIGHT;
    expect(html).toContain(`viewBox="0 0 ${VIEW_WIDTH} ${height}"`);
    expect([...html.matchAll(/class="chart-pane (\w+)"/g)].map((m) => m[1])).toEqual(['macd', 'rsi', 'kdj']);
    expect([...html.matchAll(/class="pane-title"[^>]*>([^<]*)</g)].map((m) => m[1])).toEqual(['MACD', 'RSI', 'KDJ']);
    for (const line of ['macd macd', 'macd signal', 'rsi value', 'kdj k', 'kdj d', 'kdj j']) {
      expect(points(html, `indicator ${line}`).length, line).toBeGreaterThan(40);
    }
    const times = [...html.matchAll(/<text x="[\d.]+" y="([\d.]+)" text-anchor="middle">/g)].map((m) => Number(m[1]));
    expect(times).toEqual([height - 6, height - 6, height - 6, height - 6]);
  });

  test('RSI sits in its pane between 0 and 100, with the 30 and 70 guides labelled', () => {
    const html = render(candles, drawn(candles, RSI_DEFAULT));
    const top = VIEW_HEIGHT - 20;
    const pane = html.match(/<g class="chart-pane rsi">.*?<\/g><\/g>|<g class="chart-pane rsi">.*<\/svg>/)?.[0] ?? '';
    expect(pane).toContain('>30</text>');
    expect(pane).toContain('>70</text>');
    const guides = [...pane.matchAll(/<g class="guide"><line x1="0" x2="[\d.]+" y1="([\d.]+)"/g)].map((m) => Number(m[1]));
    expect(guides).toHaveLength(2);
    // 30 below 70, both inside the pane.
    expect(guides[0]!).toBeGreaterThan(guides[1]!);
    for (const [, y] of points(html, 'indicator rsi value')) {
      expect(y).toBeGreaterThan(top);
      expect(y).toBeLessThan(top + PANE_HEIGHT);
    }
  });

  test('the guides are labelled with the app’s number formatter in the page’s language', () => {
    const html = render(candles, drawn(candles, RSI_DEFAULT), 'ar');
    expect(html).toContain(`>${formatInteger(30, 'ar')}</text>`);
    expect(html).toContain(`>${formatInteger(70, 'ar')}</text>`);
  });

  test('MACD’s histogram: bars up from zero where MACD is over its signal, down where under', () => {
    const html = render(candles, drawn(candles, MACD_DEFAULT));
    const [macd, signal, histogram] = indicatorSeries(MACD_DEFAULT, candles).map((l) => l.slice(-SHOWN_CANDLES));
    const rising = histogram!.filter((v) => v !== null && Math.round(v * 1e4) > 0).length;
    const falling = histogram!.filter((v) => v !== null && Math.round(v * 1e4) < 0).length;
    expect(rising).toBeGreaterThan(0);
    expect(falling).toBeGreaterThan(0);
    const bars = (direction: string) => html.match(new RegExp(`<path class="${direction}" d="([^"]*)"`))?.[1]?.match(/M/g)?.length ?? 0;
    expect(bars('up')).toBe(rising);
    expect(bars('down')).toBe(falling);
    expect(macd!.length).toBe(signal!.length);
  });
});
