/**
 * Without JavaScript, every multi-step flow survives Back and reload (issue 39, decision 0041): each step a post
 * leads to is a GET page (Post/Redirect/Get), so the browser never shows "Confirm form resubmission"
 * (ERR_CACHE_MISS) or an error page, and an order confirmed twice from its confirmation page is one order.
 * With JavaScript these steps happen in place (no document is posted): the flows' own specs cover them.
 */
import { expect, test, type Page, type Response } from '@playwright/test';
import {
  admin,
  chooseLanguage,
  codeSentBy,
  forceMarket,
  logInRealAccount,
  openDemo,
  registerRealAccount,
  setPrice,
  uniqueEmail,
} from './fixtures';
import sharp from 'sharp';

test.skip(({ javaScriptEnabled }) => javaScriptEnabled, 'the no-JavaScript flows: with JavaScript no document is posted');

const MY_TRC20 = 'TJRabPrwbZy45sbavfcjinPJC18kjpRTv8';

/** The documents the tab loaded (redirects left out), with the method that asked for each. */
function watchDocuments(page: Page): { method: string; status: number; url: string }[] {
  const seen: { method: string; status: number; url: string }[] = [];
  page.on('response', (response) => {
    const request = response.request();
    if (!request.isNavigationRequest() || request.frame() !== page.mainFrame()) return;
    if (response.status() >= 300 && response.status() < 400) return;
    seen.push({ method: request.method(), status: response.status(), url: response.url() });
  });
  return seen;
}

/** What the tab shows is one of our pages: not the browser's error page, not a 4xx/5xx page. */
async function expectOurPage(page: Page, why: string) {
  await expect(page.locator('body'), why).not.toContainText(/ERR_CACHE_MISS|Confirm Form Resubmission|ERR_[A-Z_]+/);
  await expect(page.locator('#main-frame-error'), why).toHaveCount(0);
  await expect(page.locator('main'), why).not.toHaveCount(0);
}

let documents: { method: string; status: number; url: string }[] = [];

test.beforeEach(async ({ page }) => {
  documents = watchDocuments(page);
  await chooseLanguage(page, 'en');
});

/** The step just taken ended on a GET page (Post/Redirect/Get) that is not an error. */
async function expectGetStep(page: Page, step: string) {
  await expectOurPage(page, step);
  const last = documents.at(-1);
  expect(last?.method, `${step}: the page shown was the answer to a ${last?.method}`).toBe('GET');
  expect(last?.status, `${step}: ${last?.url}`).toBeLessThan(400);
}

/** Reload shows the same step again, from a GET, without asking to send anything. */
async function reloads(page: Page, step: string) {
  const response = await page.reload();
  expect(response?.request().method(), `reload of ${step}`).toBe('GET');
  expect(response?.status(), `reload of ${step}`).toBeLessThan(400);
  await expectOurPage(page, `reload of ${step}`);
}

/** Back (then Forward again) lands on our pages, never on "Confirm form resubmission". */
async function backAndForth(page: Page, step: string, before?: () => Promise<void>) {
  const back = await page.goBack().catch((error: Error) => error);
  expect(back instanceof Error ? back.message : '', `Back from ${step}`).toBe('');
  const answer = back as Response | null;
  if (answer) expect(answer.status(), `Back from ${step}: ${answer.url()}`).toBeLessThan(400);
  await expectOurPage(page, `Back from ${step}`);
  if (before) await before();
  const forward = await page.goForward().catch((error: Error) => error);
  expect(forward instanceof Error ? forward.message : '', `Forward to ${step}`).toBe('');
  await expectOurPage(page, `Forward to ${step}`);
}

/** How many positions the trader holds, as the orders screen lists them. */
async function holding(page: Page): Promise<number> {
  await page.goto('/order?type=1');
  await expect(page.getByRole('link', { name: 'Holding' })).toHaveAttribute('aria-current', 'page');
  return page.getByRole('list', { name: 'Holding' }).getByRole('listitem').count();
}

const placedNumber = async (page: Page) => {
  const placed = page.getByRole('dialog', { name: 'Your order has been confirmed' });
  await expect(placed).toBeVisible();
  return /(\d+)/.exec(await placed.getByText(/Order number/).innerText())?.[1];
};

