/**
 * Statements (issue 40), JavaScript on and off: the statement of a range of days from the account history, its
 * opening and closing balances with every line adding up; a range after the last movement opens at the balance
 * the ledger holds; the CSV files downloaded from it (BOM, CRLF, quoted fields) hold the same movements as the
 * statement and the same orders as the history list; in Arabic and Chinese, headers and text as the trader reads them.
 */
import { expect, test, type Page } from '@playwright/test';
import fs from 'node:fs';
import { admin, chooseLanguage, forceMarket, logInRealAccount, londonToday, REAL_PASSWORD, setPrice, traderCall } from './fixtures';

/** A call straight to the upstream as this trader: the envelope's data, as a record. */
const upstream = async (method: 'GET' | 'POST', path: string, body: Record<string, unknown>, token?: string) =>
  (await traderCall(method, path, body, token)) as Record<string, unknown>;

/** A trip of `lots` EUR/USD bought at 1.10000 and closed at `exit`. */
async function trip(token: string, lots: string, exit: string) {
  await setPrice('EURUSD', '1.10000');
  const list = (await upstream('GET', '/v1/api/forex/trade_list', {})) as unknown as { Id: number; Code: string }[];
  const forexId = list.find((i) => i.Code === 'EURUSD')!.Id;
  const order = await upstream('POST', '/v1/api/forex/submit', { type: 1, cont: lots, forex_id: forexId, status: 1, multiple: 100 }, token);
  await setPrice('EURUSD', exit);
  await upstream('POST', '/v1/api/forex/close', { id: order.Id }, token);
}

/** A figure as the page writes it (en: "+1,000.00", "-2.50") in micro-dollars, so sums are exact. */
const micro = (text: string) => {
  const n = text.replace(/[,\s]/g, '').replace('−', '-');
  expect(n).toMatch(/^[+-]?\d+(\.\d+)?$/);
  return Math.round(Number(n) * 1e6);
};

async function showStatement(page: Page, from: string, to: string) {
  const form = page.getByRole('form', { name: 'Period' });
  await form.getByLabel('From').fill(from);
  await form.getByLabel('To').fill(to);
  await form.getByRole('button', { name: 'Show statement' }).click();
  await expect(page).toHaveURL(new RegExp(`/mine/statement\\?from=${from}&to=${to}$`));
}

const table = (page: Page) => page.getByRole('table', { name: 'Statement' });
const balanceRow = (page: Page, name: string) => table(page).getByRole('row', { name: new RegExp(`^${name}`) });

/** Splits a CSV file by RFC 4180 (quoted fields may hold commas, quotes and line breaks). */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        field += '"';
        i++;
      } else if (c === '"') quoted = false;
      else field += c;
    } else if (c === '"') quoted = true;
    else if (c === ',') {
      row.push(field);
      field = '';
    } else if (c === '\r' && text[i + 1] === '\n') {
      row.push(field);
      rows.push(row);
      row = [];
      field = '';
      i++;
    } else field += c;
  }
  expect(field).toBe('');
  return rows;
}

async function download(page: Page, link: string): Promise<{ name: string; text: string }> {
  const [file] = await Promise.all([page.waitForEvent('download'), page.getByRole('link', { name: link }).click()]);
  const bytes = fs.readFileSync((await file.path())!);
  // UTF-8 with its byte order mark, records ended by CRLF.
  expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
  const text = new TextDecoder('utf-8', { ignoreBOM: true }).decode(bytes).slice(1);
  expect(text.endsWith('\r\n')).toBe(true);
  return { name: file.suggestedFilename(), text };
}

test.beforeEach(async ({ page }) => {
  await chooseLanguage(page, 'en');
  await forceMarket('EURUSD', 'open');
});
test.afterEach(async () => {
  await forceMarket('EURUSD', 'auto');
});

