/** The account history and the invite page, as a phone user walks them, JavaScript on and off (the announcement, e-mail and chat are in content.spec.ts). */
import { expect, test } from '@playwright/test';
import { admin, chooseLanguage, logInRealAccount, nextListPage, openDemo } from './fixtures';

test.beforeEach(async ({ page }) => {
  await chooseLanguage(page, 'en');
});

test('account history: the opening balance, an adjustment by its memo with sign and colour, newest first, a page at a time', async ({
  page,
  javaScriptEnabled,
}) => {
  await openDemo(page);
  await page.goto('/mine');
  const uid = (
    await page
      .getByRole('region', { name: 'Your account' })
      .getByText(/^UID: \d+$/)
      .innerText()
  ).replace(/\D/g, '');
  await admin('POST', '/admin/balance', { user: uid, amount: '-12.5', memo: 'Card fee refund reversal' });
  await page.goto('/mine/history');
  await expect(page.getByRole('heading', { name: 'Account details' })).toBeVisible();
  const rows = page.getByRole('list', { name: 'Account details' }).getByRole('listitem');
  await expect(rows).toHaveCount(2);
  await expect(rows.first()).toContainText('Card fee refund reversal');
  await expect(rows.first()).toContainText('-12.50');
  await expect(rows.first()).toContainText('Balance 99,987.50');
  await expect(rows.first().locator('.ledger-amount')).toHaveClass(/down/);
  await expect(rows.last()).toContainText('Opening balance');
  await expect(rows.last()).toContainText('+100,000.00');

  for (let i = 1; i <= 20; i += 1) await admin('POST', '/admin/balance', { user: uid, amount: '1', memo: `Bonus ${i}` });
  await page.reload();
  await expect(rows).toHaveCount(20);
  await expect(rows.first()).toContainText('Bonus 20');
  await nextListPage(page, javaScriptEnabled);
  if (javaScriptEnabled) {
    await expect(rows).toHaveCount(22);
    await expect(page).toHaveURL(/\/mine\/history$/);
  } else {
    await expect(page).toHaveURL(/\/mine\/history\?page=2$/);
    await expect(rows).toHaveCount(2);
  }
  await expect(rows.last()).toContainText('Opening balance');
  await expect(page.getByRole('link', { name: 'Next page' })).toHaveCount(0);
});

test('a visitor opening the account history goes to log in first', async ({ page }) => {
  await page.goto('/mine/history');
  await expect(page).toHaveURL(/\/login\?from=%2Fmine%2Fhistory$/);
});

test('invite friends: the code, the link to copy, its QR code, and the friends counted; the link opens registration with the code', async ({
  page,
  javaScriptEnabled,
  context,
  browser,
}) => {
  await logInRealAccount(page, 'host');
  await page.goto('/mine');
  await page.getByRole('link', { name: 'Invite friends' }).click();
  await expect(page.getByRole('heading', { name: 'Invite friends' })).toBeVisible();
  const code = await page.getByLabel('Invite code', { exact: true }).inputValue();
  expect(code).toMatch(/^\w{4,}$/);
  const link = await page.getByLabel('Invite link', { exact: true }).inputValue();
  expect(link).toMatch(new RegExp(`/register\\?invite_code=${code}$`));
  await expect(page.getByRole('img', { name: 'Scan to register with your invite code' }).locator('svg')).toBeVisible();
  await expect(page.getByText('0 friends registered with your code')).toBeVisible();
  if (javaScriptEnabled) {
    await context.grantPermissions(['clipboard-read', 'clipboard-write']);
    await page.getByRole('button', { name: 'Copy' }).nth(1).click();
    await expect(page.getByRole('status').filter({ hasText: 'Copied' })).toBeVisible();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(link);
  } else {
    await expect(page.getByRole('button', { name: 'Copy' })).toHaveCount(0);
  }

  // A friend registers with the code (straight at the upstream), and is counted.
  await admin('POST', '/api/notify/send_email', { to: `friend-${code}@example.com`, type: 1 });
  const { outbox } = (await admin('GET', `/admin/outbox?to=friend-${code}@example.com`)) as { outbox: { body: string }[] };
  const smsCode = /\b(\d{6})\b/.exec(outbox[0]!.body)![1]!;
  await admin('POST', '/api/user/register', {
    type: 1,
    account: `friend-${code}@example.com`,
    password: 'secret-123',
    re_password: 'secret-123',
    sms_code: smsCode,
    invite_code: code,
  });
  await page.reload();
  await expect(page.getByText('1 friend registered with your code')).toBeVisible();

  // The friend, not signed in, opens the link: registration with the code filled in (in the default language, hk).
  const friend = await browser.newContext({ javaScriptEnabled });
  const friendPage = await friend.newPage();
  await friendPage.goto(link);
  await expect(friendPage.getByLabel('邀請碼（選填）')).toHaveValue(code);
  await friend.close();
});

test('a demo account is asked to use a real account on the invite page', async ({ page }) => {
  await openDemo(page);
  await page.goto('/mine/invite');
  await expect(page.getByText('Please register or log in to a real account')).toBeVisible();
});
