/**
 * What a cheap phone's first seconds on a page cost (issue 12): hydration formats every price the server
 * already wrote, and a page's first `new Intl.NumberFormat` costs tens of milliseconds of ICU start-up in
 * one task. The page carries its language's number symbols instead; these tests see that hydration and the
 * live prices after it never start Intl's number formatting, and that the numbers still read as the
 * language writes them (and as the server wrote them: no hydration error). And a first visit spends the
 * slow network on what it shows: the closed drawer's flags are not fetched.
 */
import { devices, expect, test, type Page } from '@playwright/test';
import { chooseLanguage, forceMarket, openDemo, placeOrder, watchCsp } from './fixtures';
import { reachForChart } from './chart-fixtures';

test.afterEach(async () => {
  await forceMarket('EURUSD', 'auto');
});

/** Counts Intl number and date formatters made, and collects errors (a hydration mismatch is reported as one). */
async function watchStartup(page: Page) {
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  page.on('console', (m) => {
    if (m.type() === 'error') errors.push(m.text());
  });
  await page.addInitScript(() => {
    const w = window as unknown as { formatters: Record<string, number> };
    w.formatters = { NumberFormat: 0, DateTimeFormat: 0 };
    for (const name of ['NumberFormat', 'DateTimeFormat'] as const) {
      const Original = Intl[name];
      (Intl as Record<string, unknown>)[name] = new Proxy(Original, {
        construct(target, args) {
          w.formatters[name]! += 1;
          return Reflect.construct(target, args) as object;
        },
        apply(target, self, args) {
          w.formatters[name]! += 1;
          return Reflect.apply(target, self, args) as unknown;
        },
      });
    }
  });
  const formatters = () => page.evaluate(() => (window as unknown as { formatters: Record<string, number> }).formatters);
  return {
    errors,
    numberFormats: async () => (await formatters()).NumberFormat,
    dateFormats: async () => (await formatters()).DateTimeFormat,
  };
}

for (const { lng, decimal } of [
  { lng: 'de', decimal: ',' },
  { lng: 'ru', decimal: ',' },
  { lng: 'ar', decimal: '.' },
]) {
  test(`in ${lng}, hydration, live prices and the chart start no Intl formatter and write the language's numbers`, async ({ page }) => {
    await forceMarket('EURUSD', 'open');
    await chooseLanguage(page, lng);
    const watch = await watchStartup(page);
    for (const path of ['/', '/trade?code=EURUSD']) {
      await page.goto(path);
      await expect(page.locator('html')).toHaveAttribute('data-hydrated', 'true');
      const price = path === '/' ? page.getByTestId('price').first() : page.getByTestId('trade-price');
      const first = await price.innerText();
      // A live tick is formatted in the browser: it moves and keeps the language's decimal separator.
      await expect(price).not.toHaveText(first, { timeout: 15_000 });
      expect(await price.innerText()).toContain(decimal);
      // Reached for, the canvas chart mounts and labels its axis (London time, no Intl date formatter either).
      if (path !== '/') await reachForChart(page, page.locator('.candle-chart'));
      // Each page is a new document with its own counts.
      expect(await watch.numberFormats()).toBe(0);
      expect(await watch.dateFormats()).toBe(0);
    }
    expect(watch.errors).toEqual([]);
  });
}

// Node's ICU writes "25/11/2026 下午3:46:04" in Traditional Chinese with a thin space where Chromium's writes a
// plain one: formatted in the browser, the orders' times differed from the server's and React redrew the page.
for (const lng of ['hk', 'ar']) {
  test(`in ${lng}, the orders' times hydrate as the server wrote them, with no Intl date formatter`, async ({ page }) => {
    await forceMarket('EURUSD', 'open');
    await chooseLanguage(page, 'en');
    await openDemo(page);
    await placeOrder(page);
    await placeOrder(page, { targetPrice: '0.5' });
    await chooseLanguage(page, lng);
    const watch = await watchStartup(page);
    for (const path of ['/order', '/order?type=0']) {
      const served = await (await page.request.get(path)).text();
      await page.goto(path);
      await expect(page.locator('html')).toHaveAttribute('data-hydrated', 'true');
      const time = page.locator('time.order-time').first();
      const iso = await time.getAttribute('datetime');
      const serverText = new RegExp(`<time class="order-time muted" datetime="${iso}">([^<]+)</time>`, 'i').exec(served)?.[1];
      expect(serverText).toBeTruthy();
      await expect(time).toHaveText(serverText!);
      expect(await watch.dateFormats()).toBe(0);
    }
    expect(watch.errors).toEqual([]);
  });
}