test('the statement of a range adds up from opening to closing, and its CSV files match it and the history list', async ({ page }) => {
  const email = await logInRealAccount(page, 'statement');
  const { token } = (await upstream('POST', '/api/user/loginForU', { account: email, password: REAL_PASSWORD })) as { token: string };
  // A memo with a comma, quotes and Chinese: the CSV must quote it and keep its characters.
  const memo = 'Wire in, ref "A-1" 入金';
  await admin('POST', '/admin/balance', { user: email, amount: '1000', memo });
  await trip(token, '0.5', '1.10120');
  await trip(token, '0.1', '1.09910');
  await admin('POST', '/admin/balance', { user: email, amount: '-100.5', memo: 'Paid out' });
  const { balance } = (await upstream('GET', '/v1/api/main/wallet/getBalance', {}, token)) as { balance: number };

  await page.goto('/mine/history');
  await page.getByRole('link', { name: 'Statement and CSV downloads' }).click();
  await expect(page.getByRole('heading', { name: 'Statement' })).toBeVisible();
  const today = londonToday();
  await showStatement(page, today, today);

  // A new account: nothing before today, so it opens at 0 and closes at the ledger's balance now.
  await expect(balanceRow(page, 'Opening balance')).toContainText('0.00');
  const opening = micro(await balanceRow(page, 'Opening balance').getByRole('cell').last().innerText());
  const closing = micro(await balanceRow(page, 'Closing balance').getByRole('cell').last().innerText());
  expect(opening).toBe(0);
  expect(closing).toBe(Math.round(balance * 1e6));
  // Every line, by type: the sum of the lines is closing − opening, and each group's total is its lines' sum.
  const amounts = await table(page).locator('tr.line td.amount').allInnerTexts();
  // A deposit, four movements per trip, a withdrawal by the back office.
  expect(amounts.length).toBe(10);
  expect(opening + amounts.map(micro).reduce((a, b) => a + b, 0)).toBe(closing);
  const groups = table(page).locator('tbody[data-type]');
  for (let i = 0; i < (await groups.count()); i++) {
    const lines = (await groups.nth(i).locator('tr.line td.amount').allInnerTexts()).map(micro);
    const total = micro(await groups.nth(i).locator('tr.subtotal td.num').innerText());
    expect(total).toBe(lines.reduce((a, b) => a + b, 0));
  }
  for (const name of ['Adjustment', 'Realised profit', 'Handling fee', 'Margin held', 'Margin released']) {
    await expect(table(page).getByRole('rowheader', { name, exact: false }).first()).toBeVisible();
  }
  await expect(table(page)).toContainText(memo);
  // On paper: the statement and its totals, without the form, the links or the app's menus.
  await page.emulateMedia({ media: 'print' });
  await expect(page.getByRole('form', { name: 'Period' })).toBeHidden();
  await expect(page.getByRole('link', { name: 'Closed orders (CSV)' })).toBeHidden();
  for (const nav of await page.getByRole('navigation').all()) await expect(nav).toBeHidden();
  await expect(balanceRow(page, 'Closing balance')).toBeVisible();
  await page.emulateMedia({ media: 'screen' });

  // The account CSV: a header in English and the statement's lines, oldest first.
  const account = await download(page, 'Account movements (CSV)');
  expect(account.name).toBe(`lotfx-account-${today}-${today}.csv`);
  const accountRows = parseCsv(account.text);
  expect(accountRows[0]).toEqual(['Time (London)', 'Type', 'Details', 'Amount (USD)', 'Balance after (USD)', 'Order']);
  expect(accountRows.length).toBe(11);
  expect(accountRows[1]![2]).toBe(memo);
  expect(account.text).toContain('"Wire in, ref ""A-1"" 入金"');
  expect(
    accountRows
      .slice(1)
      .map((r) => micro(r[3]!))
      .sort(),
  ).toEqual(amounts.map(micro).sort());
  expect(micro(accountRows.at(-1)![4]!)).toBe(closing);

  // Sent as a download that no cache keeps.
  const head = await page.request.get(`/mine/statement/account.csv?from=${today}&to=${today}`);
  expect(head.headers()['content-type']).toBe('text/csv; charset=utf-8');
  expect(head.headers()['content-disposition']).toBe(`attachment; filename="lotfx-account-${today}-${today}.csv"`);
  expect(head.headers()['cache-control']).toBe('private, no-store');

  // The orders CSV: the same orders as the history list (newest first there, oldest first in the file).
  const orders = await download(page, 'Closed orders (CSV)');
  const orderRows = parseCsv(orders.text);
  expect(orderRows[0]!.slice(0, 4)).toEqual(['Order', 'Instrument', 'Direction', 'Lots']);
  const fileOrders = orderRows.slice(1).reverse();
  await page.goto('/order?type=3');
  const history = page.getByRole('list', { name: 'History' }).getByRole('listitem');
  await expect(history).toHaveCount(2);
  expect(fileOrders.length).toBe(2);
  for (let i = 0; i < 2; i++) {
    const row = fileOrders[i]!;
    await expect(history.nth(i)).toContainText(row[1]!);
    await expect(history.nth(i)).toContainText(`${row[3]} lots`);
    await expect(history.nth(i)).toContainText(row[5]!);
    await expect(history.nth(i)).toContainText(row[6]!);
    expect(micro(await history.nth(i).getByTestId('profit').innerText())).toBe(micro(row.at(-1)!));
  }
});

test('a range after the last movement opens at the balance the ledger holds, with no lines', async ({ page }) => {
  const email = await logInRealAccount(page, 'statement-later');
  await admin('POST', '/admin/balance', { user: email, amount: '250.125', memo: 'Funding' });
  await page.goto('/mine/statement');
  const tomorrow = londonToday(1);
  await showStatement(page, tomorrow, tomorrow);
  await expect(balanceRow(page, 'Opening balance')).toContainText('250.125');
  await expect(balanceRow(page, 'Closing balance')).toContainText('250.125');
  await expect(table(page).getByText('No movements in this period.')).toBeVisible();
});

test('statements and their files are for signed-in traders only @http', async ({ page, request }) => {
  await page.goto('/mine/statement');
  await expect(page).toHaveURL(/\/login\?from=%2Fmine%2Fstatement$/);
  const res = await request.get('/mine/statement/account.csv', { maxRedirects: 0 });
  expect(res.status()).toBe(302);
  expect(res.headers()['content-type'] ?? '').not.toContain('text/csv');
});

for (const [lng, title, timeHeader, link] of [
  ['ar', 'كشف الحساب', 'الوقت (لندن)', 'حركات الحساب (CSV)'],
  ['hk', '結單', '時間（倫敦）', '賬戶變動（CSV）'],
] as const) {
  test(`${lng}: the statement and its CSV in the trader's language`, async ({ page }) => {
    const email = await logInRealAccount(page, `statement-${lng}`);
    await admin('POST', '/admin/balance', { user: email, amount: '12.5', memo: 'إيداع 入金' });
    await chooseLanguage(page, lng);
    await page.goto('/mine/statement');
    await expect(page.getByRole('heading', { name: title })).toBeVisible();
    await expect(page.locator('html')).toHaveAttribute('dir', lng === 'ar' ? 'rtl' : 'ltr');
    const { text } = await download(page, link);
    const rows = parseCsv(text);
    expect(rows[0]![0]).toBe(timeHeader);
    expect(rows[1]!.slice(2, 5)).toEqual(['إيداع 入金', '12.50', '12.50']);
  });
}
