/**
 * What a cheap phone's first seconds on a page cost (issue 12): hydration formats every price the server
 * already wrote, and a page's first `new Intl.NumberFormat` costs tens of milliseconds of ICU start-up in
 * one task. The page carries its language's number symbols instead; these tests see that hydration and the
 * live prices after it never start Intl's number formatting, and that the numbers still read as the
 * language writes them (and as the server wrote them: no hydration error). And a first visit spends the
 * slow network on what it shows: the closed drawer's flags are not fetched.
 */
import { expect, test, type Page } from '@playwright/test';
import { chooseLanguage, forceMarket } from './fixtures';

test.afterEach(async () => {
  await forceMarket('EURUSD', 'auto');
});

/** Counts Intl.NumberFormat constructions and collects errors (a hydration mismatch is reported as one). */
async function watchStartup(page: Page) {
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  page.on('console', (m) => {
    if (m.type() === 'error') errors.push(m.text());
  });
  await page.addInitScript(() => {
    const w = window as unknown as { numberFormats: number };
    w.numberFormats = 0;
    const Original = Intl.NumberFormat;
    Intl.NumberFormat = new Proxy(Original, {
      construct(target, args) {
        w.numberFormats += 1;
        return Reflect.construct(target, args) as object;
      },
      apply(target, self, args) {
        w.numberFormats += 1;
        return Reflect.apply(target, self, args) as unknown;
      },
    });
  });
  return {
    errors,
    numberFormats: () => page.evaluate(() => (window as unknown as { numberFormats: number }).numberFormats),
  };
}

for (const { lng, decimal } of [
  { lng: 'de', decimal: ',' },
  { lng: 'ru', decimal: ',' },
  { lng: 'ar', decimal: '.' },
]) {
  test(`in ${lng}, hydration and live prices start no Intl number formatter and write the language's numbers`, async ({ page }) => {
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
    }
    expect(await watch.numberFormats()).toBe(0);
    expect(watch.errors).toEqual([]);
  });
}

// Browsers load lazy images at once when scripting is off (the spec: no lazy loading without script), so
// this holds with JavaScript only.
test("a first visit fetches only the flag it shows: the closed drawer's eighteen wait until it opens", async ({ page }) => {
  await chooseLanguage(page, 'en');
  const flags: string[] = [];
  page.on('request', (r) => {
    if (r.url().includes('/flags/')) flags.push(new URL(r.url()).pathname);
  });
  await page.goto('/');
  await page.waitForLoadState('networkidle');
  expect(flags).toEqual(['/flags/en.svg']);
  await page.locator('.side-drawer > summary').click();
  await expect(page.getByRole('button', { name: 'Deutsch' }).locator('img')).toHaveJSProperty('complete', true);
  expect(flags).toContain('/flags/de.svg');
});
