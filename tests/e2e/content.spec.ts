/**
 * The content screens as a visitor walks them, JavaScript on and off: news and an article, the copy-trade
 * ranking, the announcement, the complaint e-mail and the online-service chat; in English and Chinese.
 */
import { expect, test, type Page } from '@playwright/test';
import { admin, chooseLanguage, nextListPage, setSetting, watchCsp } from './fixtures';

/** The CSP directive that lets a page frame the seeded chat, and nothing else. */
const FRAMES_SUPPORT = /(^|; )frame-src https:\/\/support\.example\.com($|;)/;

const newsList = (page: Page, name = 'News') => page.getByRole('list', { name }).getByRole('listitem');
const leaderList = (page: Page) => page.getByRole('list', { name: 'Copy trading' }).getByRole('listitem');

test('the news list leads to an article whose hostile markup is neither run nor shown', async ({ page }) => {
  const csp = watchCsp(page);
  const dialogs: string[] = [];
  page.on('dialog', (d) => {
    dialogs.push(d.message());
    void d.dismiss();
  });
  await chooseLanguage(page, 'en');
  await page.goto('/news');
  await expect(page.getByRole('heading', { name: 'News', level: 1 })).toBeVisible();
  const items = newsList(page);
  await expect(items).toHaveCount(4);
  await expect(items.first()).toContainText('Euro steadies as traders weigh the central bank outlook');
  await expect(items.first()).toContainText('EUR/USD held a narrow range while markets priced the next policy meeting.');
  // The date in the user's language; the logo through this server, never the upstream's address.
  await expect(items.first().locator('time')).toHaveText(/^[A-Z][a-z]{2} \d{1,2}, \d{4}$/);
  await expect(items.first().locator('img')).toHaveAttribute('src', '/logos/eurusd.svg');

  await items.filter({ hasText: 'Gold edges higher on a softer dollar' }).getByRole('link').click();
  await expect(page).toHaveURL(/\/news\/detail\?id=2$/);
  const article = page.getByRole('article');
  await expect(article.getByRole('heading', { name: 'Gold edges higher on a softer dollar' })).toBeVisible();
  await expect(article.getByText('Gold rose for a second session as the dollar slipped after weaker-than-expected data.')).toBeVisible();
  await expect(article.getByText('Volatility remains elevated.')).toBeVisible();
  const link = article.getByRole('link', { name: 'weekly report' });
  await expect(link).toHaveAttribute('href', 'https://example.com/report');
  await expect(link).toHaveAttribute('rel', 'noopener noreferrer nofollow');
  await expect(link).toHaveAttribute('target', '_blank');
  // The seeded article carries <script>, <img onerror>, onclick, a style and an <iframe>: none reaches the page.
  expect(await page.locator('main script, main iframe, main [onerror], main [onclick], main [style]').count()).toBe(0);
  expect(await article.getByRole('img').count()).toBe(0);
  await expect(page).toHaveTitle('Gold edges higher on a softer dollar');
  expect(dialogs).toEqual([]);
  expect(csp).toEqual([]);

  await page.getByRole('link', { name: 'Back', exact: true }).click();
  await expect(page).toHaveURL(/\/news$/);
  await expect(newsList(page)).toHaveCount(4);
});

test('an article in Chinese with its picture through this server; an unknown article is a 404 that says so', async ({ page }) => {
  await chooseLanguage(page, 'hk');
  await page.goto('/news/detail?id=1');
  const article = page.getByRole('article');
  await expect(article.getByRole('heading', { name: '歐元企穩，交易者評估央行前景' })).toBeVisible();
  await expect(article.getByText('槓桿倉位虧損可能比獲利來得更快')).toBeVisible();
  await expect(article.getByRole('img', { name: 'EUR/USD' })).toHaveAttribute('src', '/logos/eurusd.svg');
  expect(await article.getByRole('img', { name: 'EUR/USD' }).evaluate((img: HTMLImageElement) => img.naturalWidth)).toBeGreaterThan(0);

  for (const id of ['999', 'abc']) {
    const response = await page.goto(`/news/detail?id=${id}`);
    expect(response?.status()).toBe(404);
    await expect(page.getByRole('heading', { name: '找不到文章' })).toBeVisible();
    await expect(page.getByText('此文章不存在或已下架。')).toBeVisible();
  }
  await page.getByRole('link', { name: '返回資訊' }).click();
  await expect(page).toHaveURL(/\/news$/);
  await expect(newsList(page, '資訊').first()).toContainText('歐元企穩');
});

