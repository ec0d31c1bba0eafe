/**
 * A whole flow in Arabic, right to left: open a demo account from the Arabic login page and see the
 * user centre in Arabic with the amounts written left to right inside the right-to-left page.
 */
import { expect, test } from '@playwright/test';
import { chooseLanguage, watchCsp } from './fixtures';

test('a visitor opens a demo account in Arabic and sees the user centre in Arabic', async ({ page }) => {
  const csp = watchCsp(page);
  await chooseLanguage(page, 'ar');
  await page.goto('/login');
  await expect(page.locator('html')).toHaveAttribute('dir', 'rtl');
  await expect(page.getByRole('heading', { name: 'تسجيل الدخول' })).toBeVisible();
  await page.getByRole('button', { name: 'فتح حساب تجريبي' }).click();
  // The success toast, in Arabic, says the demo account is ready.
  await expect(page.getByRole('status')).toHaveText(/\p{Script=Arabic}/u);
  await page.goto('/mine');
  await expect(page.getByRole('main').getByText('حساب تجريبي')).toBeVisible();
  await expect(page.getByRole('main').getByText(/100,000\.00/)).toBeVisible();
  expect(csp).toEqual([]);
});

test('an e-mail address and a password are typed left to right in the Arabic page, at the right of their fields', async ({ page }) => {
  await chooseLanguage(page, 'ar');
  await page.goto('/login');
  for (const name of ['البريد الإلكتروني', 'كلمة المرور']) {
    const field = page.getByLabel(name, { exact: true });
    await field.fill('a-long.address-of-a-trader@example.com');
    expect(await field.evaluate((el) => [getComputedStyle(el).direction, getComputedStyle(el).textAlign])).toEqual(['ltr', 'right']);
  }
  // Scrolled to its start once it is left: the address's first letters are the ones in view.
  await page.getByLabel('البريد الإلكتروني', { exact: true }).blur();
  expect(await page.getByLabel('البريد الإلكتروني', { exact: true }).evaluate((el) => el.scrollLeft)).toBe(0);
});
