/**
 * The live stream loses no close: not while the phone is offline (the reopened stream names the last
 * event it saw and gets the rest replayed; meanwhile the orders screen says its figures may be old), and not
 * when the same account closes a position on another device. Real app, real upstream; "offline" is Chromium's network emulation, the only fault simulated.
 */
import { expect, test, type Page } from '@playwright/test';
import { chooseLanguage, fact, forceMarket, openDemo, placeOrder, setPrice } from './fixtures';

test.beforeEach(async ({ page }) => {
  await chooseLanguage(page, 'en');
  await forceMarket('EURUSD', 'open');
  await setPrice('EURUSD', '1.10000');
});

test.afterEach(async () => {
  await forceMarket('EURUSD', 'auto');
});

/** The holding list, once it follows the live feed (a row's price moves with the market, frozen so only our prices count). */
async function followingTheFeed(page: Page) {
  const rows = page.getByRole('list', { name: 'Holding' }).getByRole('listitem');
  await expect(rows).toHaveCount(1);
  await forceMarket('EURUSD', 'closed');
  await setPrice('EURUSD', '1.10150');
  await expect(rows.first().getByTestId('current-price')).toHaveText('1.10150', { timeout: 10_000 });
  return rows;
}

test('a take-profit that fires while the phone is offline takes the row away when the stream comes back', async ({ page, context }) => {
  await openDemo(page);
  const id = await placeOrder(page, { takeProfit: '1.10200' });
  await page.goto('/order?type=1');
  const rows = await followingTheFeed(page);
  await page.evaluate(() => Object.assign(window, { sameDocument: true }));

  await context.setOffline(true);
  // The stream is gone: prices are marked as possibly old.
  await page.evaluate(() => window.dispatchEvent(new Event('offline')));
  const stale = page
    .getByRole('status')
    .filter({ hasText: 'Prices are not updating right now, so the profit and prices below may be out of date.' });
  await expect(stale).toBeVisible();
  await setPrice('EURUSD', '1.10300'); // the take profit fires upstream meanwhile
  await page.waitForTimeout(1000);
  await expect(rows).toHaveCount(1); // nothing could reach the page
  await context.setOffline(false);
  await expect(stale).toBeHidden({ timeout: 10_000 });

  await expect(page.getByRole('status').filter({ hasText: `Order #${id} was closed.` })).toBeVisible({ timeout: 10_000 });
  await expect(rows).toHaveCount(0);
  expect(await page.evaluate(() => (window as unknown as { sameDocument?: boolean }).sameDocument)).toBe(true);
});

test('a position closed on another device leaves this one: row, open popup and totals', async ({ page, context }) => {
  await openDemo(page);
  const id = await placeOrder(page);
  // Tab A: the list with the order's popup open.
  await page.goto(`/order?type=1&detail=${id}`);
  await followingTheFeed(page);
  await expect(page.getByRole('dialog')).toContainText(`Order #${id}`);
  const totals = page.getByRole('region', { name: 'Totals' });
  await expect(totals).toContainText('Orders1');

  // Tab B (same account, same cookies), on a slow phone, closes it. Its own push of that close may arrive
  // before React has rendered the submission: it must not cancel the answer's page and its toast.
  await forceMarket('EURUSD', 'open');
  const other = await context.newPage();
  await other.goto(`/order?type=1&detail=${id}`);
  await expect(other.locator('html')).toHaveAttribute('data-hydrated', 'true');
  await expect(fact(other, 'Status')).toBeVisible();
  await (await context.newCDPSession(other)).send('Emulation.setCPUThrottlingRate', { rate: 8 });
  await other.getByRole('dialog').getByRole('button', { name: 'Close position' }).click();
  await expect(other.getByText(`Position #${id} closed.`)).toBeVisible({ timeout: 10_000 });

  await expect(page.getByRole('dialog')).toHaveCount(0, { timeout: 10_000 });
  await expect(page.getByRole('list', { name: 'Holding' }).getByRole('listitem')).toHaveCount(0);
  await expect(totals).toContainText('Orders0');
  await expect(page.getByText('No open positions')).toBeVisible();
});

test('a resync that arrives while a page is loading waits for it, then reruns the loaders', async ({ page }) => {
  await openDemo(page);
  await page.goto('/');
  await expect(page.locator('html')).toHaveAttribute('data-hydrated', 'true');
  // The trade screen's data is held on the way: its navigation stays pending (a slow network, simulated).
  const tradeLoads: string[] = [];
  // The trade screen's own loads (its clientLoader asks for its data apart from the root's: `_routes=routes/trade`).
  page.on('request', (r) => {
    const url = new URL(r.url());
    if (url.pathname === '/trade.data' && (url.searchParams.get('_routes') ?? 'routes/trade').includes('routes/trade'))
      tradeLoads.push(r.url());
  });
  let release = () => {};
  const held = new Promise<void>((resolve) => (release = resolve));
  await page.route('**/trade.data*', async (route) => {
    await held;
    await route.continue();
  });
  // A row of the list: a link of the page itself (the tab bar's are the server's plain links until its code comes
  // at the first idle moment, decision 0025, and a plain link loads a whole document).
  await page.getByRole('listitem', { name: 'EUR/USD' }).getByRole('link').click();
  await expect.poll(() => tradeLoads.length).toBe(1);
  // The stream's `resync` (the hub's answer to an id it no longer has; server/relay/hub.test.ts) reaches the page
  // as this window event. Playwright cannot reroute an EventSource, so the event is raised here.
  await page.evaluate(() => window.dispatchEvent(new Event('live-resync')));
  await page.waitForTimeout(1500);
  // Revalidating now would restart the pending load (and lose a one-time toast): it waits.
  expect(tradeLoads).toHaveLength(1);
  release();
  await expect(page).toHaveURL(/\/trade/);
  // Idle: the loaders run again. (The trade screen's own stream may bring a resync of its own when it lands on
  // another web process, so "again" is at least once, not exactly once.)
  await expect.poll(() => tradeLoads.length).toBeGreaterThanOrEqual(2);
});
