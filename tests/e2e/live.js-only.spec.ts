/**
 * What only JavaScript adds: live prices and skeleton rows on client navigation. The js-off project
 * skips `*.js-only.spec.ts` (playwright.config.ts); without JavaScript the server renders full pages.
 */
import { expect, test, type Locator } from '@playwright/test';
import { STREAM_VERSION } from '../../contract/stream';
import { chooseLanguage, forceMarket, setPrice } from './fixtures';

test('with JavaScript, prices on the market list move without a reload', async ({ page }) => {
  await chooseLanguage(page, 'en');
  await page.goto('/?category=3');
  const price = page.getByRole('listitem', { name: 'BTC/USD' }).getByTestId('price');
  const first = await price.innerText();
  await expect(price).not.toHaveText(first, { timeout: 15_000 });
  // Still the same document: no navigation happened.
  expect(await page.evaluate(() => performance.getEntriesByType('navigation').length)).toBe(1);
});

test.describe('a moved price flashes', () => {
  test.beforeEach(async () => {
    await forceMarket('EURUSD', 'closed'); // only our prices move it
    await setPrice('EURUSD', '1.10000');
  });
  test.afterEach(async () => {
    await forceMarket('EURUSD', 'auto');
  });

  type Cell = HTMLElement & { flashes?: string[] };
  /**
   * Logs each flash the price cell starts from now on, by its direction: the log does not depend on how soon after
   * the tick it is read (a loaded machine reads it after the 0.7 s flash is over). Returns a reader of the log.
   */
  const watchFlashes = async (price: Locator) => {
    await price.evaluate((cell: Cell) => {
      cell.flashes = [];
      cell.addEventListener('animationstart', () => cell.flashes!.push(cell.dataset.flash?.replace(/\d$/, '') ?? '?'));
    });
    return () => price.evaluate((cell: Cell) => cell.flashes ?? []);
  };
  const playing = (price: Locator) =>
    price.evaluate((cell: HTMLElement) => cell.getAnimations({ subtree: true }).some((a) => a.playState === 'running'));

  test('green when it rises and red when it falls, on the market list', async ({ page }) => {
    await chooseLanguage(page, 'en');
    await page.goto('/');
    const price = page.getByRole('listitem', { name: 'EUR/USD' }).getByTestId('price');
    await expect(price).toHaveText('1.10000');
    const flashes = await watchFlashes(price);
    await setPrice('EURUSD', '1.10050');
    await expect(price).toHaveText('1.10050');
    await expect.poll(flashes).toEqual(['up']);
    await expect.poll(() => playing(price)).toBe(false); // a moment, not for good
    await setPrice('EURUSD', '1.09950');
    await expect(price).toHaveText('1.09950');
    await expect.poll(flashes).toEqual(['up', 'down']);
    await expect.poll(() => playing(price)).toBe(false);
    await setPrice('EURUSD', '1.09900'); // down again: the flash starts over
    await expect(price).toHaveText('1.09900');
    await expect.poll(flashes).toEqual(['up', 'down', 'down']);
  });

  test('green when it rises and red when it falls, on the trade screen', async ({ page }) => {
    await chooseLanguage(page, 'en');
    await page.goto('/trade?code=EURUSD');
    const price = page.getByTestId('trade-price');
    await expect(price).toHaveText('1.10000');
    const flashes = await watchFlashes(price);
    await setPrice('EURUSD', '1.10050');
    await expect(price).toHaveText('1.10050');
    await expect.poll(flashes).toEqual(['up']);
    await setPrice('EURUSD', '1.09950');
    await expect(price).toHaveText('1.09950');
    await expect.poll(flashes).toEqual(['up', 'down']);
  });

  test('not for a trader who asked for less motion', async ({ page }) => {
    await page.emulateMedia({ reducedMotion: 'reduce' });
    await chooseLanguage(page, 'en');
    await page.goto('/');
    const price = page.getByRole('listitem', { name: 'EUR/USD' }).getByTestId('price');
    await expect(price).toHaveText('1.10000');
    await setPrice('EURUSD', '1.10050');
    await expect(price).toHaveText('1.10050');
    // The cell is marked as moved, and its flash has no animation to play.
    await expect(price).toHaveAttribute('data-flash', /^up/);
    expect(await price.evaluate((cell) => getComputedStyle(cell, '::after').animationName)).toBe('none');
  });
});

