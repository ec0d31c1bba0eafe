/**
 * A visitor's market list is a shared page (decision 0038): the same bytes for every visitor during its second,
 * with no CSRF token and no cookie in it, so nginx or a CDN may keep it. The way on to a form still works: the
 * login page gets its token as it is reached, with JavaScript (a client-side navigation) and without.
 */
import { expect, test } from '@playwright/test';
import { chooseLanguage, registerRealAccount, REAL_PASSWORD, watchCsp } from './fixtures';

test('from the shared market list a visitor goes to log in and signs in', async ({ page }) => {
  const email = await registerRealAccount('shared');
  await chooseLanguage(page, 'en');
  const violations = watchCsp(page);

  const shared = await page.request.get('/');
  expect(shared.headers()['cache-control']).toBe('public, max-age=0, s-maxage=1');
  expect(shared.headers()['set-cookie']).toBeUndefined();
  const html = await shared.text();
  expect(html).not.toContain('name="csrf"');
  expect(html).not.toContain('nonce=');
  // The same bytes for the next visitor in that language (asked again if the kept second ran out in between).
  await expect(async () => {
    const [first, next] = [await (await page.request.get('/')).text(), await (await page.request.get('/')).text()];
    expect(next).toBe(first);
  }).toPass({ timeout: 10_000 });

  await page.goto('/');
  await expect(page.getByTestId('price').first()).toBeVisible();
  await page.locator('.side-drawer > summary').click();
  await page.getByRole('link', { name: 'Log in' }).click();
  await expect(page).toHaveURL(/\/login$/);
  await page.getByLabel('E-mail').fill(email);
  await page.getByLabel('Password').fill(REAL_PASSWORD);
  await page.getByRole('button', { name: 'Log in' }).click();
  await expect(page.getByText('Welcome back.')).toBeVisible();
  expect(violations).toEqual([]);
});

test('a post without a valid CSRF token is refused', async ({ page }) => {
  await chooseLanguage(page, 'en');
  const response = await page.request.post('/login', {
    form: { email: 'nobody@example.com', password: REAL_PASSWORD, csrf: 'forged' },
    headers: { origin: new URL(page.url()).origin },
    maxRedirects: 0,
  });
  expect(response.status()).toBe(403);
});
