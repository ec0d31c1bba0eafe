/** News and the copy-trade ranking as a visitor walks them, JavaScript on and off, in English and Chinese. */
import { expect, test } from '@playwright/test';
import { chooseLanguage, watchCsp } from './fixtures';

test('the news list leads to an article whose hostile markup is neither run nor shown', async ({ page }) => {
  const csp = watchCsp(page);
  await chooseLanguage(page, 'en');
  await page.goto('/news');
  const items = page.getByRole('list', { name: 'News' }).getByRole('listitem');
  await expect(items).toHaveCount(4);
  await expect(items.first()).toContainText('Euro steadies as traders weigh the central bank outlook');
  await items.filter({ hasText: 'Gold edges higher on a softer dollar' }).getByRole('link').click();
  await expect(page).toHaveURL(/\/news\/detail\?id=2$/);
  const article = page.getByRole('article');
  await expect(article.getByRole('heading', { name: 'Gold edges higher on a softer dollar' })).toBeVisible();
  await expect(article).toContainText('Volatility remains elevated.');
  await expect(article.getByRole('link', { name: 'weekly report' })).toHaveAttribute('rel', 'noopener noreferrer nofollow');
  // The seeded article carries <script>, <img onerror>, onclick and an <iframe>: none reaches the page.
  expect(await article.locator('script, iframe, [onerror], [onclick], [style]').count()).toBe(0);
  expect(await page.title()).not.toBe('pwned');
  expect(csp).toEqual([]);
});

test('an article in Chinese, and an unknown article is a clear 404', async ({ page }) => {
  await chooseLanguage(page, 'hk');
  await page.goto('/news/detail?id=1');
  await expect(page.getByRole('article').getByRole('heading', { name: '歐元企穩，交易者評估央行前景' })).toBeVisible();
  await expect(page.getByRole('article').getByRole('img', { name: 'EUR/USD' })).toHaveAttribute('src', '/logos/eurusd.svg');
  const response = await page.goto('/news/detail?id=999');
  expect(response?.status()).toBe(404);
});

test('the ranking lists leaders with their three-week figures; tapping one says following is coming soon', async ({ page }) => {
  await chooseLanguage(page, 'en');
  await page.goto('/rank');
  const leaders = page.getByRole('list', { name: 'Copy trading' }).getByRole('listitem');
  await expect(leaders).toHaveCount(20);
  await expect(leaders.first()).toContainText('Win rate');
  await expect(leaders.first()).toContainText('3 weeks');
  const name = (await leaders.first().locator('strong').innerText()).trim();
  await leaders.first().getByRole('link').click();
  await expect(page.getByRole('status').filter({ hasText: `Following ${name} is coming soon.` })).toBeVisible();
});