/** Buys `lots` of `code` through the ticket's confirmation page, walking Back and reload; returns the order number. */
async function buyThroughConfirmation(page: Page, code: string, lots: string) {
  await page.goto(`/trade?code=${code}`);
  await page.getByRole('spinbutton', { name: 'Lots', exact: true }).fill(lots);
  await page.getByRole('button', { name: 'Buy up (long)', exact: true }).click();
  const confirmation = page.getByRole('dialog', { name: 'Confirm your order' });
  await expect(confirmation).toBeVisible();
  await expect(page).toHaveURL(/[?&]confirm=/);
  await expectGetStep(page, 'the order confirmation');
  await reloads(page, 'the order confirmation');
  await expect(confirmation).toBeVisible();
  await expect(confirmation).toContainText(lots);
  await backAndForth(page, 'the order confirmation', () => expect(confirmation).toHaveCount(0));
  await expect(confirmation).toBeVisible();
  await confirmation.getByRole('button', { name: 'Place order' }).click();
  const first = await placedNumber(page);
  expect(first).toBeTruthy();
  await expectGetStep(page, 'the order placed');
  await reloads(page, 'the order placed');
  return first!;
}

test('an order: its confirmation is a page; Back to it and "Place order" again is the same order', async ({ page }) => {
  test.slow(); // three orders, each through its confirmation page, and the orders list read between
  await forceMarket('EURUSD', 'open');
  await setPrice('EURUSD', '1.10000');
  try {
    await openDemo(page);
    const before = await holding(page);
    const first = await buyThroughConfirmation(page, 'EURUSD', '0.01');

    // Back: the confirmation again, with the ticket's one-time key; placing from it again answers the same order.
    await page.goBack();
    await expectOurPage(page, 'Back to the confirmation after placing');
    const confirmation = page.getByRole('dialog', { name: 'Confirm your order' });
    await expect(confirmation).toBeVisible();
    await confirmation.getByRole('button', { name: 'Place order' }).click();
    expect(await placedNumber(page)).toBe(first);
    await backAndForth(page, 'the order placed again');
    expect(await holding(page)).toBe(before + 1);

    // Cancel on the confirmation page goes back to the ticket, which posts a new order with a new key.
    await page.goto('/trade?code=EURUSD');
    await page.getByRole('button', { name: 'Buy up (long)', exact: true }).click();
    await page.getByRole('dialog', { name: 'Confirm your order' }).getByRole('button', { name: 'Cancel' }).click();
    await expect(page.getByRole('dialog')).toHaveCount(0);
    await expectGetStep(page, 'the confirmation cancelled');
    await page.getByRole('button', { name: 'Buy up (long)', exact: true }).click();
    await page.getByRole('dialog', { name: 'Confirm your order' }).getByRole('button', { name: 'Place order' }).click();
    expect(await placedNumber(page)).not.toBe(first);
    expect(await holding(page)).toBe(before + 2);
  } finally {
    await forceMarket('EURUSD', 'auto');
  }
});

/** A step-up as a page after page: sending a code, typing it, finishing on the form's page; Back and reload at each. */
async function stepUpWalking(page: Page, email: string, finish: string) {
  await expect(page.getByRole('heading', { name: "Confirm it's you" })).toBeVisible();
  await expectGetStep(page, 'the step-up');
  await reloads(page, 'the step-up');
  await backAndForth(page, 'the step-up');
  const code = await codeSentBy(email, () => page.getByRole('button', { name: /^Send a code to / }).click());
  await expect(page.getByText(/^We sent a code to /)).toBeVisible();
  await expectGetStep(page, 'a step-up code sent');
  await reloads(page, 'a step-up code sent');
  await backAndForth(page, 'a step-up code sent');
  await page.getByLabel('Code you received').fill(code);
  await page.getByRole('button', { name: 'Confirm', exact: true }).click();
  const finishing = page.getByRole('dialog', { name: 'Confirmed' });
  await expect(finishing).toBeVisible();
  await expectGetStep(page, 'the step-up confirmed');
  await reloads(page, 'the step-up confirmed');
  await backAndForth(page, 'the step-up confirmed');
  await finishing.getByRole('button', { name: finish, exact: true }).click();
}

