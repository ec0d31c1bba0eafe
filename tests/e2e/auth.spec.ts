import { expect, test, type Page } from '@playwright/test';
import { admin, chooseLanguage, latestCode, openDemo, passStepUp, setSetting, uniqueEmail, watchCsp } from './fixtures';

test.beforeEach(async ({ page }) => {
  await chooseLanguage(page, 'en');
});

/** Asks for a code on the current page and waits until the page says it was sent. */
async function sendCode(page: Page) {
  await page.getByRole('button', { name: 'Send code' }).click();
  await expect(page.getByText(/You can ask again in \d+ s/)).toBeVisible();
}

/** Registers a new account through /register, the way a visitor does; lands on the home page signed in. */
async function register(page: Page, email: string, password: string) {
  await page.goto('/register');
  await page.getByLabel('E-mail').fill(email);
  await sendCode(page);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByLabel('Confirm password').fill(password);
  await page.getByLabel('Verification code').fill(await latestCode(email));
  await page.getByRole('button', { name: 'Register' }).click();
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByText('Welcome! Your account is ready.')).toBeVisible();
}

/** Logs out from /mine/system: the "Log out" entry, then the confirmation's button. */
async function logOut(page: Page) {
  await page.goto('/mine/system');
  await page.getByRole('link', { name: 'Log out' }).click();
  await page.getByRole('dialog', { name: 'Log out?' }).getByRole('button', { name: 'Log out' }).click();
  await expect(page.getByText('You have logged out.')).toBeVisible();
}

async function logIn(page: Page, email: string, password: string) {
  await page.goto('/login');
  await page.getByLabel('E-mail').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Log in' }).click();
}

async function drawerShows(page: Page, text: string) {
  await page.getByLabel('Open menu').click();
  await expect(page.getByRole('navigation', { name: 'Menu' })).toContainText(text);
}

test('a visitor registers with the e-mailed code, logs out, and logs back in with the new password', async ({ page }) => {
  const csp = watchCsp(page);
  const email = uniqueEmail('register');
  await register(page, email, 'first-pass-1');
  await drawerShows(page, email);

  await logOut(page);
  await page.goto('/');
  await drawerShows(page, 'Log in');

  await logIn(page, email, 'first-pass-1');
  await expect(page.getByText('Welcome back.')).toBeVisible();
  await drawerShows(page, email);
  expect(csp).toEqual([]);
});

test('the send-code button waits 60 seconds before a new code, keeping what was typed', async ({ page, javaScriptEnabled }) => {
  const csp = watchCsp(page);
  if (javaScriptEnabled) await page.clock.install();
  const email = uniqueEmail('wait');
  await page.goto('/register');
  await page.getByLabel('E-mail').fill(email);
  await page.getByLabel('Invite code (optional)').fill('NOPE42');
  await page.getByRole('button', { name: 'Send code' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'A code has been sent.' })).toBeVisible();
  // Without JavaScript the server says how long; with it the same figure counts down.
  await expect(page.getByText(javaScriptEnabled ? /You can ask again in (60|59|58) s/ : 'You can ask again in 60 s')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Send again' })).toBeDisabled();
  await expect(page.getByLabel('E-mail')).toHaveValue(email);
  await expect(page.getByLabel('Invite code (optional)')).toHaveValue('NOPE42');
  expect(await latestCode(email)).toMatch(/^\d{6}$/);
  if (javaScriptEnabled) {
    await page.clock.fastForward(61_000);
    await expect(page.getByRole('button', { name: 'Send again' })).toBeEnabled();
    await expect(page.getByText(/You can ask again/)).toHaveCount(0);
  }
  expect(csp).toEqual([]);
});

test('registration says what is wrong and keeps the e-mail typed', async ({ page, javaScriptEnabled }) => {
  const csp = watchCsp(page);
  const email = uniqueEmail('wrong');
  await page.goto('/register');
  await page.getByLabel('E-mail').fill(email);
  await page.getByLabel('Password', { exact: true }).fill('secret-one');
  await page.getByLabel('Confirm password').fill('secret-two');
  await page.getByLabel('Verification code').fill('123456');
  // Enter registers: it must not press the "Send code" button that comes first in the form.
  await page.getByLabel('Verification code').press('Enter');
  await expect(page.getByLabel('Confirm password')).toHaveAccessibleDescription('The two passwords do not match');
  await expect(page.getByText('A code has been sent.')).toHaveCount(0);
  await expect(page.getByLabel('E-mail')).toHaveValue(email);

  // Matching passwords but a code that was never sent: the upstream's words, above the form.
  await page.getByLabel('Password', { exact: true }).fill('secret-one');
  await page.getByLabel('Confirm password').fill('secret-one');
  await page.getByLabel('Verification code').fill('123456');
  await page.getByRole('button', { name: 'Register' }).click();
  await expect(page.getByRole('alert').filter({ hasText: 'The verification code is wrong or has expired.' })).toBeVisible();
  await expect(page.getByLabel('E-mail')).toHaveValue(email);
  // A page rendered by the server never carries a password back.
  if (!javaScriptEnabled) await expect(page.getByLabel('Password', { exact: true })).toHaveValue('');
  await expect(page).toHaveURL(/\/register/);
  expect(csp).toEqual([]);
});

