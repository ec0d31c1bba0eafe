/**
 * The chart's indicators (issue 40), with and without JavaScript, in English, Chinese (Hong Kong) and Arabic
 * (right to left): chosen on the "Indicators" sheet, drawn on the chart and named with their values in the legend,
 * kept by the device (cookie) across a reload, and shown by a shared address.
 */
import fs from 'node:fs';
import { expect, test, type Page } from '@playwright/test';
import { chooseLanguage, watchCsp } from './fixtures';

// Crypto never closes, so BTC/USD always has fresh candles (600, enough for every indicator).
const TRADE = '/trade?code=BTCUSD&period=15min';

interface Words {
  sheet: string;
  apply: string;
  legend: string;
  period: string;
  names: Record<'ma' | 'ema' | 'boll' | 'macd' | 'rsi' | 'kdj', string>;
}
const words = (lng: string) =>
  (JSON.parse(fs.readFileSync(`locales/${lng}/trade.json`, 'utf8')) as { chart: { indicators: Words } }).chart.indicators;
const periodField = (w: Words, name: string, n: number) => w.period.replace('{{name}}', name).replace('{{n}}', String(n));

async function openSheet(page: Page, w: Words) {
  await page.locator('summary', { hasText: w.sheet }).click();
  const form = page.getByRole('form', { name: w.sheet });
  await expect(form).toBeVisible();
  return form;
}

/** The SVG's drawing of each indicator: lines over the candles, a pane under them per oscillator. */
function svgParts(page: Page) {
  const svg = page.locator('.candle-svg');
  return {
    ma5: svg.locator('path.indicator.ma.n1'),
    ma20: svg.locator('path.indicator.ma.n2'),
    ema12: svg.locator('path.indicator.ema.n1'),
    boll: svg.locator('path.indicator.boll.upper'),
    macd: svg.locator('.chart-pane.macd path.indicator.signal'),
    rsi: svg.locator('.chart-pane.rsi path.indicator.rsi'),
    kdj: svg.locator('.chart-pane.kdj path.indicator.kdj.k'),
  };
}

/** The legend's entry for an indicator: its name and parameters, then a value written as a number. */
const LABELS = {
  ma5: 'MA(5)',
  ma20: 'MA(20)',
  ema12: 'EMA(12)',
  boll: 'BOLL(20, 2)',
  macd: 'MACD(12, 26, 9)',
  rsi: 'RSI(14)',
  kdj: 'KDJ(9, 3, 3)',
} as const;

