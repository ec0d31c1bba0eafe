/**
 * Price alerts (issue 13), with JavaScript and without: from the trade screen's link to the alerts screen,
 * the price prefilled with the current one, the direction chosen by the typed price, the alert listed;
 * delete with a confirmation; an alert that fires listed as triggered with its price; the user centre's row.
 */
import { expect, test, type Page } from '@playwright/test';
import { chooseLanguage, forceMarket, openDemo, setPrice } from './fixtures';

test.beforeEach(async ({ page }) => {
  await chooseLanguage(page, 'en');
  // A closed market holds the price still: only the test moves it.
  await forceMarket('EURUSD', 'closed');
  await setPrice('EURUSD', '1.10000');
});

test.afterEach(async () => {
  await forceMarket('EURUSD', 'auto');
});

const active = (page: Page) => page.getByRole('list', { name: /^Active/ }).getByRole('listitem');
const triggered = (page: Page) => page.getByRole('list', { name: 'Triggered' }).getByRole('listitem');

async function addAlert(page: Page, price: string) {
  await page.getByRole('textbox', { name: 'Alert price' }).fill(price);
  await page.getByRole('button', { name: 'Set alert' }).click();
}

test('add alerts from the trade screen’s link, see them listed, delete one; a fired one is listed as triggered', async ({ page }) => {
  await openDemo(page);
  await page.goto('/trade?code=EURUSD');
  await page.getByRole('link', { name: 'Alerts', exact: true }).click();
  await expect(page).toHaveURL(/\/alerts\?code=EURUSD$/);
  await expect(page.getByRole('heading', { name: 'Price alerts' })).toBeVisible();
  await expect(page.getByRole('combobox', { name: 'Product' })).toHaveValue('EURUSD');
  await expect(page.getByText('EUR/USD now: 1.10000')).toBeVisible();
  // The current price is the starting point; at it, no direction is chosen yet.
  await expect(page.getByRole('textbox', { name: 'Alert price' })).toHaveValue('1.10000');
  await expect(page.getByRole('radio', { name: 'Rises to it' })).not.toBeChecked();
  await expect(page.getByRole('radio', { name: 'Falls to it' })).not.toBeChecked();
  await expect(page.getByText('No active alerts.')).toBeVisible();

  // The current price with no direction is a question for the trader, answered next to the field.
  await page.getByRole('button', { name: 'Set alert' }).click();
  await expect(page.getByText('This is the current price: enter a price above or below it, or choose a direction.')).toBeVisible();

  // Above the price: "rises to" (chosen as the trader types with JavaScript, by the server without).
  await page.getByRole('textbox', { name: 'Alert price' }).fill('1.10500');
  if (test.info().project.name === 'js-on') await expect(page.getByRole('radio', { name: 'Rises to it' })).toBeChecked();
  await page.getByRole('button', { name: 'Set alert' }).click();
  await expect(page.getByText('Alert set: EUR/USD rises to 1.10500.')).toBeVisible();
  await expect(active(page)).toHaveCount(1);
  await expect(active(page).first()).toContainText('EUR/USD rises to 1.10500');

  await addAlert(page, '1.09000');
  await expect(page.getByText('Alert set: EUR/USD falls to 1.09000.')).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Active (2/50)' })).toBeVisible();
  await expect(active(page)).toHaveText([/EUR\/USD falls to 1\.09000/, /EUR\/USD rises to 1\.10500/]);

  // Delete asks first (a confirmation in the URL), then the alert is gone.
  await page.getByRole('link', { name: 'Delete alert: EUR/USD rises to 1.10500' }).click();
  await expect(page).toHaveURL(/confirm=delete/);
  const dialog = page.getByRole('dialog', { name: 'Delete this alert?' });
  await expect(dialog).toContainText('EUR/USD rises to 1.10500 will be deleted.');
  await dialog.getByRole('button', { name: 'Delete' }).click();
  await expect(page.getByText('Alert deleted.')).toBeVisible();
  await expect(page.getByRole('dialog')).toHaveCount(0);
  await expect(active(page)).toHaveText([/EUR\/USD falls to 1\.09000/]);

  // The price falls through the level: the alert fires and is kept, triggered, with the price it fired at.
  await setPrice('EURUSD', '1.08950');
  await page.reload();
  await expect(page.getByText('No active alerts.')).toBeVisible();
  await expect(triggered(page)).toHaveCount(1);
  await expect(triggered(page).first()).toContainText('EUR/USD falls to 1.09000');
  await expect(triggered(page).first()).toContainText('Reached 1.08950 on');
});

test('a refused price keeps what was typed; the user centre leads to the alerts', async ({ page }) => {
  await openDemo(page);
  await page.goto('/mine');
  await page.getByRole('link', { name: 'Price alerts' }).click();
  await expect(page.getByRole('heading', { name: 'Price alerts' })).toBeVisible();
  await page.getByRole('combobox', { name: 'Product' }).selectOption('GBPUSD');
  if (test.info().project.name === 'js-off') await page.getByRole('button', { name: 'Show' }).click();
  await expect(page).toHaveURL(/code=GBPUSD/);
  await expect(page.getByText(/^GBP\/USD now: /)).toBeVisible();
  await page.getByRole('textbox', { name: 'Alert price' }).fill('1.2345671');
  await page.getByRole('button', { name: 'Set alert' }).click();
  await expect(page.getByText('The price has more decimals than this product allows.')).toBeVisible();
  await expect(page.getByRole('textbox', { name: 'Alert price' })).toHaveValue('1.2345671');
  // "Falls to" a level above the price would fire at once: the upstream says so next to the direction.
  await page.getByRole('textbox', { name: 'Alert price' }).fill('5.00000');
  await page.getByRole('radio', { name: 'Falls to it' }).check();
  await page.getByRole('button', { name: 'Set alert' }).click();
  await expect(page.getByText(/for "falls to" below it/)).toBeVisible();
  await expect(page.getByRole('textbox', { name: 'Alert price' })).toHaveValue('5.00000');
  await expect(page.getByText('No active alerts.')).toBeVisible();
});
