import { expect, test, type Locator, type Page } from '@playwright/test';
import { reachForChart } from './chart-fixtures';
import { chooseLanguage } from './fixtures';

/**
 * The canvas chart draws every axis label whole on a phone: no price label half off the top or the
 * bottom of the price scale, no time label half off either end of the time scale, in a left-to-right
 * and a right-to-left language. Read from the canvas pixels: a cut label leaves ink on the axis's
 * outermost pixel row (price) or column (time); a whole one never reaches it.
 */

// Instruments and periods whose labels land near the ends (a tick close to the top, a wide date label).
const CHARTS = [
  ['US30', '1min', 'US30 1-minute candles'],
  ['EURUSD', '60min', 'EUR/USD 1-hour candles'],
  ['BTCUSD', '1day', 'BTC/USD daily candles'],
  ['XAUUSD', '15min', 'XAU/USD 15-minute candles'],
  ['NGAS', '15min', 'Natural Gas 15-minute candles'],
] as const;

interface Edges {
  /** How many canvases make the price scale and the time scale (none found would prove nothing). */
  axes: [number, number];
  inside: boolean;
  timeLeft: number;
  timeRight: number;
  priceTop: number;
  priceBottom: number;
}

/** Ink (pixels that differ from the axis's own background) on the outermost rows and columns of each axis. */
async function edgeInk(figure: Locator): Promise<Edges> {
  return figure.evaluate((fig) => {
    const canvases = [...fig.querySelectorAll('canvas')];
    const box = fig.getBoundingClientRect();
    const boxes = canvases.map((c) => c.getBoundingClientRect());
    const area = (r: DOMRect) => r.width * r.height;
    const pane = boxes.reduce((a, b) => (area(b) > area(a) ? b : a));
    // The price scale sits right of the pane, the time scale under it (each may have two layers).
    const priceAxis = canvases.filter((_, i) => boxes[i]!.left >= pane.right - 1 && boxes[i]!.top < pane.bottom - 1);
    const timeAxis = canvases.filter((_, i) => boxes[i]!.top >= pane.bottom - 1 && boxes[i]!.left <= pane.left + 1);
    const ink = (c: HTMLCanvasElement, x0: number, x1: number, y0: number, y1: number) => {
      const data = c.getContext('2d')!.getImageData(0, 0, c.width, c.height).data;
      // The bottom right corner is never written on: it is the layer's background.
      const corner = ((c.height - 1) * c.width + c.width - 1) * 4;
      let count = 0;
      for (let y = y0; y < y1; y++) {
        for (let x = x0; x < x1; x++) {
          const i = (y * c.width + x) * 4;
          let diff = 0;
          for (let k = 0; k < 4; k++) diff += Math.abs(data[i + k]! - data[corner + k]!);
          if (diff > 60) count++;
        }
      }
      return count;
    };
    const sum = (list: HTMLCanvasElement[], f: (c: HTMLCanvasElement) => number) => list.reduce((n, c) => n + f(c), 0);
    return {
      inside: boxes.every(
        (b) => b.left >= box.left - 0.5 && b.right <= box.right + 0.5 && b.top >= box.top - 0.5 && b.bottom <= box.bottom + 0.5,
      ),
      // Rows below the axis line, where the labels are; the first and the last pixel column.
      timeLeft: sum(timeAxis, (c) => ink(c, 0, 1, Math.round(c.height * 0.3), c.height)),
      timeRight: sum(timeAxis, (c) => ink(c, c.width - 1, c.width, Math.round(c.height * 0.3), c.height)),
      // Right of the scale's border line; the first and the last pixel row.
      priceTop: sum(priceAxis, (c) => ink(c, Math.round(c.width * 0.15), c.width, 0, 1)),
      priceBottom: sum(priceAxis, (c) => ink(c, Math.round(c.width * 0.15), c.width, c.height - 1, c.height)),
      axes: [priceAxis.length, timeAxis.length] as [number, number],
    };
  });
}

async function expectWholeLabels(page: Page, figure: Locator, what: string) {
  // Let the chart draw its labels again after the last move (it relabels on the next frame).
  await page.evaluate(() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done))));
  const edges = await edgeInk(figure);
  expect(Math.min(...edges.axes), `${what}: both axes found`).toBeGreaterThan(0);
  expect(edges, what).toMatchObject({ inside: true, timeLeft: 0, timeRight: 0, priceTop: 0, priceBottom: 0 });
}

for (const width of [360, 393]) {
  for (const lng of ['en', 'ar']) {
    test(`every chart label is drawn whole at ${width} px in ${lng}, also after dragging the chart`, async ({ page }) => {
      // Five charts, each read twice, on a busy machine.
      test.setTimeout(120_000);
      await page.setViewportSize({ width, height: 800 });
      await chooseLanguage(page, lng);
      for (const [code, period, name] of CHARTS) {
        await page.goto(`/trade?code=${code}&period=${period}`);
        // Named in the trader's language: in Arabic, found by the instrument alone.
        const figure = page.getByRole('figure', { name: lng === 'en' ? name : new RegExp(name.split(' ')[0]!) });
        await reachForChart(page, figure);
        const box = (await figure.boundingBox())!;
        // The chart fits the phone's width and leaves room for both axes.
        expect(box.x).toBeGreaterThanOrEqual(0);
        expect(box.x + box.width).toBeLessThanOrEqual(width);
        await expectWholeLabels(page, figure, `${code} ${period}`);

        // Drag the candles to the right (back in time): the labels that reach an end are still whole.
        await page.mouse.move(box.x + box.width * 0.3, box.y + box.height * 0.5);
        await page.mouse.down();
        await page.mouse.move(box.x + box.width * 0.3 + 37, box.y + box.height * 0.5, { steps: 5 });
        await page.mouse.up();
        await expectWholeLabels(page, figure, `${code} ${period} after a drag`);
      }
    });
  }
}
