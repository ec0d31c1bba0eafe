/**
 * Issue 38, as a trader walks it, JavaScript on and off: the authenticator app set up from the QR code's secret
 * (codes computed here with otpauth), ten recovery codes shown once, log-in with a code and with a recovery code
 * (once only), turning it off after a step-up; a new withdrawal method bound after a step-up, held, then usable; a
 * withdrawal posted straight to the action without a grant is refused and asks for the step-up.
 */
import { expect, test, type Page } from '@playwright/test';
import { Secret, TOTP } from 'otpauth';
import { seriousFindings } from './axe';
import { chooseLanguage, logInRealAccount, passStepUp, REAL_PASSWORD, watchCsp, withdrawalsOf } from './fixtures';

const MY_TRC20 = 'TJRabPrwbZy45sbavfcjinPJC18kjpRTv8';

/** The code the authenticator app would show, `steps` periods from now (the upstream accepts one step of drift). */
const codeOf = (secret: string, steps = 0) =>
  new TOTP({ secret: Secret.fromBase32(secret), digits: 6, period: 30, algorithm: 'SHA1' }).generate({
    timestamp: Date.now() + steps * 30_000,
  });

async function logInWithPassword(page: Page, email: string) {
  await page.goto('/login');
  await page.getByLabel('E-mail').fill(email);
  await page.getByLabel('Password').fill(REAL_PASSWORD);
  await page.getByRole('button', { name: 'Log in' }).click();
}

async function signOut(page: Page) {
  await page.context().clearCookies();
  await chooseLanguage(page, 'en');
}

const status = (page: Page, term: string) => page.getByText(term, { exact: true }).locator('..').locator('dd');

/** Turns the authenticator on from the Security screen; answers its secret and the recovery codes shown. */
async function setUpAuthenticator(page: Page): Promise<{ secret: string; codes: string[] }> {
  await page.goto('/mine');
  await page.getByRole('link', { name: 'Security' }).click();
  await expect(page.getByRole('heading', { name: 'Security', level: 1 })).toBeVisible();
  await expect(status(page, 'Status')).toHaveText('Off');
  await page.getByRole('button', { name: 'Set up the authenticator app' }).click();
  await expect(page.getByRole('img', { name: 'QR code for your authenticator app' })).toBeVisible();
  const secret = await page.getByLabel('Secret key').inputValue();
  expect(secret).toMatch(/^[A-Z2-7]{16,}=*$/);

  // A wrong first code: the upstream's words, the set-up still open.
  await page.getByLabel('Code from the app').fill('000000');
  await page.getByRole('button', { name: 'Turn on' }).click();
  await expect(page.getByText('The code is wrong, expired or already used.')).toBeVisible();
  await page.getByLabel('Code from the app').fill(codeOf(secret));
  await page.getByRole('button', { name: 'Turn on' }).click();
  await expect(page.getByText(/^The authenticator app is on\./)).toBeVisible();
  const list = page.getByRole('list', { name: 'Your recovery codes' }).getByRole('listitem');
  await expect(list).toHaveCount(10);
  const codes = await list.allInnerTexts();
  // Shown once: a reload has them no more, and they were never in the address.
  expect(page.url()).not.toContain(codes[0]!);
  await page.reload();
  await expect(page.getByRole('list', { name: 'Your recovery codes' })).toHaveCount(0);
  await expect(status(page, 'Status')).toHaveText('On');
  await expect(status(page, 'Recovery codes left')).toHaveText('10');
  return { secret, codes: codes.map((c) => c.trim()) };
}

// Each test walks many pages (a dozen log-ins and codes, or axe on four screens) on a shared two-core machine.
test.describe.configure({ timeout: 120_000 });

test.beforeEach(async ({ page }) => {
  await chooseLanguage(page, 'en');
});

