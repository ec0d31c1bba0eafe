/** What only JavaScript does on the content screens: copy with "copied", the coming-soon toast in place, the chat reached by a tap. */
import { expect, test } from '@playwright/test';
import { chooseLanguage, watchCsp } from './fixtures';

/** The CSP directive that lets a page frame the seeded chat, and nothing else. */
const FRAMES_SUPPORT = /(^|; )frame-src https:\/\/support\.example\.com($|;)/;

test.beforeEach(async ({ page }) => {
  await chooseLanguage(page, 'en');
});

test('the complaint e-mail is copied to the clipboard and the page says so', async ({ page, context }) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  await page.goto('/mine/email');
  await expect(page.locator('html[data-hydrated]')).toBeAttached();
  await page.getByRole('button', { name: 'Copy' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Copied' })).toBeVisible();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe('support@example.com');
});

test('tapping a leader shows the coming-soon toast on the ranking itself, again on each tap', async ({ page }) => {
  await page.goto('/rank');
  await expect(page.locator('html[data-hydrated]')).toBeAttached();
  const second = page.getByRole('list', { name: 'Copy trading' }).getByRole('listitem').nth(1);
  const name = (await second.locator('strong').innerText()).trim();
  await second.getByRole('link').click();
  const toast = page.getByRole('status').filter({ hasText: `Following ${name} is coming soon.` });
  await expect(toast).toBeVisible();
  await expect(page).toHaveURL(/\/rank$/);
  await toast.getByRole('link', { name: 'Dismiss' }).click();
  await expect(toast).toHaveCount(0);
  await second.getByRole('link').click();
  await expect(toast).toBeVisible();
});

test('the chat reached by a tap in the user centre is framed under its own page policy', async ({ page }) => {
  const csp = watchCsp(page);
  await page.goto('/mine');
  await expect(page.locator('html[data-hydrated]')).toBeAttached();
  const documentLoad = page.waitForResponse((r) => r.request().resourceType() === 'document' && r.url().endsWith('/mine/chat'));
  await page.getByRole('link', { name: 'Online service' }).click();
  // A client-side navigation would keep the user centre's CSP, which frames nothing: the page is loaded whole.
  expect((await documentLoad).headers()['content-security-policy']).toMatch(FRAMES_SUPPORT);
  await expect(page.locator('iframe[title="Online service"]')).toHaveAttribute('src', 'https://support.example.com/chat');
  await expect(page.getByRole('link', { name: 'Open the chat in a new tab' })).toBeVisible();
  expect(csp).toEqual([]);
});

test('the content pages hydrate without an error in the console', async ({ page }) => {
  const errors: string[] = [];
  // The seeded chat's host does not resolve here; its frame's failure is not the page's.
  page.on('console', (m) => {
    if (m.type() === 'error' && !/support\.example\.com|ERR_NAME_NOT_RESOLVED/i.test(m.text())) errors.push(m.text());
  });
  page.on('pageerror', (e) => errors.push(e.message));
  for (const path of ['/news', '/news/detail?id=2', '/rank', '/rank?page=1&leader=1', '/mine/announcement', '/mine/email', '/mine/chat']) {
    await page.goto(path);
    await expect(page.locator('html[data-hydrated]')).toBeAttached();
  }
  expect(errors).toEqual([]);
});