/**
 * Holds back the script chunk named `name` (a slow network, which the real server cannot be made to be) until the
 * returned `deliver()` lets it come; `deliver()` resolves when it has arrived.
 */
async function holdChunk(page: Page, name: string) {
  const pattern = new RegExp(`/assets/${name}-[\\w-]+\\.js$`);
  let release = () => {};
  const held = new Promise<void>((resolve) => (release = resolve));
  await page.route(pattern, async (route) => {
    await held;
    await route.continue();
  });
  return async function deliver() {
    const arrived = page.waitForResponse(pattern);
    release();
    await arrived;
  };
}

/** `/` in English, hydrated, with the drawer's code held back until `deliverDrawerCode()` lets it come. */
async function openHomeWithDrawerCodeHeld(page: Page) {
  await chooseLanguage(page, 'en');
  const deliverDrawerCode = await holdChunk(page, 'side-drawer');
  const watch = await watchStartup(page);
  await page.goto('/');
  await expect(page.locator('html')).toHaveAttribute('data-hydrated', 'true');
  return { watch, deliverDrawerCode };
}

// The drawer's code comes after hydration (components/hydrate-later); here it is held back (a slow network,
// which the real server cannot be made to be) so that the trader opens the server's drawer before it arrives.
test('a drawer opened before its code arrives stays open and works when the code comes', async ({ page }) => {
  const { watch, deliverDrawerCode } = await openHomeWithDrawerCodeHeld(page);
  await page.getByLabel('Open menu').click();
  const menu = page.getByRole('navigation', { name: 'Menu' });
  await expect(menu).toBeVisible();
  await deliverDrawerCode();
  await page.waitForTimeout(300); // the code is evaluated and the page idle: the drawer must still be open
  await expect(menu).toBeVisible();
  await menu.getByRole('button', { name: 'Deutsch' }).click();
  await expect(page.locator('html')).toHaveAttribute('lang', 'de');
  expect(watch.errors).toEqual([]);
});

// Safari does not focus what a finger presses, so a press held on the server's drawer while its code arrives must
// keep that markup in place: swapped under the finger, the release lands on new markup and no click follows.
// Chromium focuses on press, so the press is simulated as Safari makes it: a pointerdown, no focus.
test('a press held on the drawer while its code arrives keeps the markup under the finger until released', async ({ page }) => {
  const { watch, deliverDrawerCode } = await openHomeWithDrawerCodeHeld(page);
  const opener = page.getByLabel('Open menu');
  await opener.evaluate((summary) => summary.setAttribute('data-pressed-markup', ''));
  await opener.dispatchEvent('pointerdown', { pointerId: 1, isPrimary: true });
  // A right-click is no tap: its release (after the context menu) may never come, and it holds nothing.
  await opener.dispatchEvent('pointerdown', { pointerId: 3, isPrimary: false, button: 2, buttons: 2 });
  await deliverDrawerCode();
  await page.waitForTimeout(300); // the code is evaluated and the page idle: the pressed markup must still be there
  await expect(page.locator('[data-pressed-markup]')).toHaveCount(1);
  // A second finger's tap ends only its own press (the swap looks again 500 ms after a release).
  await opener.dispatchEvent('pointerdown', { pointerId: 2, isPrimary: false });
  await opener.dispatchEvent('pointerup', { pointerId: 2, isPrimary: false });
  await page.waitForTimeout(800);
  await expect(page.locator('[data-pressed-markup]')).toHaveCount(1);
  // Released: the code's drawer takes the place of the server's, and it opens and works.
  await opener.dispatchEvent('pointerup', { pointerId: 1, isPrimary: true });
  await expect(page.locator('[data-pressed-markup]')).toHaveCount(0);
  await opener.click();
  const menu = page.getByRole('navigation', { name: 'Menu' });
  await expect(menu).toBeVisible();
  await menu.getByRole('button', { name: 'Deutsch' }).click();
  await expect(page.locator('html')).toHaveAttribute('lang', 'de');
  expect(watch.errors).toEqual([]);
});