test('binding an address and withdrawing, through the step-ups and "Calculate"', async ({ page }) => {
  test.setTimeout(120_000);
  const email = await logInRealAccount(page, 'back-withdraw');
  await admin('POST', '/admin/balance', { user: email, amount: '1000', memo: 'back-button spec' });
  // The 24-hour volume rule: trade most of the balance (XAG/USD, 50 USD margin a lot) before withdrawing.
  await forceMarket('XAGUSD', 'open');
  try {
    await buyThroughConfirmation(page, 'XAGUSD', '17');
  } finally {
    // A closed market does not tick: what may leave stays put.
    await forceMarket('XAGUSD', 'closed');
  }

  await page.goto('/mine/withdraw-way?type=1');
  await page.getByLabel('USDT · TRC20').check();
  await page.getByLabel('Address').fill(MY_TRC20);
  await page.getByRole('button', { name: 'Bind' }).click();
  await stepUpWalking(page, email, 'Bind');
  await expect(page.getByText(/^The withdrawal method was bound\./)).toBeVisible();
  await expectGetStep(page, 'the method bound');
  await reloads(page, 'the method bound');
  await backAndForth(page, 'the method bound');
  await expect(page.getByRole('list', { name: 'Coin addresses' }).getByRole('listitem')).toHaveCount(1);

  await page.goto('/mine/withdraw');
  await expect(async () => {
    await page.reload();
    await expect(page.getByLabel('Withdrawal address')).not.toContainText('usable from', { timeout: 500 });
  }).toPass({ timeout: 15_000 });
  await page.getByLabel('Amount (USD)').fill('40');
  await page.getByLabel('Note (optional)').fill('rent');
  await page.getByRole('button', { name: 'Calculate' }).click();
  await expect(page.getByText('You receive').locator('..')).toContainText('39.00 USD');
  await expectGetStep(page, 'the withdrawal calculated');
  await reloads(page, 'the withdrawal calculated');
  await backAndForth(page, 'the withdrawal calculated');
  await expect(page.getByLabel('Amount (USD)')).toHaveValue('40');
  await expect(page.getByLabel('Note (optional)')).toHaveValue('rent');
  await expect(page.getByText('You receive').locator('..')).toContainText('39.00 USD');

  await page.getByRole('button', { name: 'Withdraw', exact: true }).click();
  await stepUpWalking(page, email, 'Withdraw');
  await expect(page.getByText('Your withdrawal request was submitted.')).toBeVisible();
  await expectGetStep(page, 'the withdrawal submitted');
  await reloads(page, 'the withdrawal submitted');
  await backAndForth(page, 'the withdrawal submitted');
  const records = page.getByRole('list', { name: 'Withdrawal records' }).getByRole('listitem');
  await expect(records).toHaveCount(1);

  // Deleting the method: its confirmation, a step-up, done.
  await page.goto('/mine/coin-address-list');
  await page.getByRole('list', { name: 'Coin addresses' }).getByRole('listitem').first().getByRole('link', { name: 'Delete' }).click();
  await expectGetStep(page, 'the delete confirmation');
  await page.getByRole('dialog', { name: 'Delete this withdrawal method?' }).getByRole('button', { name: 'Delete' }).click();
  await stepUpWalking(page, email, 'Delete');
  await expect(page.getByText('The withdrawal method was deleted.')).toBeVisible();
  await expectGetStep(page, 'the method deleted');
  await reloads(page, 'the method deleted');
  await backAndForth(page, 'the method deleted');
});

async function idPhoto(shade: number) {
  const buffer = await sharp({ create: { width: 640, height: 400, channels: 3, background: { r: shade, g: 120, b: 160 } } })
    .jpeg()
    .toBuffer();
  return { name: `id-${shade}.jpg`, mimeType: 'image/jpeg', buffer };
}

test('identity: submitted for review', async ({ page }) => {
  await logInRealAccount(page, 'back-kyc');
  await page.goto('/mine/auth');
  await page.getByLabel('Full name').fill('Chan Tai Man');
  await page.getByLabel('ID or passport number').fill('A1234567');
  await page.getByLabel('Front of the ID or passport').setInputFiles(await idPhoto(40));
  await page.getByLabel('Back of the ID or passport').setInputFiles(await idPhoto(200));
  await page.getByRole('button', { name: 'Submit for review' }).click();
  await expect(page.getByText('Your identity was submitted for review.')).toBeVisible();
  await expectGetStep(page, 'the identity submitted');
  await reloads(page, 'the identity submitted');
  await backAndForth(page, 'the identity submitted');
  await expect(page.getByRole('heading', { name: 'Under review' })).toBeVisible();
});

