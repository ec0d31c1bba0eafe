import { expect, test, type Page } from '@playwright/test';
import { marginMicro } from '../../contract/arithmetic';
import { MarginMode } from '../../contract/enums';
import { money, parseUnits } from '../../contract/money';
import { adminCommand, chooseLanguage, confirmOrder, forceMarket, openDemo, setPrice, watchCsp, ticketReady } from './fixtures';

/** EUR/USD as the upstream seeds it: 5 decimals, 100,000 units a lot, 5 USD a lot in fees. */
const EURUSD = { precision: 5, contractSize: 100_000, marginMode: MarginMode.Leverage, feeRateMicro: 5_000_000 };

const amount = (micro: number) =>
  new Intl.NumberFormat('en', { minimumFractionDigits: 2, maximumFractionDigits: 6 }).format(money.toNumber(micro));

test.beforeEach(async () => {
  await forceMarket('EURUSD', 'open');
  await setPrice('EURUSD', '1.10000');
});

test.afterAll(async () => {
  await forceMarket('EURUSD', 'auto');
});

async function openTrade(page: Page, query = 'code=EURUSD') {
  await page.goto(`/trade?${query}`);
  await expect(page.getByRole('heading', { level: 1 })).toContainText('EUR/USD');
  // With JavaScript, wait for hydration: before it the buttons are the server's; right after it they
  // wait for the live feed, and a tap in between would land on a button that just became disabled.
  if (test.info().project.name === 'js-on') await ticketReady(page);
}

/** The estimates shown match contract/arithmetic for the lots and leverage at the price shown beside them. */
async function expectEstimates(page: Page, lotsMilli: number, leverage: number, fee: string) {
  await expect(page.getByText('Estimated margin')).toBeVisible();
  await expect(page.getByText('Estimated handling fee')).toBeVisible();
  await expect(page.getByTestId('estimated-fee')).toHaveText(`${fee} USD`);
  // The price may move between two reads: read the price and the margin again until they agree.
  await expect(async () => {
    const shown = (await page.getByTestId('best-price').innerText()).replace(/,/g, '');
    const price = parseUnits(shown, EURUSD.precision);
    expect(price).not.toBeNull();
    const margin = marginMicro(EURUSD, lotsMilli, price!, leverage);
    expect(await page.getByTestId('estimated-margin').innerText()).toBe(`${amount(margin)} USD`);
  }).toPass({ timeout: 10_000 });
}

async function chooseLeverage(page: Page, value: string, javaScriptEnabled: boolean) {
  await page.getByRole('combobox', { name: 'Leverage' }).selectOption(value);
  // Without JavaScript the server recalculates on request.
  if (!javaScriptEnabled) await page.getByRole('button', { name: 'Update estimates' }).click();
  await expect(page.getByRole('combobox', { name: 'Leverage' })).toHaveValue(value);
}

test('a visitor who presses "Buy up" is sent to log in and back to this product', async ({ page }) => {
  const csp = watchCsp(page);
  await chooseLanguage(page, 'en');
  await openTrade(page);
  await page.getByRole('button', { name: 'Buy up (long)', exact: true }).click();
  await expect(page).toHaveURL(/\/login\?/);
  expect(new URL(page.url()).searchParams.get('from')).toBe('/trade?code=EURUSD');
  await expect(page.getByRole('button', { name: 'Log in' })).toBeVisible();
  expect(csp).toEqual([]);
});

test('the estimates follow the lots and leverage; a market "Buy up" is confirmed', async ({ page, javaScriptEnabled }) => {
  const csp = watchCsp(page);
  await chooseLanguage(page, 'en');
  await openDemo(page);
  await openTrade(page);
  await expect(page.getByRole('spinbutton', { name: 'Lots' })).toHaveValue('0.01');
  await expect(page.getByRole('button', { name: 'Fewer lots' })).toBeDisabled();
  await chooseLeverage(page, '100', javaScriptEnabled);
  await expect(page.getByTestId('best-price')).toHaveText(/^1\.\d{5}$/);
  await expectEstimates(page, 10, 100, '0.05');
  // 0.01 lot of 100,000 at about 1.10000 with 1:100 is about 11 USD.
  expect(Number((await page.getByTestId('estimated-margin').innerText()).replace(/[^\d.]/g, ''))).toBeCloseTo(11, 1);

  await page.getByRole('button', { name: 'More lots' }).click();
  await expect(page.getByRole('spinbutton', { name: 'Lots' })).toHaveValue('0.02');
  await expect(page.getByRole('combobox', { name: 'Leverage' })).toHaveValue('100');
  await expect(page.getByRole('button', { name: 'Fewer lots' })).toBeEnabled();
  await expectEstimates(page, 20, 100, '0.10');

  await page.getByRole('button', { name: 'Buy up (long)', exact: true }).click();
  await confirmOrder(page);
  const popup = page.getByRole('dialog', { name: 'Your order has been confirmed' });
  await expect(popup).toBeVisible();
  await expect(page).toHaveURL(/placed=\d+/);
  await expect(popup.getByRole('link', { name: 'View orders' })).toHaveAttribute('href', '/order?type=1');
  await popup.getByRole('link', { name: 'Close' }).click();
  await expect(page.getByRole('dialog')).toHaveCount(0);
  await expect(page).toHaveURL(/\/trade\?code=EURUSD$/);
  expect(csp).toEqual([]);
});

