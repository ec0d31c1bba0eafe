import { renderToString } from 'react-dom/server';
import { describe, expect, test } from 'vitest';
import { formatPrice } from '~/utils/format';
import type { Candle } from './candles';
import { chartLayout, niceStep, SHOWN_CANDLES, SvgCandles, VIEW_HEIGHT, VIEW_WIDTH } from './svg-candles';

const START = Date.UTC(2025, 6, 1, 12) / 1000;
/** Candles every 15 minutes; even ones rise, odd ones fall. */
function series(count: number, base = 70_000): Candle[] {
  return Array.from({ length: count }, (_, i) => {
    const open = base + i * 10;
    const close = i % 2 === 0 ? open + 25 : open - 25;
    return { time: START + i * 900, open, high: Math.max(open, close) + 5, low: Math.min(open, close) - 5, close };
  });
}
const price2 = (p: number) => formatPrice(p, 2, 'en');

describe('chartLayout', () => {
  test('the highest high is near the top and the lowest low near the bottom, inside the plot', () => {
    const candles = series(40);
    const layout = chartLayout(candles, 2, price2, []);
    const high = Math.max(...candles.map((c) => c.high));
    const low = Math.min(...candles.map((c) => c.low));
    expect(layout.top).toBeGreaterThan(high);
    expect(layout.bottom).toBeLessThan(low);
    expect(layout.y(high)).toBeGreaterThan(0);
    expect(layout.y(high)).toBeLessThan(30);
    expect(layout.y(low)).toBeLessThan(layout.plotBottom);
    expect(layout.y(low)).toBeGreaterThan(layout.plotBottom - 30);
    expect(layout.y(high)).toBeLessThan(layout.y(low));
    const wickTops = layout.candles.map((c) => c.wickTop);
    expect(Math.min(...wickTops)).toBe(layout.y(high));
  });

  test('a candle’s body spans open to close and its wick high to low', () => {
    const [candle] = series(1);
    const layout = chartLayout([candle!], 2, price2, []);
    const shape = layout.candles[0]!;
    expect(shape.bodyTop).toBe(layout.y(candle!.close));
    expect(shape.bodyTop + shape.bodyHeight).toBeCloseTo(layout.y(candle!.open), 0);
    expect(shape.wickTop).toBe(layout.y(candle!.high));
    expect(shape.wickBottom).toBe(layout.y(candle!.low));
  });

  test('only the last candles are drawn, oldest on the left, the newest next to the price axis', () => {
    const candles = series(300);
    const layout = chartLayout(candles, 2, price2, []);
    expect(layout.candles).toHaveLength(SHOWN_CANDLES);
    expect(layout.candles[0]!.time).toBe(candles[300 - SHOWN_CANDLES]!.time);
    const xs = layout.candles.map((c) => c.x);
    expect([...xs].sort((a, b) => a - b)).toEqual(xs);
    expect(xs.at(-1)!).toBeLessThan(layout.plotRight);
    expect(xs.at(-1)!).toBeGreaterThan(layout.plotRight - 10);
    expect(xs[0]!).toBeGreaterThan(0);
  });

  test('price labels are round steps at the instrument’s precision, and the last price is marked', () => {
    const layout = chartLayout(series(40), 2, price2, []);
    expect(layout.priceTicks.length).toBeGreaterThanOrEqual(3);
    expect(layout.priceTicks.length).toBeLessThanOrEqual(8);
    for (const t of layout.priceTicks) expect(t.label).toMatch(/^\d{2},\d{3}\.00$/);
    expect(layout.last).toEqual({ y: layout.y(70_365), label: '70,365.00', up: false });
  });

  test('a flat price still gets a scale', () => {
    const flat: Candle[] = [{ time: START, open: 1.1, high: 1.1, low: 1.1, close: 1.1 }];
    const layout = chartLayout(flat, 5, (p) => formatPrice(p, 5, 'en'), []);
    expect(layout.top).toBeGreaterThan(1.1);
    expect(layout.bottom).toBeLessThan(1.1);
    expect(Number.isFinite(layout.y(1.1))).toBe(true);
  });

  test("the scale takes in the trader's lines, so a stop loss below every candle is on the picture", () => {
    const candles = series(10);
    const lowest = Math.min(...candles.map((c) => c.low));
    const layout = chartLayout(candles, 2, price2, [lowest - 500]);
    expect(layout.bottom).toBeLessThan(lowest - 500);
    expect(layout.y(lowest - 500)).toBeLessThanOrEqual(layout.plotBottom);
  });

  test('niceStep picks 1, 2 or 5 × 10ⁿ and never less than one price tick', () => {
    expect(niceStep(100, 4, 2)).toBe(20);
    expect(niceStep(0.004, 4, 5)).toBe(0.001);
    expect(niceStep(0.00001, 4, 2)).toBe(0.01);
    expect(niceStep(7000, 4, 0)).toBe(2000);
  });
});