test('set up the authenticator; log in with its code, then with a recovery code that works once; turning it off asks for a code', async ({
  page,
}) => {
  const csp = watchCsp(page);
  const email = await logInRealAccount(page, 'totp');
  const { secret, codes } = await setUpAuthenticator(page);

  // The password is right: no session yet, the code is asked on a page of its own.
  await signOut(page);
  await logInWithPassword(page, email);
  await expect(page).toHaveURL(/\/login\/factor$/);
  await expect(page.getByRole('heading', { name: 'Enter your code' })).toBeVisible();
  await expect(page.getByText('This step expires after 5 minutes.', { exact: false })).toBeVisible();
  expect(await page.content()).not.toContain(REAL_PASSWORD);
  // Not signed in until the code is given.
  await page.goto('/mine/security');
  await expect(page).toHaveURL(/\/login\?from=%2Fmine%2Fsecurity$/);
  await page.goto('/login/factor');

  // A wrong code: the upstream's words, the field kept.
  await page.getByLabel('Code').fill('12345678');
  await page.getByRole('button', { name: 'Log in' }).click();
  await expect(page.getByText('The code is wrong, expired or already used.')).toBeVisible();
  await expect(page.getByLabel('Code')).toHaveValue('12345678');
  // The code that turned it on is spent: the next step's is accepted (one step of drift).
  await page.getByLabel('Code').fill(codeOf(secret, 1));
  await page.getByRole('button', { name: 'Log in' }).click();
  await expect(page.getByText('Welcome back.')).toBeVisible();
  await expect(page).toHaveURL(/\/$/);

  // A recovery code logs in once.
  for (const expected of ['Welcome back.', 'The code is wrong, expired or already used.']) {
    await signOut(page);
    await logInWithPassword(page, email);
    await page.getByLabel('Code').fill(codes[0]!);
    await page.getByRole('button', { name: 'Log in' }).click();
    await expect(page.getByText(expected)).toBeVisible();
  }
  await page.getByLabel('Code').fill(codes[1]!);
  await page.getByRole('button', { name: 'Log in' }).click();
  await expect(page.getByText('Welcome back.')).toBeVisible();

  // Turning it off asks for a step-up: a wrong code is refused, a recovery code confirms, one tap finishes.
  await page.goto('/mine/security');
  await expect(status(page, 'Recovery codes left')).toHaveText('8');
  await page.getByRole('button', { name: 'Turn off the authenticator app' }).click();
  await expect(page.getByRole('heading', { name: "Confirm it's you" })).toBeVisible();
  await expect(page.getByText("To turn off a second factor, please confirm it's you.")).toBeVisible();
  expect(new URL(page.url()).searchParams.get('id')).toBeTruthy();
  await page.getByLabel('Code', { exact: true }).fill('000000');
  await page.getByRole('button', { name: 'Confirm', exact: true }).click();
  await expect(page.getByText('The code is wrong, expired or already used.')).toBeVisible();
  await page.getByLabel('Code', { exact: true }).fill(codes[2]!);
  await page.getByRole('button', { name: 'Confirm', exact: true }).click();
  const finish = page.getByRole('dialog', { name: 'Confirmed' });
  await expect(finish).toBeVisible();
  await finish.getByRole('button', { name: 'Turn off the authenticator app' }).click();
  await expect(page.getByText('The authenticator app is off.')).toBeVisible();
  await expect(status(page, 'Status')).toHaveText('Off');

  // Off: the password alone logs in again.
  await signOut(page);
  await logInWithPassword(page, email);
  await expect(page.getByText('Welcome back.')).toBeVisible();
  expect(csp).toEqual([]);
});

test("turning the authenticator on signs the account's other devices out: their next page, / too, is a visitor's", async ({
  page,
  browser,
  baseURL,
  javaScriptEnabled,
}) => {
  const email = await logInRealAccount(page, 'others');
  const other = await (await browser.newContext({ baseURL, javaScriptEnabled })).newPage();
  await chooseLanguage(other, 'en');
  await logInWithPassword(other, email);
  await expect(other.getByText('Welcome back.')).toBeVisible();

  await setUpAuthenticator(page);
  await other.goto('/');
  await other.getByLabel('Open menu').click();
  const menu = other.getByRole('navigation', { name: 'Menu' });
  await expect(menu.getByRole('link', { name: 'Log in' })).toBeVisible();
  await expect(menu).not.toContainText(email);
  // The device that turned it on stays signed in.
  await page.goto('/mine/security');
  await expect(status(page, 'Status')).toHaveText('On');
  await other.context().close();
});

