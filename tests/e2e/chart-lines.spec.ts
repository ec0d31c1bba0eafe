/**
 * The trader's own levels on the trade chart: an open position's entry, take profit and stop loss, and a
 * pending order's target, as labelled lines. Without JavaScript they are on the server's SVG; with it the
 * canvas chart draws them, and the chart's list of lines (read by screen readers) names each one drawn.
 */
import { expect, test } from '@playwright/test';
import { buyWithStops, reachForChart } from './chart-fixtures';
import { chooseLanguage, forceMarket, openDemo, placeOrder, setPrice } from './fixtures';

test.beforeEach(async ({ page }) => {
  await chooseLanguage(page, 'en');
  await forceMarket('EURUSD', 'open');
  await setPrice('EURUSD', '1.10000');
});

test.afterEach(async () => {
  await forceMarket('EURUSD', 'auto');
});

test("a position's entry, take profit and stop loss, and a pending order's target, are lines on the chart", async ({
  page,
  javaScriptEnabled,
}) => {
  await openDemo(page);
  const id = await buyWithStops(page, '1.10500', '1.09500');
  const pending = await placeOrder(page, { targetPrice: '1.09000', side: 'buy', lots: '0.02' });
  await page.goto('/trade?code=EURUSD');

  const figure = page.getByRole('figure', { name: /^EUR\/USD / });
  if (javaScriptEnabled) {
    // The canvas took the SVG's place and drew the lines.
    await reachForChart(page, figure);
  } else {
    // The server's picture, labelled beside each line.
    const svg = figure.getByRole('img');
    await expect(svg.getByText(/^Buy 0\.10 @ 1\.\d{5}$/)).toBeVisible();
    await expect(svg.getByText('TP 1.10500', { exact: true })).toBeVisible();
    await expect(svg.getByText('SL 1.09500', { exact: true })).toBeVisible();
    await expect(svg.getByText('Pending buy 0.02 @ 1.09000', { exact: true })).toBeVisible();
  }
  const lines = figure.getByRole('list', { name: 'Your orders on the chart' }).getByRole('listitem');
  await expect(lines).toHaveText([
    new RegExp(`^Position #${id}: Buy 0\\.10 @ 1\\.\\d{5}$`),
    `Take profit of #${id} at 1.10500`,
    `Stop loss of #${id} at 1.09500`,
    `Pending order #${pending}: Pending buy 0.02 @ 1.09000`,
  ]);

  // Another instrument's chart has none of them.
  await page.goto('/trade?code=GBPUSD');
  await expect(page.getByRole('figure', { name: /^GBP\/USD / })).toBeVisible();
  await expect(page.getByRole('list', { name: 'Your orders on the chart' }).getByRole('listitem')).toHaveCount(0);
  await expect(page.getByText('TP 1.10500', { exact: true })).toHaveCount(0);
});

test('a pending order on its own is a line on the chart (the margin it holds tells the page to look)', async ({
  page,
  javaScriptEnabled,
}) => {
  await openDemo(page);
  const pending = await placeOrder(page, { targetPrice: '1.09000', side: 'buy', lots: '0.02' });
  await page.goto('/trade?code=EURUSD');
  const figure = page.getByRole('figure', { name: /^EUR\/USD / });
  if (javaScriptEnabled) await reachForChart(page, figure);
  else await expect(figure.getByRole('img').getByText('Pending buy 0.02 @ 1.09000', { exact: true })).toBeVisible();
  await expect(figure.getByRole('list', { name: 'Your orders on the chart' }).getByRole('listitem')).toHaveText([
    `Pending order #${pending}: Pending buy 0.02 @ 1.09000`,
  ]);
});

test('a visitor sees the chart without lines', async ({ page }) => {
  await page.goto('/trade?code=EURUSD');
  await expect(page.getByRole('figure', { name: /^EUR\/USD / })).toBeVisible();
  await expect(page.getByRole('list', { name: 'Your orders on the chart' })).toHaveCount(0);
});