/** How many candles of one direction the paths draw: one body (a move, `M`) each. */
function drawn(html: string, direction: 'up' | 'down'): number {
  const group = html.match(
    new RegExp(`<g class="candles ${direction}"><path class="wicks" d="[^"]*"></path><path class="bodies" d="([^"]*)"`),
  );
  return group?.[1]?.match(/M/g)?.length ?? 0;
}

describe('SvgCandles', () => {
  const render = (candles: Candle[]) =>
    renderToString(
      <SvgCandles candles={candles} period="15min" precision={2} locale="en" label="BTC/USD 15-minute candles" formatPrice={price2} />,
    );

  test('is an image named for the instrument and period, scaled by its viewBox', () => {
    const html = render(series(10));
    expect(html).toMatch(/^<svg[^>]*role="img"/);
    expect(html).toContain('aria-label="BTC/USD 15-minute candles"');
    expect(html).toContain(`viewBox="0 0 ${VIEW_WIDTH} ${VIEW_HEIGHT}"`);
    expect(html).not.toMatch(/<svg[^>]*\swidth=/);
  });

  test('draws one candle per period, rising ones up and falling ones down', () => {
    const html = render(series(11));
    // The last (rising) candle on its own, the ten before it in one path of bodies per direction.
    expect(html.match(/class="candle up"/g)).toHaveLength(1);
    expect(drawn(html, 'up')).toBe(5);
    expect(drawn(html, 'down')).toBe(5);
    expect(html.match(/class="wicks" d="[^"]*"/g)?.map((d) => d.match(/M/g)?.length)).toEqual([5, 5]);
  });

  test("a body runs from the open to the close, a wick from the high to the low, as wide as the last candle's", () => {
    const candles = series(11);
    const layout = chartLayout(candles, 2, price2, []);
    const html = render(candles);
    const first = layout.candles[0]!;
    expect(html).toContain(`M${first.x} ${first.bodyTop}v${first.bodyHeight}`);
    expect(html).toContain(`M${first.x} ${first.wickTop}V${first.wickBottom}`);
    expect(html).toMatch(new RegExp(`class="bodies" d="[^"]*" stroke-width="${first.width}"`));
    expect(html).toContain(`width="${first.width}"`); // the last candle's rect
  });

  test("draws each of the trader's lines with its label", () => {
    const html = renderToString(
      <SvgCandles
        candles={series(10)}
        period="15min"
        precision={2}
        locale="en"
        label="BTC/USD 15-minute candles"
        formatPrice={price2}
        lines={[
          {
            key: '1-stopLoss',
            orderId: 1,
            kind: 'stopLoss',
            buy: true,
            price: 70_000,
            label: 'SL 70,000.00',
            title: 'SL',
            spoken: 'Stop loss of #1',
            draggable: true,
            trail: 0,
          },
        ]}
      />,
    );
    expect(html).toContain('<g class="stopLoss">');
    expect(html).toContain('>SL 70,000.00</text>');
  });

  test('labels the time axis in London time and the price axis at the precision', () => {
    const html = render(series(40));
    // One label per quarter, at candles 5, 15, 25 and 35: 13:15 UTC and on, an hour later in London (BST).
    const times = [...html.matchAll(/>(\d\d:\d\d)</g)].map((m) => m[1]);
    expect(times).toEqual(['14:15', '16:45', '19:15', '21:45']);
    expect(html).toContain('>70,365.00<');
  });
});