test('a half-done log-in lives only on the server: without its cookie the code page sends back to log in', async ({ page }) => {
  const email = await logInRealAccount(page, 'half');
  await setUpAuthenticator(page);
  await signOut(page);
  await logInWithPassword(page, email);
  await expect(page).toHaveURL(/\/login\/factor$/);
  const cookies = await page.context().cookies();
  const half = cookies.find((c) => c.name === '__Host-login');
  expect(half?.httpOnly).toBe(true);
  // The cookie holds a random id, not the upstream's ticket (which the browser never sees).
  expect(cookies.some((c) => c.name === '__Host-sid')).toBe(false);
  await page.context().clearCookies({ name: '__Host-login' });
  await page.goto('/login/factor');
  await expect(page).toHaveURL(/\/login$/);
});

test('bind a coin address: a step-up is asked, the address is held, then usable; deleting it asks again', async ({ page }) => {
  const email = await logInRealAccount(page, 'hold');
  await page.goto('/mine/withdraw-way?type=1');
  await page.getByLabel('USDT · TRC20').check();
  await page.getByLabel('Address').fill(MY_TRC20);
  await page.getByRole('button', { name: 'Bind' }).click();
  await expect(page.getByText("To add a withdrawal method, please confirm it's you.")).toBeVisible();
  // Nothing typed is in the address of the step-up page: an opaque id and the form's path.
  expect(page.url()).not.toContain(MY_TRC20);
  await passStepUp(page, email, 'Bind');
  await expect(page.getByText(/^The withdrawal method was bound\. For your safety/)).toBeVisible();
  const row = page.getByRole('list', { name: 'Coin addresses' }).getByRole('listitem');
  await expect(row).toContainText('TJRabPrw…jpRTv8');
  await expect(row).toContainText('Usable from');
  // The tests' hold is two seconds (tests/e2e/serve.mjs): then the row says nothing more.
  await expect(async () => {
    await page.reload();
    await expect(row).not.toContainText('Usable from', { timeout: 500 });
  }).toPass({ timeout: 15_000 });

  await row.getByRole('link', { name: 'Delete' }).click();
  await page.getByRole('dialog', { name: 'Delete this withdrawal method?' }).getByRole('button', { name: 'Delete' }).click();
  await expect(page.getByText("To delete a withdrawal method, please confirm it's you.")).toBeVisible();
  await passStepUp(page, email, 'Delete');
  await expect(page.getByText('The withdrawal method was deleted.')).toBeVisible();
  await expect(page.getByText('No coin address bound yet.')).toBeVisible();
});

test('a withdrawal posted straight to the action with a valid form token and no grant is refused: the step-up is asked @http', async ({
  page,
}) => {
  const email = await logInRealAccount(page, 'direct');
  await page.goto('/mine/withdraw');
  const csrf = await page.locator('input[name="csrf"]').first().inputValue();
  const response = await page.request.post('/mine/withdraw?type=1', {
    form: { csrf, type: '1', currency: '1', method: '1', amount: '10', idempotency_key: 'direct-post-0001', intent: 'withdraw' },
    maxRedirects: 0,
  });
  expect(response.status()).toBe(302);
  const location = response.headers()['location']!;
  expect(location).toMatch(/^\/step-up\?id=[\w-]+&back=%2Fmine%2Fwithdraw%3Ftype%3D1$/);
  expect(await withdrawalsOf(email)).toEqual([]);
  await page.goto(location);
  await expect(page.getByText("To ask for a withdrawal, please confirm it's you.")).toBeVisible();
});

