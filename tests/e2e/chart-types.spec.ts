/**
 * The chart's types and history (issue 40), with and without JavaScript, in English, Chinese (Hong Kong) and Arabic
 * (right to left): candles, OHLC bars, line and area chosen on the type bar, drawn by the server's SVG, kept by the
 * device and shown by a shared address; "Earlier" and "Later" move the chart's window through history, and the "Data"
 * table lists the candles shown.
 */
import fs from 'node:fs';
import { expect, test, type Page } from '@playwright/test';
import { chooseLanguage, watchCsp } from './fixtures';

// Crypto never closes, so BTC/USD has a candle every 15 minutes, back through its whole history.
const TRADE = '/trade?code=BTCUSD&period=15min';
const QUARTER = 15 * 60;

interface Words {
  types: Record<'label' | 'candles' | 'bars' | 'line' | 'area', string>;
  data: Record<'summary' | 'time' | 'open' | 'high' | 'low' | 'close', string>;
  history: Record<'label' | 'earlier' | 'later', string>;
}
const locale = (lng: string) =>
  JSON.parse(fs.readFileSync(`locales/${lng}/trade.json`, 'utf8')) as { chart: Words; periods: { label: string } };
const words = (lng: string) => locale(lng).chart;

/** The SVG's marks of each type (svg-candles.tsx): a few paths each. */
function marks(page: Page) {
  const svg = page.locator('.candle-svg .chart-candles');
  return {
    candles: svg.locator('.candles .bodies, .candle rect'),
    bars: svg.locator('path.ohlc'),
    line: svg.locator('path.price-line'),
    area: svg.locator('path.price-area'),
  };
}

async function expectDrawnAs(page: Page, type: 'candles' | 'bars' | 'line' | 'area') {
  const m = marks(page);
  for (const kind of ['candles', 'bars', 'line', 'area'] as const) {
    // An area has its line on top.
    const drawn = kind === type || (type === 'area' && kind === 'line');
    if (drawn) await expect(m[kind].first(), `${type}: ${kind} drawn`).toBeAttached();
    else await expect(m[kind], `${type}: no ${kind}`).toHaveCount(0);
  }
}

/**
 * The windows are worked out from the newest candles, so a candle closing mid-test moves every window by one (CI saw
 * "Later" stop one window short of the newest at 11:45:00). The test takes well under a minute: start it clear of a close.
 */
async function clearOfCandleClose() {
  const left = QUARTER - ((Date.now() / 1000) % QUARTER);
  if (left >= 60) return;
  test.info().setTimeout(test.info().timeout + (left + 2) * 1000);
  await new Promise((resolve) => setTimeout(resolve, (left + 2) * 1000));
}