test('news come a page at a time: the next page joins the list with JavaScript, and is its own page without', async ({
  page,
  javaScriptEnabled,
}) => {
  await chooseLanguage(page, 'en');
  const added: number[] = [];
  try {
    for (let i = 1; i <= 7; i++) {
      const { id } = (await admin('POST', '/admin/news', {
        lang: 'en',
        title: `Market brief ${i}`,
        summary: `Brief number ${i}.`,
        content: `<p>Brief ${i}.</p>`,
        logo: '/static/logos/eurusd.svg',
      })) as { id: number };
      added.push(id);
    }
    await page.goto('/news');
    await expect(newsList(page)).toHaveCount(10);
    await expect(newsList(page).first()).toContainText('Market brief 7');
    // With JavaScript the next page comes as the link scrolls into view (its skeleton then covers the link).
    await nextListPage(page, javaScriptEnabled);
    if (javaScriptEnabled) {
      await expect(newsList(page)).toHaveCount(11);
      await expect(page).toHaveURL(/\/news$/);
    } else {
      await expect(page).toHaveURL(/\/news\?page=2$/);
      await expect(newsList(page)).toHaveCount(1);
    }
    // Seven briefs and four seeded articles: the oldest seeded one comes last.
    await expect(newsList(page).last()).toContainText('Yen slips to a three-week low');
    await expect(page.getByRole('link', { name: 'Next page' })).toHaveCount(0);
  } finally {
    for (const id of added) await admin('POST', '/admin/news/remove', { id });
  }
});

test('the ranking lists twenty leaders with their figures; tapping one says following is coming soon', async ({
  page,
  javaScriptEnabled,
}) => {
  const csp = watchCsp(page);
  await chooseLanguage(page, 'en');
  await page.goto('/rank');
  await expect(page.getByRole('heading', { name: 'Copy trading', level: 1 })).toBeVisible();
  const leaders = leaderList(page);
  await expect(leaders).toHaveCount(20);
  const first = leaders.first();
  // Three-week return and win rate in %, three-week profit in USD with 2 decimals, total return, trades,
  // the instrument, leverage and followers.
  await expect(first).toContainText(/[+-]\d+\.\d{2}%\s*3 weeks/);
  await expect(first).toContainText(/Win rate\s*\d+\.\d{2}%/);
  await expect(first).toContainText(/Profit\s*-?[\d,]+\.\d{2} USD/);
  await expect(first).toContainText(/Total return\s*[+-]?\d[\d,]*\.\d{2}%/);
  await expect(first).toContainText(/Trades\s*[\d,]+/);
  await expect(first).toContainText(/[A-Z]{6} · ×\d+ · [\d,]+ followers?/);
  const name = (await first.locator('strong').innerText()).trim();
  await expect(first.locator('[aria-hidden="true"]').first()).toHaveText(
    name
      .split(' ')
      .map((w) => w[0])
      .join('')
      .slice(0, 2),
  );

  await first.getByRole('link').click();
  await expect(page.getByRole('status').filter({ hasText: `Following ${name} is coming soon.` })).toBeVisible();
  await expect(page).toHaveURL(javaScriptEnabled ? /\/rank$/ : /\/rank\?page=1&leader=\d+$/);
  await expect(leaderList(page)).toHaveCount(20);
  expect(csp).toEqual([]);
});

// The upstream's words keep their own direction in a right-to-left page: an English headline reads left to right,
// its full stop at its end, not at its start ("widened." drawn ".widened").
test("in Arabic, English news and traders' names read left to right", async ({ page }) => {
  await chooseLanguage(page, 'ar');
  await page.goto('/news');
  await expect(page.locator('html')).toHaveAttribute('dir', 'rtl');
  const direction = (el: Element) => getComputedStyle(el).direction;
  const main = page.getByRole('main');
  // This article has no Arabic version upstream: its English words as they come.
  for (const text of ['Yen slips to a three-week low', 'USD/JPY climbed as yield differentials widened.']) {
    expect(await main.getByText(text).evaluate(direction), text).toBe('ltr');
  }
  // One that has: right to left, as the page.
  expect(await main.getByText('اليورو يستقر بينما يقيّم المتداولون توقعات البنك المركزي').evaluate(direction)).toBe('rtl');
  await main.getByRole('link', { name: /Yen slips/ }).click();
  expect(await page.getByRole('heading', { name: 'Yen slips to a three-week low' }).evaluate(direction)).toBe('ltr');
  await page.goto('/rank');
  const leader = main.getByRole('listitem').first().locator('strong bdi');
  await expect(leader).toHaveText(/^[A-Z][a-z]+ [A-Z]\.$/);
  expect(await leader.evaluate(direction)).toBe('ltr');
  expect(await page.getByRole('heading', { level: 1 }).evaluate(direction)).toBe('rtl');
});