test('a tab that hears the stream speak another version reloads itself, then follows the prices', async ({ page }) => {
  // The first stream answers as a server of the next version would (its shapes this code cannot read): its status
  // names that version. The reloaded page's streams reach the real relay.
  await chooseLanguage(page, 'en');
  const asked: string[] = [];
  await page.route(
    (url) => url.pathname === '/stream',
    (route) => {
      // (The language page's redirect to / may open a stream of its own meanwhile: that one goes through.)
      if (!route.request().frame().url().includes('category=3')) return route.continue();
      asked.push(new URL(route.request().url()).search);
      if (asked.length > 1) return route.continue();
      return route.fulfill({
        headers: { 'content-type': 'text/event-stream', 'cache-control': 'no-store' },
        body: `retry: 600000\n\nevent: status\ndata: ${JSON.stringify({ state: 'up', version: STREAM_VERSION + 1 })}\n\n`,
      });
    },
  );
  await page.goto('/?category=3');
  await expect
    .poll(() =>
      page
        .evaluate(() => (performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming).type)
        // Asked while the reload replaces the document: ask again.
        .catch(() => 'reloading'),
    )
    .toBe('reload');
  const price = page.getByRole('listitem', { name: 'BTC/USD' }).getByTestId('price');
  const first = await price.innerText();
  await expect(price).not.toHaveText(first, { timeout: 15_000 });
  // Every stream asked for the version this code reads.
  for (const search of asked) expect(new URLSearchParams(search).get('v')).toBe(String(STREAM_VERSION));
});

test('a stream from a node of a release before versions (a rolling deploy) is not misread, nor reloaded for', async ({ page }) => {
  // Such a node ignores `v=3` and sends the shapes before it, its replays first, and a status without a version.
  await chooseLanguage(page, 'en');
  const errors: Error[] = [];
  page.on('pageerror', (error) => errors.push(error));
  await page.route(
    (url) => url.pathname === '/stream',
    (route) =>
      route.fulfill({
        headers: { 'content-type': 'text/event-stream', 'cache-control': 'no-store' },
        body: [
          'retry: 600000',
          '',
          'id: 00000000.1\nevent: closed\ndata: {"ids":[1]}\n',
          'event: status\ndata: {"state":"up"}\n',
          `id: 00000000.2\nevent: quote\ndata: ${JSON.stringify({ forex_id: 4, symbol: 'BTCUSD', close: 1, change: 9, high: 1, low: 1, open: 1, volume: 0, market_status: 1 })}\n`,
          '',
        ].join('\n'),
      }),
  );
  await page.goto('/?category=3');
  await expect(page.locator('html')).toHaveAttribute('data-hydrated', 'true');
  const price = page.getByRole('listitem', { name: 'BTC/USD' }).getByTestId('price');
  const drawn = await price.innerText();
  await page.waitForTimeout(1500);
  // The page's own prices stay; nothing reloaded, nothing thrown.
  await expect(price).toHaveText(drawn);
  expect(await page.evaluate(() => performance.getEntriesByType('navigation').length)).toBe(1);
  expect(errors).toEqual([]);
});

test('every row of the market list shows a price its instrument streamed within the last second', async ({ page }) => {
  await chooseLanguage(page, 'en');
  // Tall enough that no row is off screen: each one follows its ticks.
  await page.setViewportSize({ width: 360, height: 2400 });
  await page.goto('/');
  await expect(page.locator('html')).toHaveAttribute('data-hydrated', 'true');
  // A second stream, the test's own, keeps each instrument's prices as they come. The list draws prices twice a
  // second at most, so a row may show the one before the latest, but never one older than a second.
  await page.evaluate(() => {
    const seen: Record<string, { close: number; at: number }[]> = {};
    Object.assign(window, { seenQuotes: seen });
    // The same quotes as the page's stream, in the shape before version 3 (it names each by its code).
    new EventSource('/stream?v=2').addEventListener('quotes', (e) => {
      const quotes = JSON.parse((e as MessageEvent<string>).data) as { symbol: string; close: number }[];
      for (const quote of quotes) (seen[quote.symbol] ??= []).push({ close: quote.close, at: performance.now() });
    });
  });
  const rows = await page.locator('.market-list > li').all();
  expect(rows.length).toBeGreaterThan(12);
  for (const row of rows) {
    const code = new URL((await row.getByRole('link').getAttribute('href'))!, 'http://x').searchParams.get('code')!;
    await expect
      .poll(async () => {
        const shown = Number((await row.getByTestId('price').innerText()).replace(/,/g, ''));
        const recent = await page.evaluate((c) => {
          const all = (window as unknown as { seenQuotes: Record<string, { close: number; at: number }[]> }).seenQuotes[c] ?? [];
          // The latest, and whatever came in the last second.
          return all.filter((q, i) => i === all.length - 1 || performance.now() - q.at < 1000).map((q) => q.close);
        }, code);
        return recent.includes(shown) ? 'recent' : `${code}: shows ${shown}, streamed lately ${recent.join(' ')}`;
      })
      .toBe('recent');
  }
});

