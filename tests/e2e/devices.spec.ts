/**
 * "Signed-in devices" (issue 38): two browsers signed in to one account; the first lists both and signs the other
 * out; the other's next page, `/` too, is a visitor's, and (with JavaScript) its open live stream ends. In English
 * and in Arabic, with and without JavaScript; axe on the screen where it can run (JavaScript on).
 */
import { seriousFindings } from './axe';
import fs from 'node:fs';
import { devices, expect, test, type Browser, type Page, type Response } from '@playwright/test';
import { admin, chooseLanguage, latestCode, REAL_PASSWORD, uniqueEmail, upstreamUrl, watchCsp } from './fixtures';

// Two or three browsers each log in (a password hash each), and axe walks the screen.
test.describe.configure({ timeout: 90_000 });

/** The second device: an iPhone's Safari, so the list tells the two apart by their user agents. */
const IPHONE = devices['iPhone 13'];

/**
 * A real account registered straight at the upstream, whose own session (registering signs in) is then logged out:
 * the only devices listed are the browsers of the test.
 */
async function registeredAccount(): Promise<string> {
  const email = uniqueEmail('devices');
  await admin('POST', '/api/notify/send_email', { to: email, type: 1 });
  const registered = (await admin('POST', '/api/user/register', {
    type: 1,
    account: email,
    password: REAL_PASSWORD,
    re_password: REAL_PASSWORD,
    sms_code: await latestCode(email),
  })) as { code: number; data: { token: string } };
  expect(registered.code).toBe(1);
  const out = await fetch(new URL('/api/user/logout', upstreamUrl()), {
    method: 'POST',
    headers: { authorization: registered.data.token },
  });
  expect(((await out.json()) as { code: number }).code).toBe(1);
  return email;
}

async function logIn(page: Page, email: string) {
  await chooseLanguage(page, 'en');
  await page.goto('/login');
  await page.getByLabel('E-mail').fill(email);
  await page.getByLabel('Password').fill(REAL_PASSWORD);
  await page.getByRole('button', { name: 'Log in' }).click();
  await expect(page.getByText('Welcome back.')).toBeVisible();
}

/** The other device, signed in to the same account in a browser context of its own. */
async function secondDevice(browser: Browser, baseURL: string | undefined, javaScriptEnabled: boolean, email: string): Promise<Page> {
  const context = await browser.newContext({
    baseURL,
    javaScriptEnabled,
    userAgent: IPHONE.userAgent,
    viewport: IPHONE.viewport,
    isMobile: true,
    hasTouch: true,
  });
  const page = await context.newPage();
  await logIn(page, email);
  return page;
}

/** `/` as the device shows it: its menu names the account, or offers to log in. */
async function homeMenu(page: Page) {
  await page.goto('/');
  await page.getByLabel('Open menu').click();
  return page.getByRole('navigation', { name: 'Menu' });
}

/** Opens `/` and waits for its live stream to be answered. */
async function homeWithStream(page: Page): Promise<Response> {
  const stream = page.waitForResponse((r) => new URL(r.url()).pathname === '/stream');
  await page.goto('/');
  return stream;
}

const settles = (ms: number) => new Promise<'open'>((r) => setTimeout(() => r('open'), ms));

/** Whether a streamed answer ended within `ms`. */
async function endsWithin(response: Response, ms: number): Promise<boolean> {
  return (await Promise.race([response.finished().then(() => 'ended' as const), settles(ms)])) === 'ended';
}

const words = (lng: string) => JSON.parse(fs.readFileSync(`locales/${lng}/devices.json`, 'utf8')) as Record<string, string>;