test('register with the e-mailed code: the code sent is a page that keeps what was typed, never the password', async ({ page }) => {
  const email = uniqueEmail('back-register');
  await page.goto('/register');
  await page.getByLabel('E-mail').fill(email);
  await page.getByLabel('Password', { exact: true }).fill('first-pass-1');
  await page.getByLabel('Invite code (optional)').fill('NOPE42');
  const code = await codeSentBy(email, () => page.getByRole('button', { name: 'Send code' }).click());
  await expect(page.getByRole('status').filter({ hasText: 'A code has been sent.' })).toBeVisible();
  await expectGetStep(page, 'the register code sent');
  await expect(page).toHaveURL(/[?&]kept=/);
  await reloads(page, 'the register code sent');
  await backAndForth(page, 'the register code sent');
  await expect(page.getByLabel('E-mail')).toHaveValue(email);
  await expect(page.getByLabel('Invite code (optional)')).toHaveValue('NOPE42');
  await expect(page.getByRole('button', { name: 'Send again' })).toBeDisabled();
  // The page never carries a password back.
  await expect(page.getByLabel('Password', { exact: true })).toHaveValue('');
  expect(await page.content()).not.toContain('first-pass-1');

  await page.getByLabel('Invite code (optional)').fill('');
  await page.getByLabel('Password', { exact: true }).fill('first-pass-1');
  await page.getByLabel('Confirm password').fill('first-pass-1');
  await page.getByLabel('Verification code').fill(code);
  await page.getByRole('button', { name: 'Register' }).click();
  await expect(page.getByText('Welcome! Your account is ready.')).toBeVisible();
  await expectGetStep(page, 'registered');
  await reloads(page, 'registered');
  await backAndForth(page, 'registered');
});

test('forgot password: the code sent is a page; the new password works', async ({ page }) => {
  const email = await registerRealAccount('back-forgot');
  await page.goto('/forgot');
  await page.getByLabel('E-mail').fill(email);
  const code = await codeSentBy(email, () => page.getByRole('button', { name: 'Send code' }).click());
  await expect(page.getByRole('status').filter({ hasText: 'A code has been sent.' })).toBeVisible();
  await expectGetStep(page, 'the reset code sent');
  await reloads(page, 'the reset code sent');
  await backAndForth(page, 'the reset code sent');
  await expect(page.getByLabel('E-mail')).toHaveValue(email);

  await page.getByLabel('New password', { exact: true }).fill('second-pass-2');
  await page.getByLabel('Confirm new password').fill('second-pass-2');
  await page.getByLabel('Verification code').fill(code);
  await page.getByRole('button', { name: 'Reset password' }).click();
  await expect(page).toHaveURL(/\/login/);
  await expectGetStep(page, 'the password reset');
  await reloads(page, 'the password reset');
  await backAndForth(page, 'the password reset');

  await page.goto('/login');
  await page.getByLabel('E-mail').fill(email);
  await page.getByLabel('Password').fill('second-pass-2');
  await page.getByRole('button', { name: 'Log in' }).click();
  await expect(page.getByText('Welcome back.')).toBeVisible();
});

test('alerts: set and deleted', async ({ page }) => {
  await forceMarket('EURUSD', 'closed');
  await setPrice('EURUSD', '1.10000');
  try {
    await openDemo(page);
    await page.goto('/alerts?code=EURUSD');
    await page.getByRole('textbox', { name: 'Alert price' }).fill('1.10500');
    await page.getByRole('button', { name: 'Set alert' }).click();
    await expect(page.getByText('Alert set: EUR/USD rises to 1.10500.')).toBeVisible();
    await expectGetStep(page, 'the alert set');
    await reloads(page, 'the alert set');
    await backAndForth(page, 'the alert set');
    const active = page.getByRole('list', { name: /^Active/ }).getByRole('listitem');
    await expect(active).toHaveCount(1);

    await page.getByRole('link', { name: 'Delete alert: EUR/USD rises to 1.10500' }).click();
    await page.getByRole('dialog', { name: 'Delete this alert?' }).getByRole('button', { name: 'Delete' }).click();
    await expect(page.getByText('Alert deleted.')).toBeVisible();
    await expectGetStep(page, 'the alert deleted');
    await reloads(page, 'the alert deleted');
    await backAndForth(page, 'the alert deleted');
    await expect(page.getByText('No active alerts.')).toBeVisible();
  } finally {
    await forceMarket('EURUSD', 'auto');
  }
});
