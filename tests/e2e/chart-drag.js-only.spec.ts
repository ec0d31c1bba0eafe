/**
 * Dragging a stop-loss line on the canvas chart, with a mouse and with a finger: letting go asks first,
 * then saves through the orders screen's own take-profit / stop-loss form, and the order's popup shows the
 * new price. A stop loss dragged to the wrong side of the price is refused: the line goes back and the
 * upstream's message says why.
 */
import { expect, test, type Locator, type Page } from '@playwright/test';
import { buyWithStops, reachForChart } from './chart-fixtures';
import { chooseLanguage, forceMarket, openDemo, setPrice } from './fixtures';

test.beforeEach(async ({ page }) => {
  await chooseLanguage(page, 'en');
  await forceMarket('EURUSD', 'open');
  await setPrice('EURUSD', '1.10000');
});

test.afterEach(async () => {
  await forceMarket('EURUSD', 'auto');
});

/**
 * Where the stop-loss line is drawn (page coordinates of a point on it, left of the price axis): the lowest
 * pixel row of the chart's pane in the stop-loss colour that runs across most of the pane. Read from the
 * canvas, as the trader sees it.
 */
async function stopLossLine(figure: Locator): Promise<{ x: number; y: number }> {
  return figure.evaluate((fig) => {
    const canvases = [...fig.querySelectorAll('canvas')];
    const area = (c: HTMLCanvasElement) => c.getBoundingClientRect().width * c.getBoundingClientRect().height;
    const pane = canvases.reduce((a, b) => (area(b) > area(a) ? b : a));
    const box = pane.getBoundingClientRect();
    const colour = getComputedStyle(fig).getPropertyValue('--down').trim() || '#f3525b';
    const want = [1, 3, 5].map((i) => parseInt(colour.slice(i, i + 2), 16));
    // The pane has two layers; the lines are on one of them.
    let best = -1;
    for (const c of canvases.filter(
      (c) => Math.abs(c.getBoundingClientRect().width - box.width) < 1 && Math.abs(c.getBoundingClientRect().top - box.top) < 1,
    )) {
      const data = c.getContext('2d')!.getImageData(0, 0, c.width, c.height).data;
      for (let y = 0; y < c.height; y++) {
        let hits = 0;
        for (let x = 0; x < c.width; x++) {
          const i = (y * c.width + x) * 4;
          if (
            Math.abs(data[i]! - want[0]!) + Math.abs(data[i + 1]! - want[1]!) + Math.abs(data[i + 2]! - want[2]!) < 40 &&
            data[i + 3]! > 200
          )
            hits++;
        }
        if (hits > c.width * 0.4) best = Math.max(best, (y + 0.5) * (box.height / c.height));
      }
    }
    if (best < 0) throw new Error('no stop-loss line on the chart');
    return { x: box.left + box.width * 0.5, y: box.top + best };
  });
}

async function openChart(page: Page): Promise<Locator> {
  await page.goto('/trade?code=EURUSD');
  const figure = page.getByRole('figure', { name: /^EUR\/USD / });
  await reachForChart(page, figure);
  await expect(figure.getByRole('list', { name: 'Your orders on the chart' }).getByRole('listitem')).toHaveCount(3);
  // Let the chart settle (its price scale widens to take in the lines): the stop loss stays where it is drawn.
  const frame = () => page.evaluate(() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done))));
  await expect
    .poll(async () => {
      const before = await stopLossLine(figure);
      await frame();
      return before.y === (await stopLossLine(figure)).y;
    })
    .toBe(true);
  return figure;
}

/** The stop loss the order's popup on the orders screen shows. */
async function stopLossInPopup(page: Page, id: string): Promise<string> {
  await page.goto(`/order?type=1&detail=${id}`);
  return page.getByRole('dialog').getByRole('textbox', { name: 'Stop loss' }).inputValue();
}