test('a pending order at a target price is confirmed', async ({ page }) => {
  const csp = watchCsp(page);
  await chooseLanguage(page, 'en');
  await openDemo(page);
  await openTrade(page);
  // The target price is there only for a pending order, with or without JavaScript.
  await expect(page.getByRole('spinbutton', { name: 'Target price' })).toBeHidden();
  await page.getByRole('radio', { name: 'Pending order' }).check();
  await page.getByRole('spinbutton', { name: 'Target price' }).fill('1.05000');
  await page.getByRole('button', { name: 'Buy low (short)', exact: true }).click();
  await confirmOrder(page);
  await expect(page.getByRole('dialog', { name: 'Your order has been confirmed' })).toBeVisible();
  expect(csp).toEqual([]);
});

test('a pending order without a target price is refused next to the field', async ({ page }) => {
  await chooseLanguage(page, 'en');
  await openDemo(page);
  await openTrade(page);
  await page.getByRole('radio', { name: 'Pending order' }).check();
  await page.getByRole('button', { name: 'Buy up (long)', exact: true }).click();
  await expect(page.getByRole('spinbutton', { name: 'Target price' })).toHaveAccessibleDescription(
    'Please enter a target price for a pending order.',
  );
  await expect(page.getByRole('dialog')).toHaveCount(0);
});

test("a take profit below the price of a buy shows the upstream's message and keeps what was typed", async ({ page }) => {
  const csp = watchCsp(page);
  await chooseLanguage(page, 'en');
  await openDemo(page);
  await openTrade(page);
  await page.getByRole('spinbutton', { name: 'Lots' }).fill('0.03');
  await page.getByRole('spinbutton', { name: 'Take profit' }).fill('1.00000');
  await page.getByRole('button', { name: 'Buy up (long)', exact: true }).click();
  await confirmOrder(page);
  await expect(page.getByRole('alert')).toHaveText('The take-profit price is on the wrong side of the price.');
  await expect(page.getByRole('spinbutton', { name: 'Lots' })).toHaveValue('0.03');
  await expect(page.getByRole('spinbutton', { name: 'Take profit' })).toHaveValue('1.00000');
  await expect(page.getByRole('dialog')).toHaveCount(0);
  // Corrected, the same form places the order.
  await page.getByRole('spinbutton', { name: 'Take profit' }).fill('');
  await page.getByRole('button', { name: 'Buy up (long)', exact: true }).click();
  await confirmOrder(page);
  await expect(page.getByRole('dialog', { name: 'Your order has been confirmed' })).toBeVisible();
  expect(csp).toEqual([]);
});

test('lots that are not a whole number of steps are refused in the form', async ({ page }) => {
  await chooseLanguage(page, 'en');
  await openDemo(page);
  await openTrade(page);
  await page.getByRole('spinbutton', { name: 'Lots' }).fill('0.015');
  await page.getByRole('button', { name: 'Buy up (long)', exact: true }).click();
  await expect(page.getByRole('spinbutton', { name: 'Lots' })).toHaveAccessibleDescription('The lots must be a whole number of steps.');
  await expect(page.getByRole('spinbutton', { name: 'Lots' })).toHaveValue('0.015');
  await expect(page.getByRole('dialog')).toHaveCount(0);
});

test('with JavaScript the ticket checks a field as it is left, without asking the server', async ({ page }) => {
  test.skip(test.info().project.name !== 'js-on', 'the checks in the browser need JavaScript');
  await chooseLanguage(page, 'en');
  await openDemo(page);
  const posts: string[] = [];
  page.on('request', (request) => void (request.method() === 'POST' && posts.push(request.url())));
  // The checks (zod) load once the page is up, apart from its first script (decision 0028).
  const checks = page.waitForResponse((response) => /\/assets\/schema-[\w-]+\.js$/.test(response.url()));
  await openTrade(page);
  await checks;
  const lots = page.getByRole('spinbutton', { name: 'Lots' });
  await expect(async () => {
    await lots.fill('0.015');
    await lots.blur();
    await expect(lots).toHaveAccessibleDescription('The lots must be a whole number of steps.', { timeout: 500 });
  }).toPass({ timeout: 5_000 });
  await lots.fill('0.02');
  await expect(lots).not.toHaveAccessibleDescription('The lots must be a whole number of steps.');
  expect(posts).toEqual([]);
});

