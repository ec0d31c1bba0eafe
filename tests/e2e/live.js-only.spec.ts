/**
 * What only JavaScript adds: live prices and skeleton rows on client navigation. The js-off project
 * skips `*.js-only.spec.ts` (playwright.config.ts); without JavaScript the server renders full pages.
 */
import { expect, test } from '@playwright/test';
import { chooseLanguage } from './fixtures';

test('with JavaScript, prices on the market list move without a reload', async ({ page }) => {
  await chooseLanguage(page, 'en');
  await page.goto('/?category=3');
  const price = page.getByRole('listitem', { name: 'BTC/USD' }).getByTestId('price');
  const first = await price.innerText();
  await expect(price).not.toHaveText(first, { timeout: 15_000 });
  // Still the same document: no navigation happened.
  expect(await page.evaluate(() => performance.getEntriesByType('navigation').length)).toBe(1);
});

test('with JavaScript, arriving at the market list from another page shows ten skeleton rows while it loads', async ({ page }) => {
  await chooseLanguage(page, 'en');
  await page.goto('/product');
  // Hold the market list's data for a moment, as a slow network would.
  await page.route(/\/_root\.data|\.data\?/, async (route) => {
    await new Promise((r) => setTimeout(r, 1500));
    await route.continue();
  });
  await page.getByRole('link', { name: 'Back' }).click();
  await expect(page.getByTestId('skeleton-row')).toHaveCount(10);
  await expect(page.getByRole('list', { name: 'Markets' }).getByRole('listitem').first()).toBeVisible({ timeout: 10_000 });
  await expect(page.getByTestId('skeleton-row')).toHaveCount(0);
});

test('when the page strings fail to load, the page tries again and still comes alive', async ({ page }) => {
  // Refused five times: past the retry ladder (0.5 s, 1.5 s, 3 s, 6 s), with the network up all along.
  test.setTimeout(60_000);
  await chooseLanguage(page, 'en');
  let refused = 0;
  await page.route(/\/locales\/en\.json/, async (route) => {
    if (refused < 5) {
      refused++;
      return route.abort('failed');
    }
    await route.continue();
  });
  await page.goto('/?category=3');
  // The server's page is there meanwhile, in its language.
  await expect(page.getByRole('list', { name: 'Markets' })).toBeVisible();
  await expect(page.locator('html')).toHaveAttribute('data-hydrated', 'true', { timeout: 30_000 });
  expect(refused).toBe(5);
  const price = page.getByRole('listitem', { name: 'BTC/USD' }).getByTestId('price');
  const first = await price.innerText();
  await expect(price).not.toHaveText(first, { timeout: 15_000 });
});
