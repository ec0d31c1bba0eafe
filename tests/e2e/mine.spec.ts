import { expect, test, type Page } from '@playwright/test';
import { admin, chooseLanguage, logInRealAccount, openDemo, watchCsp } from './fixtures';

const account = (page: Page) => page.getByRole('region', { name: 'Your account' });

/** The uid shown in the user centre ("UID: 12345678"). */
async function shownUid(page: Page): Promise<string> {
  const text = await account(page)
    .getByText(/^UID: \d+$/)
    .innerText();
  return text.replace(/\D/g, '');
}

test.beforeEach(async ({ page }) => {
  await chooseLanguage(page, 'en');
});

test('a demo account sees "Demo account", its uid and 100,000.00; the balance can be hidden and stays hidden', async ({ page }) => {
  const csp = watchCsp(page);
  await openDemo(page);
  await page.goto('/mine');
  await expect(page.getByRole('heading', { name: 'User centre' })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Back' })).toHaveAttribute('href', '/');
  await expect(account(page)).toContainText('Demo account');
  expect(await shownUid(page)).toMatch(/^\d{8}$/);
  await expect(account(page).getByText('100,000.00', { exact: true })).toBeVisible();

  await account(page).getByRole('link', { name: 'Hide balance' }).click();
  await expect(account(page).getByText('******', { exact: true })).toBeVisible();
  await expect(account(page)).not.toContainText('100,000.00');
  // With JavaScript the new state shows before the answer that saves the choice; the address changes with that answer.
  await expect(page).toHaveURL(/\/mine\?hide=1$/);
  // Remembered: the plain page keeps it hidden.
  await page.goto('/mine');
  await expect(account(page).getByText('******', { exact: true })).toBeVisible();

  await account(page).getByRole('link', { name: 'Show balance' }).click();
  await expect(account(page).getByText('100,000.00', { exact: true })).toBeVisible();
  await expect(page).toHaveURL(/\/mine\?hide=0$/);
  await page.goto('/mine');
  await expect(account(page).getByText('100,000.00', { exact: true })).toBeVisible();
  expect(csp).toEqual([]);
});

test('the user centre lists its entries in order, with "Reset demo account" for a demo account', async ({ page }) => {
  await openDemo(page);
  await page.goto('/mine');
  await expect(page.getByRole('list', { name: 'Account services' }).getByRole('link')).toHaveText([
    'Deposit',
    'Withdraw',
    'Reset demo account',
    'Wallet',
    'Real-name authentication',
    'Invite friends',
    'Price alerts',
    'Change password',
    'Online service',
    'Complaint e-mail',
    'Announcement',
    'Language',
    'Other',
  ]);
});

test('resetting the demo account asks first, then restores 100,000.00', async ({ page }) => {
  const csp = watchCsp(page);
  await openDemo(page);
  await page.goto('/mine');
  await admin('POST', '/admin/balance', { user: await shownUid(page), amount: '-500', memo: 'test' });
  await page.reload();
  await expect(account(page).getByText('99,500.00', { exact: true })).toBeVisible();

  await page.getByRole('link', { name: 'Reset demo account' }).click();
  const dialog = page.getByRole('dialog', { name: 'Reset your demo account?' });
  await expect(dialog).toBeVisible();
  await dialog.getByRole('link', { name: 'Cancel' }).click();
  await expect(dialog).toHaveCount(0);
  await expect(account(page).getByText('99,500.00', { exact: true })).toBeVisible();

  await page.getByRole('link', { name: 'Reset demo account' }).click();
  await dialog.getByRole('button', { name: 'Reset' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Your demo account has been reset' })).toBeVisible();
  await expect(page).toHaveURL(/\/mine$/);
  await expect(dialog).toHaveCount(0);
  await expect(account(page).getByText('100,000.00', { exact: true })).toBeVisible();
  expect(csp).toEqual([]);
});

/** What a demo account meets on a page it may not open (spec §4). */
async function expectDemoBlocked(page: Page, path: string) {
  const response = await page.goto(path);
  expect(response?.status()).toBe(403);
  const blocked = page.getByRole('alert');
  await expect(blocked).toContainText('Please register or log in to a real account');
  await expect(blocked.getByRole('link', { name: 'Register' })).toHaveAttribute('href', `/register?from=${encodeURIComponent(path)}`);
  await expect(blocked.getByRole('link', { name: 'Log in' })).toHaveAttribute('href', `/login?from=${encodeURIComponent(path)}`);
}

test('a demo account may not open deposit, withdraw, wallet, auth or invite: it is asked to use a real account', async ({ page }) => {
  const csp = watchCsp(page);
  await openDemo(page);
  for (const path of ['/mine/charge', '/mine/withdraw', '/mine/wallet', '/mine/auth', '/mine/invite']) await expectDemoBlocked(page, path);
  // The same when arriving from the user centre's entry.
  await page.goto('/mine');
  await page.getByRole('link', { name: 'Withdraw' }).click();
  await expect(page).toHaveURL(/\/mine\/withdraw$/);
  await expect(page.getByRole('alert')).toContainText('Please register or log in to a real account');
  await page.getByRole('link', { name: 'Back' }).click();
  await expect(page).toHaveURL(/\/mine$/);
  expect(csp).toEqual([]);
});

test('a demo account may not change its password: it is asked to use a real account', async ({ page }) => {
  await openDemo(page);
  await expectDemoBlocked(page, '/mine/password');
});

test('a real account sees its e-mail, no demo reset, and opens deposit', async ({ page }) => {
  const email = await logInRealAccount(page);
  await page.goto('/mine');
  await expect(account(page)).toContainText(email);
  await expect(account(page).getByText('0.00', { exact: true })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Reset demo account' })).toHaveCount(0);
  // A typed ?confirm=reset-demo does nothing for a real account.
  await page.goto('/mine?confirm=reset-demo');
  await expect(page.getByRole('dialog')).toHaveCount(0);

  await page.getByRole('link', { name: 'Deposit' }).click();
  await expect(page).toHaveURL(/\/mine\/charge$/);
  await expect(page.getByRole('heading', { name: 'Deposit', level: 1 })).toBeVisible();
  await expect(page.getByRole('link', { name: 'USDT · TRC20' })).toBeVisible();
  await expect(page.getByText('Please register or log in to a real account')).toHaveCount(0);
});

test('logging out asks first, then ends the session with "You have logged out."', async ({ page }) => {
  const csp = watchCsp(page);
  await openDemo(page);
  await page.goto('/mine');
  await page.getByRole('link', { name: 'Other' }).click();
  await expect(page).toHaveURL(/\/mine\/system$/);
  await expect(page.getByRole('heading', { name: 'Other' })).toBeVisible();
  await expect(page.getByText('Version')).toBeVisible();

  await page.getByRole('link', { name: 'Log out' }).click();
  const dialog = page.getByRole('dialog', { name: 'Log out?' });
  await expect(dialog).toBeVisible();
  await dialog.getByRole('link', { name: 'Cancel' }).click();
  await expect(dialog).toHaveCount(0);

  await page.getByRole('link', { name: 'Log out' }).click();
  await dialog.getByRole('button', { name: 'Log out' }).click();
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByRole('status').filter({ hasText: 'You have logged out.' })).toBeVisible();
  await page.getByLabel('Open menu').click();
  await expect(page.getByRole('navigation', { name: 'Menu' }).getByRole('link', { name: 'Log in' })).toBeVisible();

  // Signed out for real: an account page asks to log in again, and the system page has no "Log out".
  await page.goto('/order');
  await expect(page).toHaveURL(/\/login\?from=%2Forder$/);
  await page.goto('/mine/system');
  await expect(page.getByRole('link', { name: 'Log out' })).toHaveCount(0);
  expect(csp).toEqual([]);
});

test('GET /logout only opens the confirmation', async ({ page }) => {
  await openDemo(page);
  await page.goto('/logout');
  await expect(page).toHaveURL(/\/mine\/system\?confirm=logout$/);
  await expect(page.getByRole('dialog', { name: 'Log out?' })).toBeVisible();
  await page.goto('/mine');
  await expect(account(page)).toContainText('Demo account');
});
