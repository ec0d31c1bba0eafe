/**
 * The canvas chart's types, crosshair legend and history (issue 40), with JavaScript: the chosen type is the
 * lightweight-charts series drawn (read from the library's own name of it), the crosshair shows the hovered candle's
 * figures by the app's formatters, dragging back loads older candles a page at a time by the `before` cursor, and the
 * screen is axe clean with the new parts open.
 */
import fs from 'node:fs';
import { seriousFindings } from './axe';
import { expect, test, type Page } from '@playwright/test';
import { reachForChart } from './chart-fixtures';
import { chooseLanguage, forceMarket, watchCsp } from './fixtures';

const TRADE = '/trade?code=BTCUSD&period=15min';

interface Words {
  label: string;
  periods: Record<string, string>;
  types: Record<'label' | 'candles' | 'bars' | 'line' | 'area', string>;
  data: Record<'summary' | 'time' | 'open' | 'high' | 'low' | 'close', string>;
}
const words = (lng: string) => (JSON.parse(fs.readFileSync(`locales/${lng}/trade.json`, 'utf8')) as { chart: Words }).chart;
const SERIES = { candles: 'Candlestick', bars: 'Bar', line: 'Line', area: 'Area' } as const;

for (const lng of ['en', 'hk', 'ar'] as const) {
  test(`${lng}: the canvas draws the chosen type, live, and its crosshair shows the candle's figures`, async ({ page }) => {
    const csp = watchCsp(page);
    const w = words(lng);
    await chooseLanguage(page, lng);
    await page.goto(TRADE);
    const figure = page.locator('figure.candle-chart');
    await reachForChart(page, figure);
    const canvas = figure.locator('.candle-canvas');
    await expect(canvas).toHaveAttribute('data-series', SERIES.candles);
    const bar = page.getByRole('navigation', { name: w.types.label });
    for (const type of ['bars', 'line', 'area', 'candles'] as const) {
      await bar.getByRole('link', { name: w.types[type] }).click();
      await expect(page).toHaveURL(type === 'candles' ? /[?&]type=candles/ : new RegExp(`[?&]type=${type}`));
      // Another series: the canvas is drawn anew in that type.
      await expect(canvas).toHaveAttribute('data-series', SERIES[type], { timeout: 10_000 });
      await expect(figure).toHaveClass(/canvas-ready/);
    }
    // The crosshair over a candle: its time, open, high, low and close.
    await bar.getByRole('link', { name: w.types.line }).click();
    await expect(canvas).toHaveAttribute('data-series', 'Line', { timeout: 10_000 });
    await expect(figure).toHaveClass(/canvas-ready/);
    const legend = figure.locator('.crosshair-legend');
    const box = (await figure.boundingBox())!;
    await page.mouse.move(box.x + box.width * 0.5, box.y + box.height * 0.5);
    await expect(legend).toBeVisible();
    for (const name of ['open', 'high', 'low', 'close'] as const) {
      await expect(legend.locator(`.${name}`)).toContainText(w.data[name]);
      await expect(legend.locator(`.${name}`)).toContainText(/\d+\.\d\d/);
    }
    await expect(legend.locator('.time')).toContainText(/\d/);
    // Off the chart: no legend.
    await page.mouse.move(box.x + box.width * 0.5, box.y - 40);
    await expect(legend).toBeHidden();
    expect(csp).toEqual([]);
  });
}

/** The `before` of every /candles request the canvas makes, in order, with the first time of each answer. */
function watchHistory(page: Page) {
  const pages: { before: number; first: number | undefined; count: number }[] = [];
  page.on('response', async (res) => {
    const url = new URL(res.url());
    if (url.pathname !== '/candles' || url.searchParams.get('code') !== 'LTCUSD') return;
    const list = (await res.json()) as { time: number }[];
    pages.push({ before: Number(url.searchParams.get('before')), first: list[0]?.time, count: list.length });
  });
  return pages;
}

test('dragging back loads older candles page by page, each page before the last one', async ({ page }) => {
  test.setTimeout(90_000);
  await chooseLanguage(page, 'en');
  // Closed: no tick moves the chart meanwhile.
  await forceMarket('LTCUSD', 'closed');
  try {
    const pages = watchHistory(page);
    await page.goto('/trade?code=LTCUSD&period=15min');
    const figure = page.locator('figure.candle-chart');
    await reachForChart(page, figure);
    // The first page: the candles before the ones the page carried.
    await expect.poll(() => pages.length).toBe(1);
    expect(pages[0]!.before).toBeGreaterThan(0);
    expect(pages[0]!.count).toBe(300);
    const box = (await figure.boundingBox())!;
    const drag = async () => {
      await page.mouse.move(box.x + box.width * 0.1, box.y + box.height * 0.5);
      await page.mouse.down();
      await page.mouse.move(box.x + box.width * 0.9, box.y + box.height * 0.5, { steps: 8 });
      await page.mouse.up();
    };
    // About 50 candles a drag: the 364 loaded are passed after some drags, and not one page more is asked before.
    for (let i = 0; i < 30 && pages.length < 3; i++) {
      await drag();
      await page.waitForTimeout(150);
      if (i < 3) expect(pages.length, 'no page is asked before the trader nears the oldest candle').toBe(1);
    }
    expect(pages.length).toBeGreaterThanOrEqual(3);
    // Page by page: each cursor is the oldest candle of the page before it.
    for (let k = 1; k < pages.length; k++) {
      expect(pages[k]!.before).toBe(pages[k - 1]!.first);
      expect(pages[k]!.count).toBe(300);
    }
  } finally {
    await forceMarket('LTCUSD', 'auto');
  }
});

for (const lng of ['en', 'ar'] as const) {
  test(`${lng}: the trade screen with the type bar, history links and Data table open is axe clean`, async ({ page }) => {
    // axe walks the whole screen (a busy machine takes a while).
    test.setTimeout(90_000);
    const w = words(lng);
    await chooseLanguage(page, lng);
    await page.goto(`${TRADE}&type=area`);
    await expect(page.locator('html')).toHaveAttribute('data-hydrated', 'true');
    await page.locator('details.chart-data summary').click();
    await expect(page.getByRole('table')).toBeVisible();
    await expect(page.getByRole('navigation', { name: w.types.label })).toBeVisible();
    // From the top, as the screen opens: the sticky header would otherwise lie over the bars scrolled under it.
    await page.evaluate(() => window.scrollTo(0, 0));
    expect(await seriousFindings(page)).toEqual([]);
  });
}
