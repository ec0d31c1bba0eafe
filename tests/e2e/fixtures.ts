/**
 * Shared helpers for the browser tests: the back office of the real upstream that the app under test
 * embeds (its data folder is written by tests/e2e/serve.mjs), and small user actions.
 */
import { expect, test, type Page } from '@playwright/test';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

function dataDir(): string {
  return fs.readFileSync(path.join(os.tmpdir(), `e2e-data-dir-${process.env.E2E_PORT ?? 3210}`), 'utf8').trim();
}

/** Where the app under test reaches its embedded upstream. */
export function upstreamUrl(): string {
  return fs.readFileSync(path.join(dataDir(), 'upstream.url'), 'utf8').trim();
}

/** A call to an upstream's admin API (outbox, market switch, prices, settings) or, with its key, any other call. */
export type AdminCall = (method: 'GET' | 'POST', urlPath: string, body?: Record<string, unknown>) => Promise<unknown>;

/** The admin API of the upstream whose data folder `dir()` names (its address and key are written there). */
export function adminOf(dir: () => string): AdminCall {
  return async (method, urlPath, body) => {
    const base = fs.readFileSync(path.join(dir(), 'upstream.url'), 'utf8').trim();
    const key = fs.readFileSync(path.join(dir(), 'admin.key'), 'utf8').trim();
    const res = await fetch(new URL(urlPath, base), {
      method,
      headers: { 'x-admin-key': key, ...(body ? { 'content-type': 'application/json' } : {}) },
      body: body ? JSON.stringify(body) : undefined,
    });
    if (!res.ok) throw new Error(`admin ${urlPath}: HTTP ${res.status} ${await res.text()}`);
    return res.json();
  };
}

/** The admin API of the app under test's embedded upstream. */
export const admin: AdminCall = adminOf(dataDir);

/** The newest 6-digit code sent to this address (read from the upstream's outbox). */
export async function latestCode(recipient: string, call: AdminCall = admin): Promise<string> {
  let code: string | undefined;
  await expect(async () => {
    const { outbox } = (await call('GET', `/admin/outbox?to=${encodeURIComponent(recipient)}`)) as { outbox: { body: string }[] };
    code = outbox.map((m) => /\b(\d{6})\b/.exec(m.body)?.[1]).find(Boolean);
    expect(code).toBeTruthy();
  }).toPass({ timeout: 5000 });
  return code!;
}

/**
 * The code of a message sent to the recipient by `act` — not an older one still in the outbox (a button's pending
 * label can change before the server has sent anything).
 */
export async function codeSentBy(recipient: string, act: () => Promise<void>): Promise<string> {
  const outbox = async () =>
    ((await admin('GET', `/admin/outbox?to=${encodeURIComponent(recipient)}`)) as { outbox: { id: number; body: string }[] }).outbox;
  const before = Math.max(0, ...(await outbox()).map((m) => m.id));
  await act();
  let code: string | undefined;
  await expect(async () => {
    code = (await outbox())
      .filter((m) => m.id > before)
      .map((m) => /\b(\d{6})\b/.exec(m.body)?.[1])
      .find(Boolean);
    expect(code).toBeTruthy();
  }).toPass({ timeout: 10_000 });
  return code!;
}

/** Runs the back-office command a person would type: `npm run admin -- <args>` against this app's upstream. */
export async function adminCommand(...args: string[]): Promise<string> {
  const { execFile } = await import('node:child_process');
  const { promisify } = await import('node:util');
  const { stdout } = await promisify(execFile)(process.execPath, ['--import', 'tsx', 'upstream/admin.ts', ...args], {
    env: { ...process.env, DATA_DIR: dataDir() },
  });
  return stdout;
}

export const setSetting = (key: string, value: string) => admin('POST', '/admin/setting', { key, value });
export const forceMarket = (code: string, status: 'open' | 'closed' | 'auto') => admin('POST', '/admin/market', { code, status });
export const setPrice = (code: string, price: string) => admin('POST', '/admin/price', { code, price });

/** A unique e-mail address for one test. */
export function uniqueEmail(tag = 'user'): string {
  return `${tag}-${Date.now()}-${Math.floor(Math.random() * 1e6)}@example.com`;
}

