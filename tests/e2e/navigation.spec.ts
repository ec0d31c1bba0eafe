import { expect, test, type Page } from '@playwright/test';
import { axeFor, seriousFindings, WCAG_TAGS } from './axe';
import { chooseLanguage, watchCsp } from './fixtures';

const tabBar = (page: Page) => page.getByRole('navigation', { name: 'Main sections' });

test.beforeEach(async ({ page }) => {
  await chooseLanguage(page, 'en');
});

test('a visitor opening /order logs in (with a demo account) and lands back on /order, with the tab bar', async ({ page }) => {
  const csp = watchCsp(page);
  await page.goto('/order');
  await expect(page).toHaveURL(/\/login\?from=%2Forder$/);
  await expect(page.getByRole('heading', { name: 'Log in' })).toBeVisible();

  await page.getByRole('button', { name: 'Open a demo account' }).click();
  await expect(page.getByText('Your demo account is ready.')).toBeVisible();
  await expect(page).toHaveURL(/\/order$/);
  await expect(page.getByRole('heading', { name: 'Orders' })).toBeVisible();
  await expect(tabBar(page)).toBeVisible();
  await expect(tabBar(page).getByRole('link', { name: 'Orders' })).toBeVisible();

  // The tab bar is on the market list too, but not in the user centre.
  await page.goto('/');
  await expect(tabBar(page)).toBeVisible();
  await page.goto('/mine');
  await expect(page.getByRole('heading', { name: 'User centre' })).toBeVisible();
  await expect(tabBar(page)).toHaveCount(0);
  expect(csp).toEqual([]);
});

test('a toast is dismissed where it came, with or without JavaScript, and the page stays as it was', async ({ page }) => {
  await page.goto('/order');
  await page.getByRole('button', { name: 'Open a demo account' }).click();
  const toast = page.getByRole('status').filter({ hasText: 'Your demo account is ready.' });
  await expect(toast).toBeVisible();
  await expect(page).toHaveURL(/\/order$/);
  // axe runs in the page: with JavaScript on only.
  if (test.info().project.name === 'js-on')
    expect(await seriousFindings(page, axeFor(page).include('.toast').withTags(WCAG_TAGS))).toEqual([]);
  await toast.getByRole('link', { name: 'Dismiss' }).click();
  await expect(toast).toHaveCount(0);
  await expect(page).toHaveURL(/\/order$/);
  await expect(page.getByRole('heading', { name: 'Orders' })).toBeVisible();
});

test('/user needs a login and then shows the user centre', async ({ page }) => {
  await page.goto('/user');
  await expect(page).toHaveURL(/\/login\?from=%2Fuser$/);
  await page.getByRole('button', { name: 'Open a demo account' }).click();
  await expect(page).toHaveURL(/\/mine$/);
  await expect(page.getByRole('heading', { name: 'User centre' })).toBeVisible();
});