for (const lng of ['en', 'hk', 'ar'] as const) {
  test(`${lng}: each indicator is added and removed on the sheet, drawn, named in the legend and kept for the device`, async ({ page }) => {
    test.setTimeout(60_000);
    const csp = watchCsp(page);
    const w = words(lng);
    await chooseLanguage(page, lng);
    await page.goto(TRADE);
    if (lng === 'ar') await expect(page.locator('html')).toHaveAttribute('dir', 'rtl');
    const legend = page.getByRole('list', { name: w.legend });
    await expect(legend).toHaveCount(0);
    const parts = svgParts(page);

    // Add every one: two MA lines, an EMA, the bands and the three oscillators.
    let form = await openSheet(page, w);
    await form.getByRole('spinbutton', { name: periodField(w, 'MA', 1), exact: true }).fill('5');
    await form.getByRole('spinbutton', { name: periodField(w, 'MA', 2), exact: true }).fill('20');
    await form.getByRole('spinbutton', { name: periodField(w, 'EMA', 1), exact: true }).fill('12');
    for (const kind of ['boll', 'macd', 'rsi', 'kdj'] as const) await form.getByRole('checkbox', { name: w.names[kind] }).check();
    await form.getByRole('button', { name: w.apply }).click();

    // The address names the choice, so it can be shared.
    await expect(page).toHaveURL(/[?&]ind=ma5-ma20-ema12-boll-macd-rsi-kdj(&|$)/);
    await expect(legend.getByRole('listitem')).toHaveCount(7);
    for (const [key, label] of Object.entries(LABELS)) {
      const item = legend.getByRole('listitem').filter({ hasText: label });
      // The value is a number in the page's writing (BTC/USD's prices have two decimals).
      await expect(item, `${key} in the legend`).toContainText(/\d+\.\d\d/);
      await expect(parts[key as keyof typeof parts], `${key} on the chart`).toHaveCount(1);
    }
    // A screen reader hears each name in words too.
    await expect(legend).toContainText(w.names.boll);
    // The figure points to the legend as its description.
    const describedBy = await page.locator('figure.candle-chart').getAttribute('aria-describedby');
    expect(describedBy).toBe(await legend.getAttribute('id'));
    if (lng === 'ar') {
      // The Latin names and numbers stay left to right inside the right-to-left page.
      await expect(legend.locator('[dir="ltr"]').first()).toHaveText(LABELS.ma5);
    }

    // The device keeps the choice: the same screen without it in the address shows it again.
    await page.goto(TRADE);
    await expect(legend.getByRole('listitem')).toHaveCount(7);
    await expect(parts.kdj).toHaveCount(1);

    // Remove one of each group (the second MA line, KDJ): the others stay.
    form = await openSheet(page, w);
    await expect(form.getByRole('spinbutton', { name: periodField(w, 'MA', 2), exact: true })).toHaveValue('20');
    await form.getByRole('spinbutton', { name: periodField(w, 'MA', 2), exact: true }).fill('');
    await form.getByRole('checkbox', { name: w.names.kdj }).uncheck();
    await form.getByRole('button', { name: w.apply }).click();
    await expect(page).toHaveURL(/[?&]ind=ma5-ema12-boll-macd-rsi(&|$)/);
    await expect(legend.getByRole('listitem')).toHaveCount(5);
    await expect(legend.getByRole('listitem').filter({ hasText: LABELS.ma20 })).toHaveCount(0);
    await expect(legend.getByRole('listitem').filter({ hasText: LABELS.kdj })).toHaveCount(0);
    await expect(parts.kdj).toHaveCount(0);
    await expect(parts.ma20).toHaveCount(0);
    await expect(parts.rsi).toHaveCount(1);

    // Remove the rest: no legend, no lines, and the address names none.
    form = await openSheet(page, w);
    await form.getByRole('spinbutton', { name: periodField(w, 'MA', 1), exact: true }).fill('');
    await form.getByRole('spinbutton', { name: periodField(w, 'EMA', 1), exact: true }).fill('');
    for (const kind of ['boll', 'macd', 'rsi'] as const) await form.getByRole('checkbox', { name: w.names[kind] }).uncheck();
    await form.getByRole('button', { name: w.apply }).click();
    await expect(page).not.toHaveURL(/[?&]ind=/);
    await expect(legend).toHaveCount(0);
    await expect(page.locator('.candle-svg .indicator')).toHaveCount(0);
    await expect(page.locator('.candle-svg .chart-pane')).toHaveCount(0);
    await page.goto(TRADE);
    await expect(legend).toHaveCount(0);
    expect(csp).toEqual([]);
  });
}

test('a shared address shows its indicators, over the device’s own choice, and unknown names are left out', async ({ page }) => {
  const w = words('en');
  await chooseLanguage(page, 'en');
  // This device chose MA(10).
  await page.goto(`${TRADE}&ind=ma10`);
  const form = await openSheet(page, w);
  await form.getByRole('button', { name: w.apply }).click();
  await expect(page).toHaveURL(/[?&]ind=ma10(&|$)/);

  // A link someone shared: EMA(9) and RSI, and a name the app does not know.
  await page.goto(`${TRADE}&ind=ema9-rsi-nonsense-ma999`);
  const legend = page.getByRole('list', { name: w.legend });
  await expect(legend.getByRole('listitem')).toHaveCount(2);
  await expect(legend.getByRole('listitem').nth(0)).toContainText('EMA(9)');
  await expect(legend.getByRole('listitem').nth(1)).toContainText('RSI(14)');
  await expect(page.locator('.candle-svg .chart-pane.rsi .guide')).toHaveCount(2);
  // The period links keep the shared choice.
  await page.getByRole('navigation', { name: 'Chart period' }).getByRole('link', { name: '1H' }).click();
  await expect(page).toHaveURL(/period=60min/);
  await expect(legend.getByRole('listitem')).toHaveCount(2);

  // Following the link did not change the device's choice.
  await page.goto(TRADE);
  await expect(legend.getByRole('listitem')).toHaveCount(1);
  await expect(legend.getByRole('listitem')).toContainText('MA(10)');
});