for (const lng of ['en', 'hk', 'ar'] as const) {
  test(`${lng}: each chart type is chosen on the type bar, drawn, kept for the device, and a shared address wins`, async ({ page }) => {
    const csp = watchCsp(page);
    const w = words(lng);
    await chooseLanguage(page, lng);
    await page.goto(TRADE);
    const bar = page.getByRole('navigation', { name: w.types.label });
    await expect(bar.getByRole('link', { name: w.types.candles })).toHaveAttribute('aria-current', 'page');
    await expectDrawnAs(page, 'candles');
    if (lng === 'ar') {
      await expect(page.locator('html')).toHaveAttribute('dir', 'rtl');
      // Right to left: the first type (candles) is the rightmost; the chart itself keeps time left to right.
      const first = (await bar.getByRole('link').nth(0).boundingBox())!;
      const second = (await bar.getByRole('link').nth(1).boundingBox())!;
      expect(first.x).toBeGreaterThan(second.x);
    }

    for (const type of ['bars', 'line', 'area'] as const) {
      await bar.getByRole('link', { name: w.types[type] }).click();
      // The address names the type (without the link's mark), so it can be shared.
      await expect(page).toHaveURL(new RegExp(`[?&]type=${type}(&|$)`));
      await expect(page).not.toHaveURL(/[?&]keep=/);
      await expect(bar.getByRole('link', { name: w.types[type] })).toHaveAttribute('aria-current', 'page');
      await expectDrawnAs(page, type);
    }

    // The device keeps the last choice (area); the period links keep it too.
    await page.goto(TRADE);
    await expectDrawnAs(page, 'area');
    await page
      .getByRole('navigation', { name: lng === 'en' ? 'Chart period' : undefined })
      .getByRole('link', { name: '1H' })
      .click();
    await expect(page).toHaveURL(/period=60min/);
    await expectDrawnAs(page, 'area');

    // A shared address wins over the device's choice, and does not change it; an unknown type is ignored.
    await page.goto(`${TRADE}&type=line`);
    await expectDrawnAs(page, 'line');
    await page.goto(`${TRADE}&type=nonsense`);
    await expectDrawnAs(page, 'area');
    await page.goto(`${TRADE}&type=line&keep=type`);
    await expect(page).toHaveURL(/[?&]type=line(&|$)/);
    await page.goto(TRADE);
    await expectDrawnAs(page, 'line');
    expect(csp).toEqual([]);
  });

  test(`${lng}: Earlier and Later move the chart through history, and the Data table lists the candles shown`, async ({ page }) => {
    await clearOfCandleClose();
    const w = words(lng);
    await chooseLanguage(page, lng);
    await page.goto(TRADE);
    const pager = page.getByRole('navigation', { name: w.history.label });
    const earlier = pager.getByRole('link', { name: w.history.earlier });
    const later = pager.getByRole('link', { name: w.history.later });
    // The newest candles: nothing later.
    await expect(later).toHaveCount(0);

    /** The Data table's candle times (newest first), opened if closed. */
    const shown = async () => {
      const details = page.locator('details.chart-data');
      if (!(await details.evaluate((d) => (d as HTMLDetailsElement).open))) await details.locator('summary').click();
      const table = details.getByRole('table');
      await expect(table).toBeVisible();
      await expect(table.getByRole('columnheader')).toHaveText([w.data.time, w.data.open, w.data.high, w.data.low, w.data.close]);
      const rows = table.locator('tbody tr');
      await expect(rows).toHaveCount(64);
      // Each row: its time as a row header and four prices.
      await expect(rows.first().getByRole('cell')).toHaveCount(4);
      await expect(rows.first().getByRole('cell').first()).toHaveText(/\d+\.\d\d/);
      const times = await rows.locator('time').evaluateAll((els) => els.map((e) => Date.parse(e.getAttribute('datetime')!) / 1000));
      for (let i = 1; i < times.length; i++) expect(times[i - 1]! - times[i]!).toBe(QUARTER);
      return times;
    };

    const newest = await shown();
    await earlier.click();
    await expect(page).toHaveURL(/[?&]before=\d+/);
    // The window just before: it ends with the candle before the oldest one shown, no gap and no overlap.
    await expect.poll(async () => (await shown())[0]).toBe(newest.at(-1)! - QUARTER);
    const first = await shown();
    await earlier.click();
    await expect.poll(async () => (await shown())[0]).toBe(first.at(-1)! - QUARTER);
    // Later: back to the first window, exactly.
    await later.click();
    await expect.poll(async () => (await shown())[0]).toBe(first[0]);
    expect(await shown()).toEqual(first);
    // Later again: the newest candles, and the address without a window.
    await later.click();
    await expect(page).not.toHaveURL(/[?&]before=/);
    await expect(later).toHaveCount(0);
    expect((await shown())[0]).toBeGreaterThanOrEqual(newest[0]!);
    // A type chosen on a window keeps the window.
    await earlier.click();
    await expect(page).toHaveURL(/[?&]before=\d+/);
    await page.getByRole('navigation', { name: w.types.label }).getByRole('link', { name: w.types.line }).click();
    await expect(page).toHaveURL(/[?&]type=line/);
    await expect(page).toHaveURL(/[?&]before=\d+/);
    await expect(page.locator('.candle-svg path.price-line').first()).toBeAttached();
    expect((await shown())[0]).toBe(newest.at(-1)! - QUARTER);
  });
}