test('with JavaScript the sign-up checks an address and a password in the browser once its checks are there', async ({ page }) => {
  test.skip(test.info().project.name !== 'js-on', 'the checks in the browser need JavaScript');
  const posts: string[] = [];
  page.on('request', (request) => void (request.method() === 'POST' && posts.push(request.url())));
  // The form's checks (zod) load once the page is up, apart from its first script (decision 0028).
  const checks = page.waitForResponse((response) => /\/assets\/schema-[\w-]+\.js$/.test(response.url()));
  await page.goto('/register');
  await checks;
  const email = page.getByLabel('E-mail');
  await email.fill('not-an-address');
  await expect(async () => {
    await page.getByRole('button', { name: 'Send code' }).click();
    await expect(email).toHaveAccessibleDescription('Please enter a valid e-mail address', { timeout: 500 });
  }).toPass({ timeout: 5_000 });
  const password = page.getByLabel('Password', { exact: true });
  await password.fill('abc');
  await password.blur();
  await expect(password).toHaveAccessibleDescription('The password must have at least 6 characters');
  expect(posts).toEqual([]);
});

test('an invite link fills in the invite code; an unknown one is refused with the upstream message', async ({ page }) => {
  const email = uniqueEmail('invite');
  await page.goto('/register?invite_code=ZZZZ99');
  await expect(page.getByLabel('Invite code (optional)')).toHaveValue('ZZZZ99');
  await page.getByLabel('E-mail').fill(email);
  await page.getByLabel('Password', { exact: true }).fill('secret-one');
  await page.getByLabel('Confirm password').fill('secret-one');
  await page.getByLabel('Verification code').fill('123456');
  await page.getByRole('button', { name: 'Register' }).click();
  await expect(page.getByRole('alert').filter({ hasText: 'This invite code does not exist.' })).toBeVisible();
  await expect(page.getByLabel('Invite code (optional)')).toHaveValue('ZZZZ99');
  await expect(page.getByLabel('E-mail')).toHaveValue(email);
});

test('with the picture-code setting, registration asks for the characters in the picture', async ({ page }) => {
  const csp = watchCsp(page);
  await setSetting('verify_reg_type', '2');
  try {
    const email = uniqueEmail('captcha');
    await page.goto('/register');
    await expect(page.getByRole('button', { name: 'Send code' })).toHaveCount(0);
    await expect(page.getByRole('img', { name: 'Picture code to type' })).toBeVisible();
    const first = await page.locator('input[type="hidden"][name="key"]').inputValue();
    await page.getByRole('button', { name: 'New picture' }).click();
    await expect(page.locator('input[type="hidden"][name="key"]')).not.toHaveValue(first);

    await page.getByLabel('E-mail').fill(email);
    await page.getByLabel('Password', { exact: true }).fill('picture-pass');
    await page.getByLabel('Confirm password').fill('picture-pass');
    // A wrong answer: the upstream's message, and a new picture to try.
    const spent = await page.locator('input[type="hidden"][name="key"]').inputValue();
    await page.getByLabel('Picture code', { exact: true }).fill('00000');
    await page.getByRole('button', { name: 'Register' }).click();
    await expect(page.getByRole('alert').filter({ hasText: 'The picture code is wrong. Please try a new one.' })).toBeVisible();
    await expect(page.locator('input[type="hidden"][name="key"]')).not.toHaveValue(spent);

    const id = await page.locator('input[type="hidden"][name="key"]').inputValue();
    const { answer } = (await admin('GET', `/admin/captcha/${id}`)) as { answer: string | null };
    expect(answer).toMatch(/^[A-Z0-9]{5}$/);
    await page.getByLabel('Password', { exact: true }).fill('picture-pass');
    await page.getByLabel('Confirm password').fill('picture-pass');
    await page.getByLabel('Picture code', { exact: true }).fill(answer!);
    await page.getByRole('button', { name: 'Register' }).click();
    await expect(page).toHaveURL(/\/$/);
    await drawerShows(page, email);
  } finally {
    await setSetting('verify_reg_type', '1');
  }
  expect(csp).toEqual([]);
});