/** Opens a demo account from the login page, the way a visitor does. */
export async function openDemo(page: Page) {
  await page.goto('/login');
  await page.getByRole('button', { name: 'Open a demo account' }).click();
  await expect(page.getByText('Your demo account is ready.')).toBeVisible();
}

/** The app's language for this test (the `lng` cookie the language picker sets). */
export async function chooseLanguage(page: Page, lng: string) {
  await page.goto(`/language?lng=${lng}&redirectTo=/`);
}

/** Collects CSP violations reported in the console; assert it stays empty. */
export function watchCsp(page: Page): string[] {
  const violations: string[] = [];
  page.on('console', (m) => {
    if (/Content Security Policy|Refused to (load|execute|apply)/i.test(m.text())) violations.push(m.text());
  });
  return violations;
}

/** The back office's list of deposits (newest first), optionally only those waiting for review or of one user. */
export async function depositsOf(email: string): Promise<{ id: number; number: number; status: number; type: number; remark: string }[]> {
  const { deposits } = (await admin('GET', `/admin/deposits?user=${encodeURIComponent(email)}`)) as {
    deposits: { id: number; number: number; status: number; type: number; remark: string }[];
  };
  return deposits;
}
/** The back office's list of withdrawals (newest first) of one user. */
export async function withdrawalsOf(email: string): Promise<{ id: number; number: number; fee: number; status: number; remark: string }[]> {
  const { withdrawals } = (await admin('GET', `/admin/withdrawals?user=${encodeURIComponent(email)}`)) as {
    withdrawals: { id: number; number: number; fee: number; status: number; remark: string }[];
  };
  return withdrawals;
}

/**
 * A real account, registered straight at the upstream (the register screen is not what these tests are
 * about), then logged in through the login page (in English). Returns its e-mail.
 */
export async function logInRealAccount(page: Page, tag = 'real'): Promise<string> {
  const email = await registerRealAccount(tag);
  await page.goto('/login');
  await page.getByLabel('E-mail').fill(email);
  await page.getByLabel('Password').fill(REAL_PASSWORD);
  await page.getByRole('button', { name: 'Log in' }).click();
  await expect(page.getByText('Welcome back.')).toBeVisible();
  return email;
}

/**
 * A call straight to the upstream as a trader, with the token of a log-in of their own (what a second device of theirs
 * would do); its envelope's code must be 1. Returns the envelope's data.
 */
export async function traderCall(method: 'GET' | 'POST', urlPath: string, body: Record<string, unknown>, token?: string): Promise<unknown> {
  const url = new URL(urlPath, upstreamUrl());
  if (method === 'GET') for (const [k, v] of Object.entries(body)) url.searchParams.set(k, String(v));
  const res = await fetch(url, {
    method,
    headers: {
      ...(token ? { authorization: `Bearer ${token}` } : {}),
      ...(method === 'POST' ? { 'content-type': 'application/json' } : {}),
    },
    body: method === 'POST' ? JSON.stringify(body) : undefined,
  });
  const envelope = (await res.json()) as { code: number; msg: string; data: unknown };
  expect(envelope.code, `${urlPath}: ${envelope.msg}`).toBe(1);
  return envelope.data;
}

/** The password of every account made by registerRealAccount. */
export const REAL_PASSWORD = 'secret-123';

/** A real account registered straight at the upstream; returns its e-mail (password REAL_PASSWORD). */
export async function registerRealAccount(tag = 'real', call: AdminCall = admin): Promise<string> {
  const email = uniqueEmail(tag);
  const password = REAL_PASSWORD;
  await call('POST', '/api/notify/send_email', { to: email, type: 1 });
  const registered = (await call('POST', '/api/user/register', {
    type: 1,
    account: email,
    password,
    re_password: password,
    sms_code: await latestCode(email, call),
  })) as {
    code: number;
  };
  expect(registered.code).toBe(1);
  return email;
}

/** The value of one figure in the order's detail popup, found by its row header. */
export function fact(page: Page, label: string) {
  return page
    .getByRole('dialog')
    .getByRole('row', { name: new RegExp(`^${label} `) })
    .getByRole('cell');
}

