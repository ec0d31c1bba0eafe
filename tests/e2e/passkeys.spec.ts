/**
 * Passkeys (issue 38) with Chromium's virtual authenticator (CDP WebAuthn: a phone's platform authenticator with its
 * user verification), against the real upstream: added from the Security screen, named again, used to sign in with
 * no password and as the log-in's second step and a step-up, removed after that step-up. Without JavaScript a
 * passkey cannot be used: the screens say so, and a passkey-only account finishes its log-in with a code sent to it.
 */
import { axeFor } from './axe';
import { expect, test, type Browser, type Page } from '@playwright/test';
import { chooseLanguage, codeSentBy, logInRealAccount, REAL_PASSWORD, registerRealAccount, watchCsp } from './fixtures';

test.describe.configure({ timeout: 120_000 });

/** A platform authenticator on this page's browser that verifies its user, as a phone with a screen lock does. */
async function addAuthenticator(page: Page) {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('WebAuthn.enable');
  const { authenticatorId } = await cdp.send('WebAuthn.addVirtualAuthenticator', {
    options: {
      protocol: 'ctap2',
      transport: 'internal',
      hasResidentKey: true,
      hasUserVerification: true,
      isUserVerified: true,
      automaticPresenceSimulation: true,
    },
  });
  return { cdp, authenticatorId };
}

async function logInWithPassword(page: Page, email: string) {
  await page.goto('/login');
  await page.getByLabel('E-mail').fill(email);
  await page.getByLabel('Password').fill(REAL_PASSWORD);
  await page.getByRole('button', { name: 'Log in' }).click();
}

const passkeyRows = (page: Page) => page.locator('#passkeys').getByRole('listitem');

/** Adds a passkey named `name` from the Security screen (JavaScript on). */
async function addPasskey(page: Page, name: string) {
  await page.goto('/mine/security');
  await page.getByLabel('Name', { exact: true }).last().fill(name);
  await page.getByRole('button', { name: 'Add a passkey' }).click();
  await expect(page.getByText('The passkey was added.')).toBeVisible();
}

/** An account whose only factor is a passkey made in a browser with JavaScript (and its authenticator). */
async function passkeyAccount(browser: Browser, baseURL: string | undefined): Promise<string> {
  const page = await (await browser.newContext({ baseURL, javaScriptEnabled: true })).newPage();
  await chooseLanguage(page, 'en');
  const email = await logInRealAccount(page, 'passkey');
  await addAuthenticator(page);
  await addPasskey(page, 'Pixel');
  await page.context().close();
  return email;
}

test.beforeEach(async ({ page }) => {
  await chooseLanguage(page, 'en');
});

