import { expect, test, type ConsoleMessage, type Page } from '@playwright/test';
import { reachForChart } from './chart-fixtures';
import { chooseLanguage, watchCsp } from './fixtures';

// Crypto never closes, so BTC/USD always has fresh candles.
const TRADE = '/trade?code=BTCUSD&period=15min';
const NAME = 'BTC/USD 15-minute candles';

test('the trade screen draws the candle chart on the server, named for the instrument and period', async ({ page }) => {
  const csp = watchCsp(page);
  await chooseLanguage(page, 'en');
  const html = await (await page.request.get(TRADE)).text();
  // The server's HTML already holds the chart, and none of the canvas library's script.
  expect(html).toContain(`aria-label="${NAME}"`);
  expect(html).not.toMatch(/live-chart|lightweight-charts/);

  await page.goto(TRADE);
  const figure = page.getByRole('figure', { name: NAME });
  await expect(figure).toBeVisible();
  const box = await figure.boundingBox();
  // Phone width: the chart fills the row and keeps a usable height.
  expect(box!.width).toBeGreaterThan(300);
  expect(box!.height).toBeGreaterThan(150);
  expect(csp).toEqual([]);
});

test('the chart stays the SVG without JavaScript, and turns into the canvas chart when the trader reaches for it', async ({
  page,
  javaScriptEnabled,
}) => {
  const csp = watchCsp(page);
  const errors: string[] = [];
  page.on('console', (m: ConsoleMessage) => {
    if (m.type() === 'error') errors.push(`${m.text()} ${m.location().url}`);
  });
  page.on('pageerror', (e) => errors.push(e.message));
  await chooseLanguage(page, 'en');
  await page.goto(TRADE);
  const figure = page.getByRole('figure', { name: NAME });
  const svg = page.getByRole('img', { name: NAME });
  if (javaScriptEnabled) {
    const library = watchRequests(page, /live-chart/);
    await expect(page.locator('html')).toHaveAttribute('data-hydrated', 'true');
    // A trader who only looks keeps the SVG, and it follows the price; the phone never loads the canvas library.
    const last = svg.locator('.chart-last text');
    const first = await last.textContent();
    await expect(last).not.toHaveText(first!, { timeout: 15_000 });
    await expect(svg).toBeVisible();
    await expect(figure.locator('canvas')).toHaveCount(0);
    expect(library).toEqual([]);
    // Reaching for the chart brings the canvas; then the SVG is hidden: one chart, not two.
    await reachForChart(page, figure);
    await expect(svg).toBeHidden();
    expect(library.length).toBeGreaterThan(0);
  } else {
    await expect(svg).toBeVisible();
    // London times on the time axis, prices at BTC/USD's two decimals on the price axis.
    await expect(svg).toContainText(/\d\d:\d\d/);
    await expect(svg).toContainText(/\d{2},\d{3}\.\d{2}/);
    await expect(figure.locator('canvas')).toHaveCount(0);
  }
  expect((await figure.boundingBox())!.height).toBeGreaterThan(150);
  expect(errors).toEqual([]);
  expect(csp).toEqual([]);
});

/** The URLs of the page's requests that match, as they are made. */
function watchRequests(page: Page, pattern: RegExp): string[] {
  const seen: string[] = [];
  page.on('request', (r) => {
    if (pattern.test(r.url())) seen.push(r.url());
  });
  return seen;
}
