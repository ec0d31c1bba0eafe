import { expect, test } from '@playwright/test';
import { chooseLanguage, watchCsp } from './fixtures';

test.beforeEach(async ({ page }) => {
  await chooseLanguage(page, 'en');
});

test('search lists service providers; a provider opens its details; direct enter remembers it', async ({ page }) => {
  const csp = watchCsp(page);
  await page.goto('/');
  await page.getByRole('link', { name: 'Search products' }).first().click();
  await expect(page).toHaveURL(/\/product$/);
  const providers = page.getByRole('list', { name: 'Service providers' });
  await expect(providers.getByRole('link')).toHaveCount(3);

  await page.getByRole('searchbox').fill('meridian');
  await page.getByRole('button', { name: 'Search' }).click();
  await expect(providers.getByRole('link')).toHaveCount(1);
  await providers.getByRole('link', { name: /Meridian Clearing Services/ }).click();

  const dialog = page.getByRole('dialog', { name: 'Meridian Clearing Services' });
  await expect(dialog).toContainText('clients@meridianclearing.example.com');
  await expect(dialog).toContainText('https://meridianclearing.example.com');
  await expect(dialog).toContainText('2 Finsbury Avenue, London EC2M 2PP, United Kingdom');
  const posted = page.waitForResponse((r) => r.request().method() === 'POST');
  await dialog.getByRole('button', { name: 'Direct enter' }).click();
  // Sent for three years (Chromium itself keeps no cookie longer than 400 days).
  expect(await (await posted).headerValue('set-cookie')).toMatch(/__Host-company=[^;]+;.*Max-Age=94608000/);

  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByText('Service provider saved.')).toBeVisible();
  const cookie = (await page.context().cookies()).find((c) => c.name === '__Host-company');
  expect(cookie?.value).toBeTruthy();
  await page.goto('/product');
  await expect(page.getByRole('link', { name: /Meridian Clearing Services/ })).toContainText('Chosen');
  expect(csp).toEqual([]);
});

test('search finds instruments by name and opens the trade screen', async ({ page }) => {
  await page.goto('/product?tab=products');
  await page.getByRole('searchbox').fill('eth');
  await page.getByRole('button', { name: 'Search' }).click();
  const products = page.getByRole('list', { name: 'Products' });
  // One product: its row links to its trade screen and to its contract.
  await expect(products.getByRole('listitem')).toHaveCount(1);
  await expect(products.getByRole('link').first()).toContainText('ETH/USD');
  await page.getByRole('searchbox').fill('no such thing');
  await page.getByRole('button', { name: 'Search' }).click();
  await expect(page.getByText('Nothing matches your search.')).toBeVisible();
});
