/**
 * One-tap trading (issue 13), a setting of the user centre (/mine/system), off by default: off, "Buy up" and
 * "Buy low" ask to confirm the order first; on, one tap places it. A double tap still places one order: the
 * ticket's one-time idempotency key is the same either way. JavaScript on and off.
 */
import { expect, test, type Page } from '@playwright/test';
import { chooseLanguage, forceMarket, openDemo, setPrice, ticketReady } from './fixtures';

const oneTapSwitch = (page: Page) => page.getByRole('switch', { name: 'One-tap trading' });
const holdingRows = (page: Page) => page.getByRole('list', { name: 'Holding' }).getByRole('listitem');

async function openTicket(page: Page) {
  await page.goto('/trade?code=EURUSD');
  if (test.info().project.name === 'js-on') await ticketReady(page);
  const ticket = page.getByRole('form', { name: 'Place an order' });
  await ticket.getByRole('radio', { name: 'Market price' }).check();
  await ticket.getByRole('spinbutton', { name: 'Lots', exact: true }).fill('0.01');
  const buy = ticket.getByRole('button', { name: 'Buy up (long)', exact: true });
  await expect(buy).toBeEnabled({ timeout: 10_000 });
  return { ticket, buy };
}

test.beforeEach(async () => {
  await forceMarket('EURUSD', 'open');
  await setPrice('EURUSD', '1.10000');
});

test.afterAll(async () => {
  await forceMarket('EURUSD', 'auto');
});

test('off by default the order is confirmed first; turned on in the user centre, one tap places it once', async ({ page }) => {
  await chooseLanguage(page, 'en');
  await openDemo(page);

  // Off: the confirmation shows, and nothing is placed until it is confirmed.
  let { ticket, buy } = await openTicket(page);
  await expect(ticket.getByTestId('one-tap-on')).toHaveCount(0);
  await buy.click();
  const confirmation = page.getByRole('dialog', { name: 'Confirm your order' });
  await expect(confirmation).toBeVisible();
  await expect(confirmation).toContainText('Buy up (long) · EUR/USD');
  await expect(confirmation.getByRole('link', { name: 'Settings' })).toHaveAttribute('href', '/mine/system');
  await confirmation.getByRole('button', { name: 'Cancel' }).click();
  await expect(page.getByRole('dialog')).toHaveCount(0);
  await page.goto('/order?type=1');
  await expect(page.getByText('No open positions')).toBeVisible();

  // The setting, in the user centre: off, then on, remembered.
  await page.goto('/mine');
  await page.getByRole('link', { name: 'Other' }).click();
  await expect(page).toHaveURL(/\/mine\/system$/);
  await expect(oneTapSwitch(page)).toHaveAttribute('aria-checked', 'false');
  await expect(page.getByText('Buy up and Buy low place the order at once, without asking you to confirm it.')).toBeVisible();
  await oneTapSwitch(page).click();
  await expect(page.getByRole('status').filter({ hasText: 'One-tap trading is on' })).toBeVisible();
  await expect(oneTapSwitch(page)).toHaveAttribute('aria-checked', 'true');
  expect((await page.context().cookies()).find((c) => c.name === '__Host-one-tap')?.value).toBe('1');

  // On: the ticket says so, and a double tap places one order with no confirmation.
  ({ ticket, buy } = await openTicket(page));
  await expect(ticket.getByTestId('one-tap-on')).toContainText('One-tap trading is on');
  await buy.dblclick();
  const placed = page.getByRole('dialog', { name: 'Your order has been confirmed' });
  await expect(placed).toBeVisible();
  await expect(page.getByRole('dialog', { name: 'Confirm your order' })).toHaveCount(0);
  const id = /(\d+)/.exec(await placed.getByText(/Order number/).innerText())?.[1];
  await page.goto('/order?type=1');
  await expect(holdingRows(page)).toHaveCount(1);
  await expect(holdingRows(page).first().getByRole('link')).toHaveAttribute('href', new RegExp(`detail=${id}\\b`));

  // Off again: the confirmation is back.
  await page.goto('/mine/system');
  await oneTapSwitch(page).click();
  await expect(page.getByRole('status').filter({ hasText: 'One-tap trading is off' })).toBeVisible();
  await expect(oneTapSwitch(page)).toHaveAttribute('aria-checked', 'false');
  ({ buy } = await openTicket(page));
  await buy.click();
  await expect(page.getByRole('dialog', { name: 'Confirm your order' })).toBeVisible();
});

test('confirming places the order once, even when "Place order" is tapped twice', async ({ page }) => {
  await chooseLanguage(page, 'en');
  await openDemo(page);
  const { buy } = await openTicket(page);
  await buy.click();
  const confirmation = page.getByRole('dialog', { name: 'Confirm your order' });
  await confirmation.getByRole('button', { name: 'Place order' }).dblclick();
  await expect(page.getByRole('dialog', { name: 'Your order has been confirmed' })).toBeVisible();
  await page.goto('/order?type=1');
  await expect(holdingRows(page)).toHaveCount(1);
});

test('the switch speaks the chosen language', async ({ page }) => {
  await chooseLanguage(page, 'hk');
  await page.goto('/mine/system');
  const hkSwitch = page.getByRole('switch', { name: '一鍵交易' });
  await expect(hkSwitch).toContainText('關');
  await hkSwitch.click();
  await expect(page.getByRole('status').filter({ hasText: '一鍵交易已開啟' })).toBeVisible();
  await expect(page.getByRole('switch', { name: '一鍵交易' })).toContainText('開');
});
