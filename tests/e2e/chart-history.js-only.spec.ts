import { expect, test, type Locator, type Page } from '@playwright/test';
import { reachForChart } from './chart-fixtures';
import { chooseLanguage, forceMarket } from './fixtures';

/**
 * The trade page carries only the candles its SVG draws; the canvas chart loads the older ones when it
 * loads, so the trader can drag back in time well past them. Read from the pane's pixels: dragging keeps
 * moving the candles long after the page's own would have reached the chart's left edge (which stops a drag).
 * The market is closed meanwhile, so no tick moves the last price's line across the pane.
 */

/** The pane's picture (the largest canvas). */
function paneImage(figure: Locator): Promise<string> {
  return figure.evaluate((fig) => {
    const canvases = [...fig.querySelectorAll('canvas')];
    const area = (c: HTMLCanvasElement) => c.width * c.height;
    return canvases.reduce((a, b) => (area(b) > area(a) ? b : a)).toDataURL();
  });
}

test('the canvas chart loads the older candles and drags back in time past the ones the page carried', async ({ page }) => {
  await chooseLanguage(page, 'en');
  await forceMarket('LTCUSD', 'closed');
  try {
    await dragBack(page);
  } finally {
    await forceMarket('LTCUSD', 'auto');
  }
});

async function dragBack(page: Page) {
  const history = page.waitForResponse((r) => r.url().includes('/candles?') && r.url().includes('code=LTCUSD'));
  await page.goto('/trade?code=LTCUSD&period=15min');
  const figure = page.getByRole('figure', { name: 'LTC/USD 15-minute candles' });
  // Without JavaScript the page draws the last 64 candles (svg-candles.tsx): what the page carries. The last
  // candle is drawn on its own, the others as one body (a move in a path) each.
  const drawnCandles = () =>
    figure
      .locator('svg')
      .evaluate(
        (svg) =>
          svg.querySelectorAll('.candle').length +
          [...svg.querySelectorAll('.candles .bodies')].reduce((n, p) => n + (p.getAttribute('d')?.match(/M/g)?.length ?? 0), 0),
      );
  await expect.poll(drawnCandles).toBe(64);
  await reachForChart(page, figure);
  const res = await history;
  expect(res.status()).toBe(200);
  const candles = (await res.json()) as { Time: number }[];
  expect(candles.length).toBeGreaterThan(200);

  const box = (await figure.boundingBox())!;
  const drag = async () => {
    await page.mouse.move(box.x + box.width * 0.2, box.y + box.height * 0.5);
    await page.mouse.down();
    await page.mouse.move(box.x + box.width * 0.6, box.y + box.height * 0.5, { steps: 6 });
    await page.mouse.up();
    await page.evaluate(() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done))));
  };
  // Two drags take the chart past the 64 candles the page carried (about 60 fit on a phone's chart).
  await drag();
  await drag();
  const before = await paneImage(figure);
  await drag();
  expect(await paneImage(figure), 'the chart still moves: there are older candles to show').not.toBe(before);
}