test('a form sent twice places one order', async ({ page, baseURL }) => {
  await chooseLanguage(page, 'en');
  await openDemo(page);
  await openTrade(page);
  const form = page.getByRole('form', { name: 'Place an order' });
  const field = (name: string) => form.locator(`input[type="hidden"][name="${name}"]`).getAttribute('value');
  const body = {
    csrf: (await field('csrf'))!,
    forex_id: (await field('forex_id'))!,
    code: 'EURUSD',
    idempotency_key: (await field('idempotency_key'))!,
    entry: '1',
    lots: '0.01',
    leverage: '10',
    side: '1',
    // Confirmed, as the ticket's confirmation sends it (one-tap trading off).
    confirmed: '1',
  };
  const send = () => page.request.post('/trade?code=EURUSD', { form: body, headers: { origin: baseURL! }, maxRedirects: 0 });
  const [first, second] = [await send(), await send()];
  expect(first.status()).toBe(302);
  expect(second.status()).toBe(302);
  expect(first.headers().location).toMatch(/^\/trade\?code=EURUSD&placed=\d+$/);
  expect(second.headers().location).toBe(first.headers().location);
});

test('a market forced closed with the admin command says so and both buttons are disabled', async ({ page }) => {
  const csp = watchCsp(page);
  await chooseLanguage(page, 'en');
  expect(await adminCommand('market', 'EURUSD', 'closed')).toContain('EURUSD: closed');
  try {
    await openTrade(page);
    await expect(page.getByText('The market is closed')).toBeVisible();
    await expect(page.getByRole('button', { name: 'Buy up (long)', exact: true })).toBeDisabled();
    await expect(page.getByRole('button', { name: 'Buy low (short)', exact: true })).toBeDisabled();
    // The market list is a shared page kept for a second (decision 0038): closed within that second.
    await expect(async () => {
      await page.goto('/');
      await expect(page.getByRole('listitem', { name: 'EUR/USD' }).getByTestId('change')).toHaveText('Closed', { timeout: 500 });
    }).toPass({ timeout: 5000 });
  } finally {
    await forceMarket('EURUSD', 'open');
  }
  await openTrade(page);
  await expect(page.getByText('The market is closed')).toHaveCount(0);
  expect(csp).toEqual([]);
});

test('the period bar switches the chart period', async ({ page }) => {
  const csp = watchCsp(page);
  await chooseLanguage(page, 'en');
  await openTrade(page);
  const periods = page.getByRole('navigation', { name: 'Chart period' });
  const period = (name: string) => periods.getByRole('link', { name, exact: true });
  await expect(period('15M')).toHaveAttribute('aria-current', 'page');
  await period('5M').click();
  await expect(page).toHaveURL(/period=5min/);
  await expect(period('5M')).toHaveAttribute('aria-current', 'page');
  await expect(period('15M')).not.toHaveAttribute('aria-current', 'page');
  await expect(page.getByRole('heading', { level: 1 })).toContainText('EUR/USD');
  expect(csp).toEqual([]);
});

test('the drawer lists every product and picks one, which the screen then remembers', async ({ page }) => {
  const csp = watchCsp(page);
  await chooseLanguage(page, 'en');
  await openTrade(page);
  await page.getByRole('link', { name: /EUR\/USD/ }).click();
  const drawer = page.getByRole('dialog', { name: 'Products' });
  await expect(drawer).toBeVisible();
  // Without JavaScript the drawer is a page that may still be arriving: wait for the whole list.
  await expect.poll(() => drawer.getByRole('listitem').count()).toBeGreaterThanOrEqual(20);
  await drawer.getByRole('link', { name: /GBP\/USD/ }).click();
  await expect(page).toHaveURL(/code=GBPUSD/);
  await expect(page.getByRole('dialog')).toHaveCount(0);
  await expect(page.getByRole('heading', { level: 1 })).toContainText('GBP/USD');
  await page.goto('/trade');
  await expect(page.getByRole('heading', { level: 1 })).toContainText('GBP/USD');
  expect(csp).toEqual([]);
});

test('a product with no leverage configured says so and cannot be ordered', async ({ page }) => {
  // Two waits of up to the catalogue's few seconds (below), on top of the page loads.
  test.slow();
  const csp = watchCsp(page);
  await chooseLanguage(page, 'en');
  await openDemo(page);
  const notConfigured = page.getByText('Leverage is not configured, so orders cannot be placed.');
  // The product rules are the catalogue of a few seconds ago (docs/decisions/0009): a trader who reloads sees the change.
  const reloadUntil = (shown: boolean) =>
    expect(async () => {
      await page.goto('/trade?code=ETHUSD');
      await expect(notConfigured).toHaveCount(shown ? 1 : 0, { timeout: 500 });
    }).toPass({ timeout: 15_000 });
  expect(await adminCommand('leverage', 'ETHUSD')).toContain('ETHUSD: no leverage (orders disabled)');
  try {
    await reloadUntil(true);
    await expect(page.getByRole('button', { name: 'Buy up (long)', exact: true })).toBeDisabled();
    await expect(page.getByRole('button', { name: 'Buy low (short)', exact: true })).toBeDisabled();
  } finally {
    await adminCommand('leverage', 'ETHUSD', '2,5,10,20');
  }
  await reloadUntil(false);
  expect(csp).toEqual([]);
});