test("the page's code starts downloading while the page is read: every module preload is allowed by the CSP and used", async ({
  browser,
  baseURL,
}) => {
  for (const path of ['/', '/login', '/trade?code=EURUSD']) {
    // A first visit each time, in the default language: nothing in the browser's cache from a page before.
    const context = await browser.newContext({ baseURL });
    const page = await context.newPage();
    const csp = watchCsp(page);
    await page.goto(path);
    await expect(page.locator('html')).toHaveAttribute('data-hydrated', 'true');
    // The tags as the server writes them (React removes them once the page is hydrated).
    const html = await (await page.request.get(path)).text();
    const preloads = [...html.matchAll(/<link[^>]* rel="modulepreload" href="([^"]+)"/g)].map((m) => ({ href: m[1]! }));
    expect(preloads.length, path).toBeGreaterThan(3);
    // The CSP allows this origin's scripts (decision 0038): a preload it refused would be dropped without a word.
    expect(
      csp.some((v) => v.includes('modulepreload') || v.includes('script')),
      csp.join('\n'),
    ).toBe(false);
    // Each module was fetched once, with its bytes. A dropped preload leaves an empty entry beside the module
    // script's late fetch (two entries); a used one is one fetch, counted as the link's or as the script's.
    const fetched = await page.evaluate(() =>
      performance
        .getEntriesByType('resource')
        .map((e) => e as PerformanceResourceTiming)
        .map((e) => ({ path: new URL(e.name).pathname, bytes: e.decodedBodySize })),
    );
    for (const p of preloads) {
      const entries = fetched.filter((f) => f.path === p.href);
      expect(entries, `${path}: ${p.href}`).toHaveLength(1);
      expect(entries[0]!.bytes, `${path}: ${p.href}`).toBeGreaterThan(0);
    }
    await context.close();
  }
});

// An order's popup drawn by the server (a link to it, a reload) works as drawn until its code comes after
// hydration (routes/order). Its code is held back here (a slow network, which the real server cannot be made to
// be) while the trader types a take profit; when it comes, what was typed, and the caret, stay, and the popup's
// code reads them: the money at that take profit shows.
test("an order's popup typed into before its code arrives keeps the text and the caret, and its code reads them", async ({ page }) => {
  await chooseLanguage(page, 'en');
  await openDemo(page);
  const id = await placeOrder(page, { lots: '0.02' });
  const deliver = await holdChunk(page, 'order-detail');
  const watch = await watchStartup(page);
  await page.goto(`/order?type=1&detail=${id}`);
  await expect(page.locator('html')).toHaveAttribute('data-hydrated', 'true');
  const popup = page.getByRole('dialog');
  const takeProfit = popup.getByRole('textbox', { name: 'Take profit' });
  await takeProfit.click();
  await page.keyboard.type('1.5');
  await expect(popup.getByTestId('take-profit-money')).toHaveText('');
  await deliver();
  // The popup's code draws the money at the typed price once it has read it.
  await expect(popup.getByTestId('take-profit-money')).toContainText('USD');
  await expect(takeProfit).toHaveValue('1.5');
  await expect(takeProfit).toBeFocused();
  await page.keyboard.type('1');
  await expect(takeProfit).toHaveValue('1.51');
  expect(watch.errors).toEqual([]);
});

