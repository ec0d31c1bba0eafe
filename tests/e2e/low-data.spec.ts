/**
 * Low data mode (issue 12) on /mine/system: a switch that posts (with its CSRF token) and works with
 * JavaScript on and off. The hub's side — a browser with this cookie or `Save-Data: on` gets at most one
 * quote per instrument per second — is tested in server/relay/hub-fake-upstream.test.ts.
 */
import { expect, test, type Page } from '@playwright/test';
import { chooseLanguage } from './fixtures';

const lowDataSwitch = (page: Page) => page.getByRole('switch', { name: 'Low data mode' });

/** The cookie the live stream's request carries to the hub. */
async function lowDataCookie(page: Page) {
  return (await page.context().cookies()).find((c) => c.name === '__Host-low-data')?.value;
}

test('the "Low data mode" switch turns low data on and off, says so, and is remembered', async ({ page }) => {
  await chooseLanguage(page, 'en');
  await page.goto('/mine/system');
  await expect(lowDataSwitch(page)).toHaveAttribute('aria-checked', 'false');
  await expect(lowDataSwitch(page)).toContainText('Off');
  await expect(page.getByText('Prices update at most once a second, to use less mobile data.')).toBeVisible();
  expect(await lowDataCookie(page)).toBeUndefined();

  await lowDataSwitch(page).click();
  await expect(page.getByRole('status').filter({ hasText: 'Low data mode is on' })).toBeVisible();
  await expect(page).toHaveURL(/\/mine\/system$/);
  await expect(lowDataSwitch(page)).toHaveAttribute('aria-checked', 'true');
  await expect(lowDataSwitch(page)).toContainText('On');
  expect(await lowDataCookie(page)).toBe('1');

  // Remembered on the next visit.
  await page.goto('/mine/system');
  await expect(lowDataSwitch(page)).toHaveAttribute('aria-checked', 'true');

  await lowDataSwitch(page).click();
  await expect(page.getByRole('status').filter({ hasText: 'Low data mode is off' })).toBeVisible();
  await expect(lowDataSwitch(page)).toHaveAttribute('aria-checked', 'false');
  await expect(lowDataSwitch(page)).toContainText('Off');
  expect(await lowDataCookie(page)).toBeUndefined();
});

test("with the browser's data saver on (Save-Data: on), the page says low data already applies", async ({ page }) => {
  await chooseLanguage(page, 'en');
  await page.goto('/mine/system');
  await expect(page.getByText("Your browser's data saver is on")).toHaveCount(0);
  await page.setExtraHTTPHeaders({ 'Save-Data': 'on' });
  await page.goto('/mine/system');
  await expect(page.getByText("Your browser's data saver is on, so this already applies.")).toBeVisible();
});

test('the switch speaks the chosen language', async ({ page }) => {
  await chooseLanguage(page, 'hk');
  await page.goto('/mine/system');
  const hkSwitch = page.getByRole('switch', { name: '低數據模式' });
  await expect(hkSwitch).toContainText('關');
  await hkSwitch.click();
  await expect(page.getByRole('status').filter({ hasText: '低數據模式已開啟' })).toBeVisible();
  await expect(page.getByRole('switch', { name: '低數據模式' })).toContainText('開');
});