test('a forgotten password is reset with an e-mailed code; only the new password works after', async ({ page }) => {
  const csp = watchCsp(page);
  const email = uniqueEmail('forgot');
  await register(page, email, 'old-password');
  await logOut(page);

  await page.goto('/login');
  await page.getByRole('link', { name: 'Forgot password?' }).click();
  await expect(page).toHaveURL(/\/forgot$/);
  await page.getByRole('button', { name: 'Reset password' }).click();
  await expect(page.getByLabel('E-mail')).toHaveAccessibleDescription('Please enter your e-mail');
  await expect(page.getByLabel('Verification code')).toHaveAccessibleDescription('Please enter the verification code');
  await expect(page).toHaveURL(/\/forgot$/);

  await page.getByLabel('E-mail').fill(email);
  await sendCode(page);
  const code = await latestCode(email);
  await page.getByLabel('New password', { exact: true }).fill('new-password');
  await page.getByLabel('Confirm new password').fill('not-the-same');
  await page.getByLabel('Verification code').fill(code);
  await page.getByRole('button', { name: 'Reset password' }).click();
  await expect(page.getByLabel('Confirm new password')).toHaveAccessibleDescription('The two passwords do not match');

  await page.getByLabel('New password', { exact: true }).fill('new-password');
  await page.getByLabel('Confirm new password').fill('new-password');
  await page.getByLabel('Verification code').fill(code);
  await page.getByRole('button', { name: 'Reset password' }).click();
  await expect(page).toHaveURL(/\/login$/);
  await expect(page.getByText('Your password has been changed. Please log in with the new one.')).toBeVisible();

  await logIn(page, email, 'old-password');
  await expect(page.getByRole('alert').filter({ hasText: 'The account or password is incorrect.' })).toBeVisible();
  await logIn(page, email, 'new-password');
  await expect(page.getByText('Welcome back.')).toBeVisible();
  await drawerShows(page, email);
  expect(csp).toEqual([]);
});

test('a signed-in user changes the password with a code sent to their own e-mail', async ({ page }) => {
  const csp = watchCsp(page);
  const email = uniqueEmail('change');
  await register(page, email, 'before-change');

  await page.goto('/mine/password');
  await expect(page.getByRole('heading', { name: 'Change password' })).toBeVisible();
  await expect(page.getByText(`The code is sent to ${email}.`)).toBeVisible();
  await page.getByRole('button', { name: 'Change password' }).click();
  await expect(page.getByLabel('New password', { exact: true })).toHaveAccessibleDescription('Please complete all fields');
  await expect(page.getByLabel('Verification code')).toHaveAccessibleDescription('Please enter the verification code');

  await sendCode(page);
  await page.getByLabel('New password', { exact: true }).fill('after-change');
  await page.getByLabel('Confirm new password').fill('after-change');
  await page.getByLabel('Verification code').fill(await latestCode(email));
  await page.getByRole('button', { name: 'Change password' }).click();
  // A step-up first (issue 38): the passwords wait on the server, never in the page.
  expect(await page.content()).not.toContain('after-change');
  await passStepUp(page, email, 'Change password');
  await expect(page).toHaveURL(/\/mine$/);
  await expect(page.getByText('Your password has been changed.')).toBeVisible();

  await logOut(page);
  await logIn(page, email, 'after-change');
  await expect(page.getByText('Welcome back.')).toBeVisible();
  expect(csp).toEqual([]);
});

test('the password page sends a visitor to log in and refuses a demo account', async ({ page }) => {
  await page.goto('/mine/password');
  await expect(page).toHaveURL(/\/login\?from=%2Fmine%2Fpassword$/);

  await openDemo(page);
  await page.goto('/mine/password');
  const refusal = page.getByRole('alert').filter({ hasText: 'Please register or log in to a real account' });
  await expect(refusal).toBeVisible();
  await expect(refusal.getByRole('link', { name: 'Register' })).toHaveAttribute('href', '/register?from=%2Fmine%2Fpassword');
  await expect(page.getByLabel('New password', { exact: true })).toHaveCount(0);
});
