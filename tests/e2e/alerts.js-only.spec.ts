/**
 * A price alert that fires while the trader is on another page (issue 13): the relay brings it on the
 * page's stream and a toast says so there, with a link to the alerts screen.
 */
import { seriousFindings } from './axe';
import fs from 'node:fs';
import { expect, test, type Page } from '@playwright/test';
import { chooseLanguage, forceMarket, openDemo, setPrice } from './fixtures';

test.beforeEach(async ({ page }) => {
  await chooseLanguage(page, 'en');
  await forceMarket('EURUSD', 'closed');
  await setPrice('EURUSD', '1.10000');
});

test.afterEach(async () => {
  await forceMarket('EURUSD', 'auto');
});

test('an alert fires while the trader is on the orders page: a toast shows there', async ({ page }) => {
  await openDemo(page);
  await page.goto('/alerts?code=EURUSD');
  await page.getByRole('textbox', { name: 'Alert price' }).fill('1.10500');
  await expect(page.getByRole('radio', { name: 'Rises to it' })).toBeChecked();
  await page.getByRole('textbox', { name: 'Note (optional)' }).fill('breakout');
  await page.getByRole('button', { name: 'Set alert' }).click();
  await expect(page.getByText('Alert set: EUR/USD rises to 1.10500.')).toBeVisible();

  const streamOpen = page.waitForResponse((r) => new URL(r.url()).pathname === '/stream');
  await page.goto('/order');
  await streamOpen;
  // The relay's socket for this user logs in and subscribes upstream just after the stream opens.
  await page.waitForTimeout(1000);
  await setPrice('EURUSD', '1.10600');
  const toast = page.getByRole('alert').filter({ hasText: 'Price alert' });
  await expect(toast).toBeVisible();
  await expect(toast).toContainText('Price alert: EUR/USD rises to 1.10500 (now 1.10600)');
  await expect(toast).toContainText('breakout');
  await expect(page).toHaveURL(/\/order/);
  // Its link leads to the list, where the alert is kept as triggered.
  await toast.getByRole('link', { name: 'View alerts' }).click();
  await expect(page.getByRole('list', { name: 'Triggered' }).getByRole('listitem')).toContainText('Reached 1.10600 on');
});

for (const lng of ['en', 'ar']) {
  test(`the alerts screen, its confirmation and a fired alert's toast have no serious accessibility findings (${lng})`, async ({
    page,
  }) => {
    // The screen's words in this language, as the trader reads them.
    const words = JSON.parse(fs.readFileSync(`locales/${lng}/alerts.json`, 'utf8')) as Record<string, string>;
    await openDemoIn(page, lng);
    await page.goto('/alerts?code=EURUSD');
    await page.getByRole('textbox', { name: words.price }).fill('1.10500');
    await page.getByRole('button', { name: words.submit }).click();
    await expect(page.getByRole('link', { name: words.delete })).toHaveCount(1);
    await expect(page).toHaveURL(/\/alerts\?code=EURUSD$/);
    const streamOpen = page.waitForResponse((r) => new URL(r.url()).pathname === '/stream');
    await page.reload();
    await streamOpen;
    await expect(page.locator('html')).toHaveAttribute('data-hydrated', 'true');
    expect.soft(await seriousFindings(page), 'the alerts screen').toEqual([]);
    await page.waitForTimeout(1000);
    await setPrice('EURUSD', '1.10600');
    await expect(page.getByRole('alert')).toBeVisible();
    expect.soft(await seriousFindings(page), 'a fired alert’s toast').toEqual([]);
    await page.getByRole('link', { name: words.delete }).click();
    await expect(page.getByRole('dialog')).toBeVisible();
    expect.soft(await seriousFindings(page), 'the delete confirmation').toEqual([]);
  });
}

/** A demo account, whatever the page's language (the login page's button is named in it). */
async function openDemoIn(page: Page, lng: string) {
  if (lng === 'en') return openDemo(page);
  await chooseLanguage(page, 'en');
  await openDemo(page);
  await chooseLanguage(page, lng);
}
