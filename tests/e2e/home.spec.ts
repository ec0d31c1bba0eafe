import { expect, test } from '@playwright/test';

test('the home page lists every instrument with its price, and prices move between visits', async ({ page }) => {
  await page.goto('/');
  await expect(page.getByRole('heading', { name: 'Markets' })).toBeVisible();
  const rows = page.getByRole('list', { name: 'Markets' }).getByRole('listitem');
  expect(await rows.count()).toBeGreaterThanOrEqual(20);
  const btc = page.getByRole('listitem', { name: 'BTC/USD' });
  await expect(btc).toContainText('Crypto');
  const first = await btc.getByTestId('price').innerText();
  expect(first).toMatch(/^\d{1,3}(,\d{3})*\.\d{2}$/);
  // Crypto never closes, so its price keeps moving: a later visit shows a different price.
  await expect(async () => {
    await page.reload();
    expect(await btc.getByTestId('price').innerText()).not.toBe(first);
  }).toPass({ timeout: 15_000 });
});

test('a forex row shows its precision and a logo served by the web app', async ({ page }) => {
  await page.goto('/');
  const eur = page.getByRole('listitem', { name: 'EUR/USD' });
  await expect(eur.getByTestId('price')).toHaveText(/^\d\.\d{5}$/);
  const logo = await page.request.get('/logos/eurusd.svg');
  expect(logo.ok()).toBe(true);
  expect(logo.headers()['content-type']).toContain('image/svg+xml');
});