test('the ranking pages by twenty; a leader of the second page says coming soon too', async ({ page, javaScriptEnabled }) => {
  await chooseLanguage(page, 'en');
  await page.goto('/rank');
  await expect(leaderList(page)).toHaveCount(20);
  await nextListPage(page, javaScriptEnabled);
  // 24 seeded leaders: four more.
  await expect(leaderList(page)).toHaveCount(javaScriptEnabled ? 24 : 4);
  await expect(page.getByRole('link', { name: 'Next page' })).toHaveCount(0);
  const last = leaderList(page).last();
  const name = (await last.locator('strong').innerText()).trim();
  await last.getByRole('link').click();
  await expect(page.getByRole('status').filter({ hasText: `Following ${name} is coming soon.` })).toBeVisible();
  if (!javaScriptEnabled) await expect(page).toHaveURL(/\/rank\?page=2&leader=\d+$/);
});

test('the announcement, opened from the user centre under the same name, names the five countries in English and in Chinese', async ({
  page,
}) => {
  await chooseLanguage(page, 'en');
  await page.goto('/mine');
  await page.getByRole('link', { name: 'Announcement' }).click();
  await expect(page).toHaveURL(/\/mine\/announcement$/);
  await expect(page.getByRole('heading', { name: 'Announcement', level: 1 })).toBeVisible();
  const article = page.getByRole('article');
  await expect(article.getByRole('heading', { level: 2 })).not.toBeEmpty();
  await expect(article.getByText(/not offered to residents of North Korea, Israel, China, Vanuatu, and Cuba/)).toBeVisible();
  const countries = page.getByRole('list', { name: 'Countries and regions not served' }).getByRole('listitem');
  await expect(countries).toHaveText(['North Korea', 'Israel', 'China', 'Vanuatu', 'Cuba']);

  await chooseLanguage(page, 'hk');
  await page.goto('/mine');
  await page.getByRole('link', { name: '公告' }).click();
  await expect(page.getByRole('heading', { name: '公告', level: 1 })).toBeVisible();
  const chinese = page.getByRole('list', { name: '不提供服務的國家和地區' }).getByRole('listitem');
  await expect(chinese).toHaveText(['北韓', '以色列', '中國', '瓦努阿圖', '古巴']);
  await expect(page.getByRole('article').getByText(/北韓、以色列、中國、瓦努阿圖及古巴/)).toBeVisible();
});

test('the complaint e-mail page offers the address to write to and to select', async ({ page }) => {
  await chooseLanguage(page, 'en');
  await page.goto('/mine');
  await page.getByRole('link', { name: 'Complaint e-mail' }).click();
  await expect(page.getByRole('heading', { name: 'Complaint e-mail', level: 1 })).toBeVisible();
  await expect(page.getByLabel('Complaint e-mail address')).toHaveValue('support@example.com');
  await expect(page.getByLabel('Complaint e-mail address')).toHaveAttribute('readonly', '');
  await expect(page.getByRole('link', { name: 'Write an e-mail' })).toHaveAttribute('href', 'mailto:support@example.com');
});

test('online service embeds the chat with a link beside it, and only that page may frame its origin', async ({ page }) => {
  const csp = watchCsp(page);
  await chooseLanguage(page, 'en');
  const response = await page.goto('/mine/chat');
  await expect(page.getByRole('heading', { name: 'Online service', level: 1 })).toBeVisible();
  expect(response?.headers()['content-security-policy']).toMatch(FRAMES_SUPPORT);
  expect(response?.headers()['x-csp-frame-src']).toBeUndefined();
  await expect(page.locator('iframe[title="Online service"]')).toHaveAttribute('src', 'https://support.example.com/chat');
  const open = page.getByRole('link', { name: 'Open the chat in a new tab' });
  await expect(open).toHaveAttribute('href', 'https://support.example.com/chat');
  await expect(open).toHaveAttribute('target', '_blank');
  expect(csp).toEqual([]);
  for (const other of ['/', '/mine', '/mine/email']) {
    const res = await page.goto(other);
    expect(res?.headers()['content-security-policy']).not.toContain('frame-src');
  }
});

test('online service that opens in a new tab shows the button and no frame', async ({ page }) => {
  await setSetting('service_link_type', '2');
  try {
    await chooseLanguage(page, 'hk');
    const response = await page.goto('/mine/chat');
    await expect(page.getByRole('heading', { name: '線上客服', level: 1 })).toBeVisible();
    await expect(page.getByRole('link', { name: '在新分頁開啟客服' })).toHaveAttribute('href', 'https://support.example.com/chat');
    await expect(page.locator('iframe')).toHaveCount(0);
    expect(response?.headers()['content-security-policy']).not.toContain('frame-src');
  } finally {
    await setSetting('service_link_type', '1');
  }
});