for (const lng of ['en', 'ar']) {
  test(`"Sign out everywhere else" signs the other browser out at its next page, / too, and ends its open stream (${lng})`, async ({
    page,
    browser,
    baseURL,
    javaScriptEnabled,
  }) => {
    const w = words(lng);
    const csp = watchCsp(page);
    const email = await registeredAccount();
    await logIn(page, email);
    const other = await secondDevice(browser, baseURL, javaScriptEnabled, email);
    await expect(await homeMenu(other)).toContainText(email);
    const stream = javaScriptEnabled ? await homeWithStream(other) : null;

    await chooseLanguage(page, lng);
    await page.goto('/mine/devices');
    await expect(page.getByRole('heading', { level: 1, name: w.title })).toBeVisible();
    const list = page.getByRole('list', { name: w.listLabel });
    await expect(list.getByRole('listitem')).toHaveCount(2);
    // This device first, with its badge; the iPhone in plain words, with its masked address and its times.
    const here = list.getByRole('listitem').first();
    const named = (browserName: string, os: string) => w.browserOn!.replace('{{browser}}', browserName).replace('{{os}}', os);
    await expect(here.getByRole('heading')).toContainText(named('Chrome', 'Android'));
    await expect(here.getByRole('heading')).toContainText(w.thisDevice!);
    await expect(here.getByRole('button')).toHaveCount(0);
    const iphone = list.getByRole('listitem').nth(1);
    await expect(iphone.getByRole('heading')).toHaveText(named('Safari', 'iPhone'));
    // The address as the upstream masks it (this machine's, over IPv4 or IPv6), never whole.
    await expect(iphone).toContainText(/127\.0\.0\.x|0:0:0:…/);
    await expect(iphone).not.toContainText('127.0.0.1');
    await expect(iphone.getByRole('definition')).toHaveCount(3);
    if (javaScriptEnabled) expect(await seriousFindings(page), `axe findings on /mine/devices (${lng})`).toEqual([]);
    if (stream) expect(await endsWithin(stream, 300), 'the stream is open before').toBe(false);

    await page.getByRole('button', { name: w.endOthers }).click();
    await expect(page).toHaveURL(/\/mine\/devices$/);
    await expect(page.getByRole('status').filter({ hasText: w.endedOthers })).toBeVisible();
    await expect(list.getByRole('listitem')).toHaveCount(1);
    await expect(page.getByText(w.alone!)).toBeVisible();
    await expect(page.getByRole('button', { name: w.endOthers })).toHaveCount(0);

    // The other browser's open stream ends at once (the upstream refused its token); it reconnects as a visitor's.
    if (stream) expect(await endsWithin(stream, 10_000), "the other browser's stream ended").toBe(true);
    // Its next page is a visitor's: `/` first (the page every visitor shares), then an account page.
    const menu = await homeMenu(other);
    await expect(menu.getByRole('link', { name: 'Log in' })).toBeVisible();
    await expect(menu).not.toContainText(email);
    await other.goto('/mine/devices');
    await expect(other).toHaveURL(/\/login\?from=%2Fmine%2Fdevices$/);
    // This browser stays signed in.
    await page.goto('/mine/devices');
    await expect(list.getByRole('listitem')).toHaveCount(1);
    expect(csp).toEqual([]);
    await other.context().close();
  });
}

test('"Sign out" of one device ends that device alone', async ({ page, browser, baseURL, javaScriptEnabled }) => {
  const email = await registeredAccount();
  await logIn(page, email);
  const iphone = await secondDevice(browser, baseURL, javaScriptEnabled, email);
  // A third browser, like the first: it stays signed in.
  const third = await browser.newContext({ baseURL, javaScriptEnabled, ...devices['Pixel 5'] }).then((c) => c.newPage());
  await logIn(third, email);

  await page.goto('/mine/devices');
  const list = page.getByRole('list', { name: 'Devices' });
  await expect(list.getByRole('listitem')).toHaveCount(3);
  // Each other device's button names it.
  await expect(list.getByRole('button', { name: 'Sign out Chrome on Android' })).toHaveCount(1);
  await list.getByRole('button', { name: 'Sign out Safari on iPhone' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'That device has been signed out.' })).toBeVisible();
  await expect(list.getByRole('listitem')).toHaveCount(2);
  await expect(list).not.toContainText('iPhone');

  await expect((await homeMenu(iphone)).getByRole('link', { name: 'Log in' })).toBeVisible();
  await expect(await homeMenu(third)).toContainText(email);
  await third.goto('/mine/devices');
  await expect(third.getByRole('list', { name: 'Devices' }).getByRole('listitem')).toHaveCount(2);
  await iphone.context().close();
  await third.context().close();
});
