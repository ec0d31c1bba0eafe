/**
 * With JavaScript the chosen indicators are on the canvas chart, which comes without the trader reaching for it
 * (decision 0044): a pane per oscillator, the legend's values following the live price, and a new choice from the
 * sheet applied in place (no new document).
 */
import { axeFor, seriousFindings, WCAG_TAGS } from './axe';
import { expect, test, type ConsoleMessage } from '@playwright/test';
import { chooseLanguage, watchCsp } from './fixtures';

test('the canvas chart draws the chosen indicators in panes and their legend follows the live price', async ({ page }) => {
  test.setTimeout(60_000);
  const csp = watchCsp(page);
  const errors: string[] = [];
  page.on('console', (m: ConsoleMessage) => {
    if (m.type() === 'error') errors.push(`${m.text()} ${m.location().url}`);
  });
  page.on('pageerror', (e) => errors.push(e.message));
  await chooseLanguage(page, 'en');
  await page.goto('/trade?code=BTCUSD&period=1min&ind=ma5-boll-macd-rsi-kdj');
  await expect(page.locator('html')).toHaveAttribute('data-hydrated', 'true');
  const figure = page.getByRole('figure', { name: 'BTC/USD 1-minute candles' });
  // No hover: the indicators bring the canvas once the page is idle.
  await expect(figure.locator('canvas').first()).toBeVisible({ timeout: 15_000 });
  const host = figure.locator('.candle-canvas');
  // The price's pane and one under it per oscillator (MACD, RSI, KDJ).
  await expect(host).toHaveAttribute('data-panes', '4');

  // The legend's values are the canvas's: the last candle's, moved by each tick.
  const legend = page.getByRole('list', { name: 'Indicators on the chart' });
  const ma = legend.getByRole('listitem').filter({ hasText: 'MA(5)' });
  const first = await ma.innerText();
  await expect(ma).not.toHaveText(first, { timeout: 20_000 });
  await expect(ma).toContainText(/\d+\.\d\d/);

  // A new choice from the sheet: applied in place, the canvas keeps its place and drops the panes it no longer needs.
  await page.evaluate(() => ((window as unknown as { sameDocument: boolean }).sameDocument = true));
  // The sheet's code comes after the page; then it sends without a new document.
  await expect(page.locator('form[data-live="on"]')).toHaveCount(1, { timeout: 10_000 });
  await page.locator('summary', { hasText: 'Indicators' }).click();
  const form = page.getByRole('form', { name: 'Indicators' });
  await form.getByRole('checkbox', { name: 'Moving average convergence divergence' }).uncheck();
  await form.getByRole('checkbox', { name: 'Stochastic KDJ' }).uncheck();
  await form.getByRole('button', { name: 'Apply' }).click();
  await expect(page).toHaveURL(/[?&]ind=ma5-boll-rsi(&|$)/);
  await expect(host).toHaveAttribute('data-panes', '2');
  await expect(legend.getByRole('listitem')).toHaveCount(3);
  await expect(legend.getByRole('listitem').filter({ hasText: 'RSI(14)' })).toContainText(/\d+\.\d\d/);
  expect(await page.evaluate(() => (window as unknown as { sameDocument?: boolean }).sameDocument)).toBe(true);
  await expect(figure.locator('canvas').first()).toBeVisible();
  expect(errors).toEqual([]);
  expect(csp).toEqual([]);
});

for (const lng of ['en', 'ar'] as const) {
  test(`the sheet, open, and the legend have no serious accessibility findings (${lng})`, async ({ page }) => {
    await chooseLanguage(page, lng);
    await page.goto('/trade?code=BTCUSD&ind=ma5-ema12-boll-macd-rsi-kdj');
    await expect(page.locator('html')).toHaveAttribute('data-hydrated', 'true');
    await expect(page.locator('form[data-live="on"]')).toHaveCount(1, { timeout: 10_000 });
    await page.locator('details.indicator-sheet > summary').click();
    await expect(page.locator('details.indicator-sheet')).toHaveAttribute('open', '');
    const sheetAndLegend = axeFor(page).withTags(WCAG_TAGS).include('.indicator-sheet').include('.indicator-legend');
    expect(await seriousFindings(page, sheetAndLegend)).toEqual([]);
  });
}