// The ticket's code comes after the page too (routes/trade/route.tsx). Held back here (a slow network), the
// trader chooses a pending order and types into the server's ticket. While a number field is being typed in, the
// ticket stays the server's (a number field tells no caret: a field focused anew would take the next digit first);
// once the trader leaves it, the code's ticket takes its place with the choice and the numbers, and reads them:
// the money at the take profit shows.
test('the ticket typed into before its code arrives keeps the choice and the numbers', async ({ page }) => {
  await chooseLanguage(page, 'en');
  await openDemo(page);
  const deliver = await holdChunk(page, 'order-form');
  const watch = await watchStartup(page);
  await page.goto('/trade?code=EURUSD');
  await expect(page.locator('html')).toHaveAttribute('data-hydrated', 'true');
  const ticket = page.getByRole('form', { name: 'Place an order' });
  await ticket.getByRole('radio', { name: 'Pending order' }).check();
  await ticket.getByRole('spinbutton', { name: 'Target price' }).fill('1.09000');
  await ticket.getByRole('spinbutton', { name: 'Lots', exact: true }).fill('0.10');
  const takeProfit = ticket.getByRole('spinbutton', { name: 'Take profit' });
  await takeProfit.fill('1.0950');
  await deliver();
  await page.waitForTimeout(500); // the code is evaluated and the page idle: the field being typed in stays
  await expect(page.locator('form.order-form[data-live]')).toHaveCount(0);
  await page.keyboard.type('0');
  await expect(takeProfit).toHaveValue('1.09500');
  // Left: the code's ticket, with what was typed.
  await takeProfit.blur();
  await expect(page.locator('form.order-form[data-live]')).toHaveCount(1);
  // 500 points of EUR/USD at 0.10 lot: 50.00 USD.
  await expect(ticket.getByTestId('take-profit-money')).toContainText('+50.00 USD');
  await expect(ticket.getByRole('radio', { name: 'Pending order' })).toBeChecked();
  await expect(ticket.getByRole('spinbutton', { name: 'Target price' })).toHaveValue('1.09000');
  await expect(ticket.getByRole('spinbutton', { name: 'Lots', exact: true })).toHaveValue('0.10');
  await expect(takeProfit).toHaveValue('1.09500');
  expect(watch.errors).toEqual([]);
});

// Coming from the market list (the app running, no server ticket to keep), the ticket's code is fetched with the
// screen's data (routes/trade/route.tsx): the trade screen never shows an empty place where the ticket goes.
test('a trader coming from the market list sees the ticket with the trade screen, never an empty place', async ({ page }) => {
  await chooseLanguage(page, 'en');
  await page.goto('/');
  await expect(page.locator('html')).toHaveAttribute('data-hydrated', 'true');
  await page.evaluate(() => {
    const seen: string[] = [];
    (window as unknown as { emptyTicket: string[] }).emptyTicket = seen;
    new MutationObserver(() => {
      if (document.querySelector('main.trade-page .island:empty')) seen.push('empty');
    }).observe(document.body, { childList: true, subtree: true });
  });
  await page.locator('a[href^="/trade?code=EURUSD"]').first().click();
  await expect(page.locator('form.order-form[data-live]')).toHaveCount(1);
  expect(await page.evaluate(() => (window as unknown as { emptyTicket: string[] }).emptyTicket)).toEqual([]);
});

// A part first drawn after hydration (the toast a form's answer brings) has no server markup to show meanwhile,
// so its code is asked for at once, not when the browser is next idle: here the phone is never idle (its idle
// callbacks never come, as on a busy cheap phone), and the trader still reads that the demo account is ready.
test('a toast brought by a form answered after hydration shows on a phone that is never idle', async ({ page }) => {
  await page.addInitScript(() => {
    window.requestIdleCallback = () => 0;
  });
  await chooseLanguage(page, 'en');
  await page.goto('/login');
  await expect(page.locator('html')).toHaveAttribute('data-hydrated', 'true');
  await page.getByRole('button', { name: 'Open a demo account' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Your demo account is ready.' })).toBeVisible();
});

// The log-in's passkey button needs the page's code; until it comes, its place is kept, so that what is under it
// does not move under a finger as the page comes alive (a tap meant for "Open a demo account" landed beside it).
test('the log-in page does not move when its code comes: "Open a demo account" stays where it was drawn', async ({ page, browser }) => {
  await chooseLanguage(page, 'en');
  const demo = (p: Page) => p.getByRole('button', { name: 'Open a demo account' }).boundingBox();
  const drawn = await browser.newContext({ ...devices['Pixel 5'], javaScriptEnabled: false });
  try {
    const asDrawn = await drawn.newPage();
    await asDrawn.goto('/language?lng=en&redirectTo=/login');
    const before = await demo(asDrawn);
    await page.goto('/login');
    await expect(page.locator('html')).toHaveAttribute('data-hydrated', 'true');
    await expect(page.getByRole('button', { name: 'Sign in with a passkey' })).toBeVisible();
    expect(before).not.toBeNull();
    expect(await demo(page)).toEqual(before);
  } finally {
    await drawn.close();
  }
});