test('the market list draws prices at most twice a second, however often they tick', async ({ page }) => {
  await chooseLanguage(page, 'en');
  // Crypto: open every day, ticking three rounds in four.
  await page.goto('/?category=3');
  await expect(page.locator('html')).toHaveAttribute('data-hydrated', 'true');
  // Past the connect's snapshot (drawn at once, a few rows a frame), each change of the list's prices is timed.
  await page.waitForTimeout(2000);
  const gaps = await page.evaluate(
    () =>
      new Promise<number[]>((resolve) => {
        const times: number[] = [];
        const observer = new MutationObserver(() => times.push(performance.now()));
        observer.observe(document.querySelector('.market-list')!, { subtree: true, characterData: true, childList: true });
        setTimeout(() => {
          observer.disconnect();
          resolve(times.slice(1).map((t, i) => t - times[i]!));
        }, 5000);
      }),
  );
  // Prices tick about every 300 ms here: five seconds bring several frames, none sooner than half a second after
  // the last (timed after each render: a slow render shortens the next gap a little).
  expect(gaps.length).toBeGreaterThan(4);
  expect(Math.min(...gaps)).toBeGreaterThanOrEqual(400);
});

test('a row far off screen holds still while prices tick, and shows a recent price once scrolled into view', async ({ page }) => {
  await chooseLanguage(page, 'en');
  // A short screen: the crypto list's last row (LTC/USD) is well below it and its 200 px margin.
  await page.setViewportSize({ width: 360, height: 220 });
  await page.goto('/?category=3');
  await expect(page.locator('html')).toHaveAttribute('data-hydrated', 'true');
  await page.evaluate(() => {
    const seen: { close: number; at: number }[] = [];
    Object.assign(window, { seenLtc: seen });
    new EventSource('/stream?v=2').addEventListener('quotes', (e) => {
      for (const q of JSON.parse((e as MessageEvent<string>).data) as { symbol: string; close: number }[])
        if (q.symbol === 'LTCUSD') seen.push({ close: q.close, at: performance.now() });
    });
  });
  const top = page.getByRole('listitem', { name: 'BTC/USD' }).getByTestId('price');
  const last = page.getByRole('listitem', { name: 'LTC/USD' }).getByTestId('price');
  // Once the top row has moved, the stream is live.
  await expect(top).not.toHaveText(await top.innerText(), { timeout: 15_000 });
  // For 2.4 s (eight rounds: crypto ticks on three rounds in four, every 300 ms) the top row moves and the bottom
  // row holds still. Tried again while a tick that landed before the row knew where it was is still being drawn.
  let held = '';
  await expect(async () => {
    held = await last.innerText();
    const topBefore = await top.innerText();
    await page.waitForTimeout(2400);
    expect(await top.innerText()).not.toBe(topBefore);
    expect(await last.innerText()).toBe(held);
  }).toPass({ timeout: 20_000 });
  await last.scrollIntoViewIfNeeded();
  // Drawn as soon as the row is near the screen: a price streamed within the last second, at once (what it held
  // was at least 2.4 s old).
  await expect
    .poll(
      () =>
        page.evaluate(() => {
          const row = [...document.querySelectorAll('.market-list > li')].find((li) => li.getAttribute('aria-label') === 'LTC/USD')!;
          const all = (window as unknown as { seenLtc: { close: number; at: number }[] }).seenLtc;
          const shown = Number(row.querySelector('[data-testid=price]')!.textContent!.replace(/,/g, ''));
          const recent = all.filter((q, i) => i === all.length - 1 || performance.now() - q.at < 1000).map((q) => q.close);
          return recent.includes(shown) ? 'recent' : `shows ${shown}, streamed lately ${recent.join(' ')}`;
        }),
      { timeout: 1000 },
    )
    .toBe('recent');
  await expect(last).not.toHaveText(held);
});

test('with JavaScript, arriving at the market list from another page shows ten skeleton rows while it loads', async ({ page }) => {
  await chooseLanguage(page, 'en');
  await page.goto('/product');
  // Hold the market list's data for a moment, as a slow network would.
  await page.route(/\/_root\.data|\.data\?/, async (route) => {
    await new Promise((r) => setTimeout(r, 1500));
    await route.continue();
  });
  await page.getByRole('link', { name: 'Back' }).click();
  await expect(page.getByTestId('skeleton-row')).toHaveCount(10);
  await expect(page.getByRole('list', { name: 'Markets' }).getByRole('listitem').first()).toBeVisible({ timeout: 10_000 });
  await expect(page.getByTestId('skeleton-row')).toHaveCount(0);
});