test('another account cannot use a kept form: its step-up page sends it back with "expired"', async ({ page, browser }) => {
  await logInRealAccount(page, 'owner');
  await page.goto('/mine/withdraw-way?type=1');
  await page.getByLabel('USDT · TRC20').check();
  await page.getByLabel('Address').fill(MY_TRC20);
  await page.getByRole('button', { name: 'Bind' }).click();
  await expect(page.getByRole('heading', { name: "Confirm it's you" })).toBeVisible();
  const stepUpUrl = page.url();

  const other = await browser.newPage();
  await chooseLanguage(other, 'en');
  await logInRealAccount(other, 'stranger');
  await other.goto(stepUpUrl);
  await expect(other.getByText('Your confirmation has expired. Please try again.')).toBeVisible();
  await expect(other).toHaveURL(/\/mine\/withdraw-way\?type=1/);
  await other.close();
  await page.reload();
  await expect(page.getByRole('heading', { name: "Confirm it's you" })).toBeVisible();
});

/** Every serious or critical axe finding on the page as it is now (JavaScript on: axe runs in the page). */
async function expectNoSeriousFindings(page: Page, screen: string) {
  await expect(page.locator('html')).toHaveAttribute('data-hydrated', 'true');
  expect.soft(await seriousFindings(page), `axe findings on ${screen}`).toEqual([]);
}

for (const lng of ['en', 'ar'] as const) {
  test(`in ${lng}: set up, the recovery codes, the step-up and the log-in's code page have no serious axe findings`, async ({
    page,
    javaScriptEnabled,
  }) => {
    test.skip(!javaScriptEnabled, 'axe runs in the page');
    const email = await logInRealAccount(page, `axe-${lng}`);
    await chooseLanguage(page, lng);
    await page.goto('/mine/security');
    await expect(page.locator('html')).toHaveAttribute('dir', lng === 'ar' ? 'rtl' : 'ltr');
    await expectNoSeriousFindings(page, `/mine/security (${lng})`);
    await page.locator('button[name="intent"][value="setup"]').click();
    const secret = await page.locator('#setup input[readonly]').inputValue();
    await expectNoSeriousFindings(page, `set-up (${lng})`);
    await page.locator('input[name="code"]').fill(codeOf(secret));
    await page.locator('button[name="intent"][value="confirm"]').click();
    await expect(page.locator('#codes li')).toHaveCount(10);
    await expectNoSeriousFindings(page, `recovery codes (${lng})`);

    await page.locator('button[name="intent"][value="off"]').click();
    await expect(page).toHaveURL(/\/step-up\?id=/);
    if (lng === 'ar') await expect(page.getByRole('heading', { level: 1 })).toHaveText('أكِّد أنك أنت');
    await expectNoSeriousFindings(page, `step-up (${lng})`);

    // The log-in's second step, in this language, with the next step's code.
    await page.context().clearCookies();
    await chooseLanguage(page, lng);
    await page.goto('/login');
    await page.locator('input[name="account"]').fill(email);
    await page.locator('input[name="password"]').fill(REAL_PASSWORD);
    await page.locator('form:has(input[name="password"]) button[type="submit"]').click();
    await expect(page).toHaveURL(/\/login\/factor$/);
    if (lng === 'ar') await expect(page.getByRole('heading', { level: 1 })).toHaveText('أدخل رمزك');
    await page.locator('input[name="code"]').fill('000000');
    await page.locator('input[name="code"]').press('Enter');
    // The refusal in this language (the upstream words it), the field kept.
    const refusal = page.getByRole('alert');
    await expect(refusal).toBeVisible();
    if (lng === 'ar') await expect(refusal).not.toContainText('The code is wrong');
    await expect(page.locator('input[name="code"]')).toHaveValue('000000');
    await expectNoSeriousFindings(page, `/login/factor (${lng})`);
    await page.locator('input[name="code"]').fill(codeOf(secret, 1));
    await page.locator('input[name="code"]').press('Enter');
    await expect(page).toHaveURL(/\/$/);
    await page.goto('/mine/security');
    await expect(page).toHaveURL(/\/mine\/security$/);
  });
}