test('add a passkey, name it again, sign in with it without a password and after the password; remove it after a step-up by passkey', async ({
  page,
  javaScriptEnabled,
}) => {
  test.skip(!javaScriptEnabled, 'a passkey needs JavaScript (WebAuthn); without it, see the next test');
  const csp = watchCsp(page);
  const email = await logInRealAccount(page, 'passkey');
  await addAuthenticator(page);
  await page.goto('/mine/security');
  await expect(page.getByRole('heading', { name: 'Passkeys' })).toBeVisible();
  await expect(page.getByText('No passkeys yet.')).toBeVisible();

  await addPasskey(page, 'My phone');
  await expect(passkeyRows(page)).toHaveCount(1);
  await expect(passkeyRows(page)).toContainText('My phone');
  await expect(passkeyRows(page)).toContainText('not used yet');
  await passkeyRows(page).getByLabel('Name').fill('Pixel 7');
  await passkeyRows(page).getByRole('button', { name: 'Rename' }).click();
  await expect(page.getByText('The passkey was renamed.')).toBeVisible();
  await expect(passkeyRows(page).locator('.passkey-name')).toHaveText('Pixel 7');
  expect((await axeFor(page).analyze()).violations).toEqual([]);

  // No password: the phone offers its passkey for this site.
  await page.context().clearCookies();
  await chooseLanguage(page, 'en');
  await page.goto('/login');
  await page.getByRole('button', { name: 'Sign in with a passkey' }).click();
  await expect(page.getByText('Welcome back.')).toBeVisible();
  await expect(page).toHaveURL(/\/$/);

  // After the password, the passkey is the second step.
  await page.context().clearCookies();
  await chooseLanguage(page, 'en');
  await logInWithPassword(page, email);
  await expect(page).toHaveURL(/\/login\/factor$/);
  await expect(page.getByText("Confirm it's you with your passkey.", { exact: false })).toBeVisible();
  await page.getByRole('button', { name: 'Use a passkey' }).click();
  await expect(page.getByText('Welcome back.')).toBeVisible();

  // Removing it turns a factor off: a step-up first, which the passkey itself passes.
  await page.goto('/mine/security');
  await expect(passkeyRows(page)).toContainText('last used');
  await passkeyRows(page).getByRole('button', { name: 'Remove passkey' }).click();
  await expect(page.getByText("To turn off a second factor, please confirm it's you.")).toBeVisible();
  expect((await axeFor(page).analyze()).violations).toEqual([]);
  await page.getByRole('button', { name: 'Use a passkey' }).click();
  await page.getByRole('dialog', { name: 'Confirmed' }).getByRole('button', { name: 'Remove passkey' }).click();
  await expect(page.getByText('The passkey was removed.')).toBeVisible();
  await expect(page.getByText('No passkeys yet.')).toBeVisible();

  // No factor left: the password alone signs in.
  await page.context().clearCookies();
  await chooseLanguage(page, 'en');
  await logInWithPassword(page, email);
  await expect(page.getByText('Welcome back.')).toBeVisible();
  expect(csp).toEqual([]);
});

test('without JavaScript a passkey-only account finishes its log-in with a code sent to its e-mail; in Arabic too', async ({
  page,
  browser,
  baseURL,
  javaScriptEnabled,
}) => {
  const email = await passkeyAccount(browser, baseURL);
  await logInWithPassword(page, email);
  await expect(page).toHaveURL(/\/login\/factor$/);
  if (javaScriptEnabled) {
    // This browser has no passkey of the account: the phone's prompt fails, and says so.
    await addAuthenticator(page);
    await page.getByRole('button', { name: 'Use a passkey' }).click();
    await expect(page.getByRole('alert').filter({ hasText: 'The passkey was not used. Please try again.' })).toBeVisible();
  } else {
    await expect(page.getByText('Passkeys need JavaScript. Turn it on in your browser, or we can send you a code.')).toBeVisible();
  }
  const code = await codeSentBy(email, () => page.getByRole('button', { name: 'Send a code to my e-mail' }).click());
  await expect(page.getByText(/^We sent a code to /)).toBeVisible();
  await page.getByLabel('Code you received').fill(code);
  await page.getByRole('button', { name: 'Log in' }).click();
  await expect(page.getByText('Welcome back.')).toBeVisible();

  // The Security screen in Arabic: the passkey listed; adding one without JavaScript is explained.
  await chooseLanguage(page, 'ar');
  await page.goto('/mine/security');
  await expect(page.getByRole('heading', { name: 'مفاتيح المرور' })).toBeVisible();
  await expect(passkeyRows(page)).toContainText('Pixel');
  if (!javaScriptEnabled) {
    await expect(page.getByText('تحتاج إضافة مفتاح مرور إلى JavaScript. فعّلها في متصفحك لإضافة مفتاح.')).toBeVisible();
  } else {
    await expect(page.getByRole('button', { name: 'إضافة مفتاح مرور' })).toBeVisible();
    // axe runs as a script in the page.
    expect((await axeFor(page).analyze()).violations).toEqual([]);
  }
});

test('a passkey-less browser is told, not left waiting: signing in with a passkey no phone holds fails in words', async ({
  page,
  javaScriptEnabled,
}) => {
  test.skip(!javaScriptEnabled, 'the button is there only with JavaScript');
  await registerRealAccount('nokey');
  await addAuthenticator(page);
  await page.goto('/login');
  await page.getByRole('button', { name: 'Sign in with a passkey' }).click();
  await expect(page.getByRole('alert').filter({ hasText: 'The passkey was not used. Please try again.' })).toBeVisible();
  await expect(page).toHaveURL(/\/login$/);
});