test('a visitor in the user centre is offered log in and register, and account pages send them to log in', async ({ page }) => {
  const csp = watchCsp(page);
  await page.goto('/mine');
  const account = page.getByRole('region', { name: 'Your account' });
  await expect(account).toContainText('Not logged in');
  await expect(account.getByRole('link', { name: 'Log in' })).toHaveAttribute('href', '/login?from=%2Fmine');
  await expect(account.getByRole('link', { name: 'Register' })).toHaveAttribute('href', '/register');
  await expect(account).not.toContainText('Balance');

  const entries = page.getByRole('list', { name: 'Account services' }).getByRole('link');
  await expect(entries).toHaveText([
    'Deposit',
    'Withdraw',
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
  await entries.filter({ hasText: 'Deposit' }).click();
  await expect(page).toHaveURL(/\/login\?from=%2Fmine%2Fcharge$/);

  // Pages that are not yet built say so and lead back.
  // The spec's feedback page is an empty stub: it says so and leads back.
  await page.goto('/feedback');
  await expect(page.getByRole('heading', { name: 'Feedback' })).toBeVisible();
  await expect(page.getByText('Coming soon')).toBeVisible();
  await page.getByRole('link', { name: 'Go back' }).click();
  await expect(page).toHaveURL(/\/$/);
  expect(csp).toEqual([]);
});

test('the ranking and news tab pages show the tab bar and their lists', async ({ page }) => {
  for (const [path, title] of [
    ['/rank', 'Copy trading'],
    ['/news', 'News'],
  ] as const) {
    await page.goto(path);
    await expect(page.getByRole('heading', { name: title, level: 1 })).toBeVisible();
    await expect(page.getByRole('list', { name: title }).getByRole('listitem').first()).toBeVisible();
    await expect(tabBar(page)).toBeVisible();
  }
});

test('an unknown path shows the 404 page with a way back to the quotes', async ({ page }) => {
  const csp = watchCsp(page);
  const response = await page.goto('/no-such-page/at-all');
  expect(response?.status()).toBe(404);
  await expect(page.getByRole('heading', { name: 'Page not found' })).toBeVisible();
  await expect(page.getByText('This page does not exist.')).toBeVisible();
  await page.getByRole('link', { name: 'Back to quotes' }).click();
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByRole('heading', { name: 'Markets' })).toBeVisible();
  expect(csp).toEqual([]);
});

test("the drawer's language form switches to Arabic (right to left) and to Japanese", async ({ page }) => {
  const csp = watchCsp(page);
  await page.goto('/');
  await expect(page.locator('html')).toHaveAttribute('lang', 'en');
  await page.getByLabel('Open menu').click();
  await page.getByRole('navigation', { name: 'Menu' }).getByRole('button', { name: 'العربية' }).click();
  await expect(page.locator('html')).toHaveAttribute('lang', 'ar');
  await expect(page.locator('html')).toHaveAttribute('dir', 'rtl');
  await expect(page).toHaveURL(/\/$/);
  // Arabic text, from the server and (with JavaScript) after hydration alike.
  await expect(page.getByRole('navigation', { name: 'الأقسام الرئيسية' }).getByRole('link', { name: 'الأسعار' })).toBeVisible();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(/\p{Script=Arabic}/u);

  await chooseLanguage(page, 'en');
  await page.getByLabel('Open menu').click();
  await page.getByRole('navigation', { name: 'Menu' }).getByRole('button', { name: '日本語' }).click();
  await expect(page.locator('html')).toHaveAttribute('lang', 'ja');
  await expect(page.locator('html')).toHaveAttribute('dir', 'ltr');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(/[\p{Script=Han}\p{Script=Katakana}\p{Script=Hiragana}]/u);
  await page.goto('/login');
  await expect(page.getByRole('heading', { name: 'ログイン' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'デモ口座を開設' })).toBeVisible();
  expect(csp).toEqual([]);
});

test('the web app manifest names the app and its icons are there', async ({ page }) => {
  await page.goto('/');
  await expect(page.locator('link[rel="manifest"]')).toHaveAttribute('href', '/manifest.json');
  const response = await page.request.get('/manifest.json');
  expect(response.ok()).toBe(true);
  const manifest = (await response.json()) as Record<string, unknown> & { icons: { src: string; sizes: string; type: string }[] };
  expect(manifest).toMatchObject({
    name: 'LotFX',
    short_name: 'LotFX',
    start_url: '/',
    display: 'standalone',
    theme_color: '#0b1220',
    background_color: '#0b1220',
  });
  expect(manifest.icons.map((i) => i.sizes).sort()).toEqual(['192x192', '512x512']);
  for (const icon of manifest.icons) {
    const png = await page.request.get(icon.src);
    expect(png.ok()).toBe(true);
    expect(png.headers()['content-type']).toBe('image/png');
    const bytes = await png.body();
    // The PNG header records the width at byte 16: it must match what the manifest says.
    expect(`${bytes.readUInt32BE(16)}x${bytes.readUInt32BE(20)}`).toBe(icon.sizes);
  }
});

test('screens are titled in the language chosen', async ({ page }) => {
  await chooseLanguage(page, 'hk');
  await page.goto('/login');
  await expect(page).toHaveTitle('登入');
  await page.goto('/language');
  await expect(page).toHaveTitle('語言');
  await chooseLanguage(page, 'de');
  await page.goto('/login');
  await expect(page).toHaveTitle('Anmelden');
});