/**
 * Confirms the order the ticket asks about: with one-tap trading off (the default, /mine/system) "Buy up" and
 * "Buy low" open a confirmation first, whose "Place order" sends it.
 */
export async function confirmOrder(page: Page) {
  const confirmation = page.getByRole('dialog', { name: 'Confirm your order' });
  await expect(confirmation).toBeVisible();
  await confirmation.getByRole('button', { name: 'Place order' }).click();
}

/**
 * The trade screen is hydrated, its ticket's code has taken the server's ticket's place, and the ticket's checks
 * are there (both come after the page: routes/trade/route.tsx, components/late-checks). Before that, the ticket is
 * the server's, which posts as without JavaScript; then one whose orders are checked by the action alone.
 */
export async function ticketReady(page: Page) {
  await expect(page.locator('html')).toHaveAttribute('data-hydrated', 'true');
  await expect(page.locator('form.order-form[data-live="checked"]')).toHaveCount(1);
}

/** Places an order of EUR/USD (a buy of 0.01 lot unless told) on the trade screen and returns its number. */
export async function placeOrder(
  page: Page,
  options: { targetPrice?: string; takeProfit?: string; lots?: string; side?: 'buy' | 'sell' } = {},
): Promise<string> {
  await page.goto('/trade?code=EURUSD');
  // With JavaScript, type only once the ticket's code is there and the buttons follow the live feed.
  if (test.info().project.name === 'js-on') await ticketReady(page);
  const ticket = page.getByRole('form', { name: 'Place an order' });
  if (options.targetPrice) {
    await ticket.getByRole('radio', { name: 'Pending order' }).check();
    await ticket.getByRole('spinbutton', { name: 'Target price' }).fill(options.targetPrice);
  } else {
    await ticket.getByRole('radio', { name: 'Market price' }).check();
  }
  await ticket.getByRole('spinbutton', { name: 'Lots', exact: true }).fill(options.lots ?? '0.01');
  if (options.takeProfit) await ticket.getByRole('spinbutton', { name: 'Take profit' }).fill(options.takeProfit);
  await ticket.getByRole('button', { name: options.side === 'sell' ? 'Buy low' : 'Buy up' }).click();
  await confirmOrder(page);
  const placed = page.getByRole('dialog', { name: 'Your order has been confirmed' });
  await expect(placed).toBeVisible();
  const id = /(\d+)/.exec(await placed.getByText(/Order number/).innerText())?.[1];
  expect(id).toBeTruthy();
  return id!;
}

/**
 * Goes to a list's next page as its reader does: without JavaScript by following the "Next page" link; with it by
 * scrolling the link into view, which loads the next page in place (the link may then be gone already: a click
 * on it would wait for a link that no longer exists).
 */
export async function nextListPage(page: Page, javaScriptEnabled: boolean) {
  // (Called once the first page is shown: the link is there, or already gone after loading by itself.)
  if (!javaScriptEnabled) return page.getByRole('link', { name: 'Next page' }).click();
  await page.evaluate(() => document.querySelector('a.next-page')?.scrollIntoView({ block: 'center' }));
}

/**
 * Passes a step-up (issue 38) as an account without an authenticator: on the "Confirm it's you" page, sends a code to
 * the account's e-mail, types it from the outbox, then taps `finish` in the confirmation back on the form's page.
 */
export async function passStepUp(page: Page, email: string, finish: string) {
  await expect(page.getByRole('heading', { name: "Confirm it's you" })).toBeVisible();
  await page.getByRole('button', { name: /^Send a code to / }).click();
  await expect(page.getByText(/^We sent a code to /)).toBeVisible();
  await page.getByLabel('Code you received').fill(await latestCode(email));
  await page.getByRole('button', { name: 'Confirm', exact: true }).click();
  await page.getByRole('dialog', { name: 'Confirmed' }).getByRole('button', { name: finish, exact: true }).click();
}

/** Today in London, YYYY-MM-DD, or `plusDays` from it (a statement's days are London days). */
export const londonToday = (plusDays = 0) =>
  new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/London' }).format(new Date(Date.now() + plusDays * 86_400_000));