test('dragging the stop loss with the mouse asks, saves, and the order shows the new stop loss', async ({ page }) => {
  await openDemo(page);
  const id = await buyWithStops(page, '1.10500', '1.09500');
  // The price stays put while the line is moved.
  await forceMarket('EURUSD', 'closed');
  const figure = await openChart(page);

  const line = await stopLossLine(figure);
  await page.mouse.move(line.x, line.y);
  await page.mouse.down();
  await page.mouse.move(line.x, line.y + 15, { steps: 5 });
  await page.mouse.move(line.x, line.y + 30, { steps: 5 });
  await page.mouse.up();

  const dialog = page.getByRole('dialog', { name: 'Move stop loss' });
  await expect(dialog).toBeVisible();
  const asked = await dialog.getByText(new RegExp(`^Move stop loss of #${id} to 1\\.\\d{5}\\?$`)).innerText();
  const price = /(1\.\d{5})/.exec(asked)![1]!;
  // Lower than before, as dragged.
  expect(Number(price)).toBeLessThan(1.095);
  // The confirmation is a dialog with buttons, its confirm button in focus.
  await expect(dialog.getByRole('button', { name: 'Move', exact: true })).toBeFocused();
  await dialog.getByRole('button', { name: 'Move', exact: true }).click();
  // Saved: the chart's list of lines says so. (Its "saved" toast is sometimes replaced by a reload of the page's
  // data before it shows: a known fault, noted for the next change of the chart's refresh.)
  await expect(figure.getByRole('list', { name: 'Your orders on the chart' })).toContainText(`Stop loss of #${id} at ${price}`);
  expect(await stopLossInPopup(page, id)).toBe(price);
});

test('a cancelled drag puts the line back and saves nothing', async ({ page }) => {
  await openDemo(page);
  const id = await buyWithStops(page, '1.10500', '1.09500');
  await forceMarket('EURUSD', 'closed');
  const figure = await openChart(page);
  const line = await stopLossLine(figure);
  await page.mouse.move(line.x, line.y);
  await page.mouse.down();
  await page.mouse.move(line.x, line.y + 25, { steps: 5 });
  await page.mouse.up();
  await expect(page.getByRole('dialog', { name: 'Move stop loss' })).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(page.getByRole('dialog')).toHaveCount(0);
  await page.evaluate(() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done))));
  expect(Math.abs((await stopLossLine(figure)).y - line.y)).toBeLessThan(2);
  expect(await stopLossInPopup(page, id)).toBe('1.09500');
});

test('a stop loss dragged above the price of a buy is refused: the line goes back and the message says why', async ({ page }) => {
  await openDemo(page);
  const id = await buyWithStops(page, '1.10500', '1.09500');
  await forceMarket('EURUSD', 'closed');
  const figure = await openChart(page);
  const line = await stopLossLine(figure);
  const pane = (await figure.boundingBox())!;

  await page.mouse.move(line.x, line.y);
  await page.mouse.down();
  // Up to the top of the chart: above the take profit, far above the price.
  await page.mouse.move(line.x, pane.y + 12, { steps: 10 });
  await page.mouse.up();
  const dialog = page.getByRole('dialog', { name: 'Move stop loss' });
  await dialog.getByRole('button', { name: 'Move', exact: true }).click();

  await expect(page.getByRole('alert').filter({ hasText: 'The stop-loss price is on the wrong side of the price.' })).toBeVisible();
  await page.evaluate(() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done))));
  expect(Math.abs((await stopLossLine(figure)).y - line.y)).toBeLessThan(2);
  expect(await stopLossInPopup(page, id)).toBe('1.09500');
});

test('dragging the stop loss with a finger asks and saves too', async ({ page }) => {
  await openDemo(page);
  const id = await buyWithStops(page, '1.10500', '1.09500');
  await forceMarket('EURUSD', 'closed');
  const figure = await openChart(page);
  const line = await stopLossLine(figure);

  // Playwright's touchscreen only taps: the finger's press, moves and release go through Chromium's input domain.
  const cdp = await page.context().newCDPSession(page);
  const touch = (type: 'touchStart' | 'touchMove' | 'touchEnd', y: number) =>
    cdp.send('Input.dispatchTouchEvent', { type, touchPoints: type === 'touchEnd' ? [] : [{ x: line.x, y }] });
  await touch('touchStart', line.y);
  for (let dy = 5; dy <= 30; dy += 5) await touch('touchMove', line.y + dy);
  await touch('touchEnd', line.y + 30);

  const dialog = page.getByRole('dialog', { name: 'Move stop loss' });
  await expect(dialog).toBeVisible();
  const price = /(1\.\d{5})\?$/.exec(await dialog.getByText(/^Move stop loss of #/).innerText())![1]!;
  expect(Number(price)).toBeLessThan(1.095);
  await dialog.getByRole('button', { name: 'Move', exact: true }).click();
  await expect(figure.getByRole('list', { name: 'Your orders on the chart' })).toContainText(`Stop loss of #${id} at ${price}`);
  expect(await stopLossInPopup(page, id)).toBe(price);
});