test('when the page strings fail to load, the page tries again and still comes alive', async ({ page }) => {
  // Refused five times: past the retry ladder (0.5 s, 1.5 s, 3 s, 6 s), with the network up all along.
  test.setTimeout(60_000);
  await chooseLanguage(page, 'en');
  let refused = 0;
  await page.route(/\/locales\/en\.json/, async (route) => {
    if (refused < 5) {
      refused++;
      return route.abort('failed');
    }
    await route.continue();
  });
  await page.goto('/?category=3');
  // The server's page is there meanwhile, in its language.
  await expect(page.getByRole('list', { name: 'Markets' })).toBeVisible();
  await expect(page.locator('html')).toHaveAttribute('data-hydrated', 'true', { timeout: 30_000 });
  expect(refused).toBe(5);
  const price = page.getByRole('listitem', { name: 'BTC/USD' }).getByTestId('price');
  const first = await price.innerText();
  await expect(price).not.toHaveText(first, { timeout: 15_000 });
});

test('with JavaScript, the ticket follows the live price: its best price moves with the quote and the margin with it', async ({ page }) => {
  await chooseLanguage(page, 'en');
  await page.goto('/trade?code=BTCUSD');
  await expect(page.locator('html')).toHaveAttribute('data-hydrated', 'true');
  const best = page.getByTestId('best-price');
  const margin = page.getByTestId('estimated-margin');
  const firstPrice = await best.innerText();
  const firstMargin = await margin.innerText();
  await expect(best).not.toHaveText(firstPrice, { timeout: 15_000 });
  await expect(margin).not.toHaveText(firstMargin);
  // The ticket and the quote above it show the same price (read again until no tick falls between the reads).
  await expect(async () => expect(await best.innerText()).toBe(await page.getByTestId('trade-price').innerText())).toPass({
    timeout: 10_000,
  });
  // The price the order is checked against travels with it.
  await expect(async () =>
    expect((await page.locator('input[name="seen_price"]').inputValue()).replace(/,/g, '')).toBe(
      (await best.innerText()).replace(/,/g, ''),
    ),
  ).toPass({ timeout: 10_000 });
});

test('the ticket waits for live prices: buy and sell are off until the stream is up, and what was typed stays', async ({ page }) => {
  await chooseLanguage(page, 'en');
  // The stream held back (a slow link; the real relay answers at once): the page hydrates without live prices.
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  await page.route(
    (url) => url.pathname === '/stream',
    async (route) => {
      await held;
      await route.continue();
    },
  );
  await page.goto('/trade?code=EURUSD');
  await expect(page.locator('html')).toHaveAttribute('data-hydrated', 'true');
  const buy = page.getByRole('button', { name: 'Buy up (long)', exact: true });
  const sell = page.getByRole('button', { name: 'Buy low (short)', exact: true });
  const waiting = page.getByRole('status').filter({ hasText: 'Connecting to live prices…' });
  await expect(waiting).toBeVisible();
  await expect(buy).toBeDisabled();
  await expect(sell).toBeDisabled();
  const lots = page.getByRole('spinbutton', { name: 'Lots' });
  await lots.fill('0.05');
  release();
  await expect(buy).toBeEnabled({ timeout: 15_000 });
  await expect(sell).toBeEnabled();
  await expect(waiting).toHaveCount(0);
  await expect(lots).toHaveValue('0.05');
});

test('the trade screen streams only the prices it shows; its drawer asks for every price, and they move there', async ({ page }) => {
  await chooseLanguage(page, 'en');
  const streams: URL[] = [];
  page.on('request', (r) => {
    const url = new URL(r.url());
    // The trade screen's streams (the market list that chooseLanguage lands on may have opened one too).
    if (url.pathname === '/stream' && new URL(r.frame().url()).pathname === '/trade') streams.push(url);
  });
  await page.goto('/trade?code=BTCUSD');
  await expect(page.locator('html')).toHaveAttribute('data-hydrated', 'true');
  const price = page.getByTestId('trade-price');
  await expect(price).not.toHaveText(await price.innerText(), { timeout: 15_000 });
  // One instrument's quotes: BTC/USD is quoted in dollars, so no other price converts its money.
  expect(streams.map((u) => u.searchParams.get('quotes'))).toEqual([expect.stringMatching(/^[1-9]\d*$/)]);
  await page.getByRole('link', { name: /BTC\/USD/ }).click();
  const drawer = page.getByRole('dialog', { name: 'Products' });
  await expect(drawer).toBeVisible();
  await expect.poll(() => streams.length).toBe(2);
  expect(streams[1]!.searchParams.has('quotes')).toBe(false);
  const eth = drawer.getByRole('link', { name: /ETH\/USD/ }).locator('.price');
  await expect(eth).not.toHaveText(await eth.innerText(), { timeout: 15_000 });
  // Closed again: the stream that carries every price stays (a reconnect would hold the ticket's prices back).
  await page.keyboard.press('Escape');
  await expect(drawer).toHaveCount(0);
  await expect(price).not.toHaveText(await price.innerText(), { timeout: 15_000 });
  expect(streams).toHaveLength(2);
});
