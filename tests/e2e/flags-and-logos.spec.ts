import { expect, test, type Locator, type Page } from '@playwright/test';
import { chooseLanguage, watchCsp } from './fixtures';

/**
 * What the user sees of flags and logos: each language's flag is an SVG picture (an emoji flag is empty
 * boxes where no emoji font is installed), each instrument has its own logo, and each service provider
 * its own mark rather than an instrument's badge.
 */

const REGIONAL_INDICATOR = /[\u{1F1E6}-\u{1F1FF}]/u;

/** A picture's file as the browser gets it: served by this site, as an SVG. Returns the SVG. */
async function servedSvg(page: Page, src: string): Promise<string> {
  const res = await page.request.get(src);
  expect(res.status(), src).toBe(200);
  expect(res.headers()['content-type']).toMatch(/^image\/svg\+xml/);
  const body = await res.text();
  expect(body).toMatch(/^<svg[\s>]/);
  return body;
}

/** Drawn in a box of its size, not a collapsed or broken one. */
async function expectDrawnBox(picture: Locator) {
  const box = (await picture.boundingBox())!;
  expect(box.width).toBeGreaterThan(10);
  expect(box.height).toBeGreaterThan(10);
}

/** The picture's file as the browser gets it: served by this site, an SVG, and drawn (not a broken image). */
async function expectSvgPicture(page: Page, img: Locator): Promise<string> {
  await expect(img).toBeVisible();
  const src = (await img.getAttribute('src'))!;
  expect(src).toMatch(/^\/[a-z/]+[a-z0-9]+\.svg$/);
  const body = await servedSvg(page, src);
  await expectDrawnBox(img);
  return body;
}

/**
 * A flag as the browser draws it: a background (so a closed drawer's flags are not fetched), from this site's
 * SVG file, fetched by the page, in a box of its own size. Returns the file's path and its SVG.
 */
async function expectSvgFlag(page: Page, flag: Locator): Promise<{ src: string; svg: string }> {
  await expect(flag).toBeVisible();
  const background = await flag.evaluate((el) => getComputedStyle(el).backgroundImage);
  const src = new URL(/^url\("(.+)"\)$/.exec(background)?.[1] ?? 'about:blank').pathname;
  expect(src).toMatch(/^\/flags\/[a-z]+\.svg$/);
  const svg = await servedSvg(page, src);
  await expect
    .poll(() => page.evaluate((path) => performance.getEntriesByName(new URL(path, location.href).href).length, src))
    .toBeGreaterThan(0);
  await expectDrawnBox(flag);
  return { src, svg };
}

/** What a flag is: decoration beside the language's written name, never read out itself. */
async function expectDecoration(flag: Locator) {
  await expect(flag).not.toHaveAttribute('role');
  await expect(flag).toHaveText('');
}

/**
 * An instrument's logo in a list: a PNG the web app draws from the upstream's SVG (fewer paint work on a phone);
 * returns that SVG, which the PNG shows.
 */
async function expectInstrumentLogo(page: Page, img: Locator): Promise<string> {
  await expect(img).toBeVisible();
  const src = (await img.getAttribute('src'))!;
  expect(src).toMatch(/^\/logos\/[a-z0-9]+\.png$/);
  const res = await page.request.get(src);
  expect(res.status(), src).toBe(200);
  expect(res.headers()['content-type']).toBe('image/png');
  // Decoded by the browser at the size drawn for a 2× screen.
  await expect.poll(() => img.evaluate((i: HTMLImageElement) => i.complete && i.naturalWidth)).toBe(64);
  const svg = await page.request.get(src.replace(/\.png$/, '.svg'));
  expect(svg.headers()['content-type']).toMatch(/^image\/svg\+xml/);
  return svg.text();
}

test("the home screen's language link, named by the language, shows the language's flag as an SVG picture", async ({ page }) => {
  const csp = watchCsp(page);
  for (const [lng, label] of [
    ['en', 'Language: English'],
    ['ar', 'اللغة: العربية'],
    ['jp', '言語: 日本語'],
  ] as const) {
    await chooseLanguage(page, lng);
    await page.goto('/');
    const link = page.getByRole('link', { name: label });
    await expect(link).toBeVisible();
    await expect(link).not.toContainText(REGIONAL_INDICATOR);
    // The link carries the name; the flag inside is decoration, not read twice.
    const flag = link.locator('.flag-icon');
    await expectDecoration(flag);
    expect((await expectSvgFlag(page, flag)).src).toBe(`/flags/${lng}.svg`);
  }
  expect(csp).toEqual([]);
});

test('the language picker shows 18 different SVG flags beside the names, and no emoji flag', async ({ page }) => {
  await chooseLanguage(page, 'en');
  await page.goto('/language');
  const buttons = page.getByRole('button', { pressed: false }).or(page.getByRole('button', { pressed: true }));
  await expect(buttons).toHaveCount(18);
  await expect(page.getByRole('main')).not.toContainText(REGIONAL_INDICATOR);
  const flags = new Set<string>();
  for (const name of ['繁體中文', 'English', '日本語', '한국어', 'ไทย', 'Tiếng Việt', 'Français', 'Deutsch', 'Русский'].concat([
    'Español',
    'Português',
    'العربية',
    'Italiano',
    'Türkçe',
    'Bahasa Indonesia',
    'Bahasa Melayu',
    'हिन्दी',
    'Čeština',
  ])) {
    const button = page.getByRole('button', { name, exact: true });
    // The name is written beside the flag, so the flag itself is not read out again.
    const flag = button.locator('.flag-icon');
    await expectDecoration(flag);
    flags.add((await expectSvgFlag(page, flag)).svg);
  }
  expect(flags.size).toBe(18);
});

test("the menu's language buttons carry the same SVG flags", async ({ page }) => {
  await chooseLanguage(page, 'en');
  await page.goto('/');
  await page.getByLabel('Open menu').click();
  const menu = page.getByRole('navigation', { name: 'Menu' });
  await expect(menu).not.toContainText(REGIONAL_INDICATOR);
  const french = menu.getByRole('button', { name: 'Français' }).locator('.flag-icon');
  await expectDecoration(french);
  expect((await expectSvgFlag(page, french)).src).toBe('/flags/fr.svg');
});

// With JavaScript off too, where a lazy <img> would be fetched at once: each flag is a document of its own for the
// browser to parse, eighteen of them on every page of a phone that opens no menu.
test("a first visit fetches only the flag it shows: the closed drawer's eighteen wait until it opens", async ({ page }) => {
  await chooseLanguage(page, 'en');
  const flags: string[] = [];
  page.on('request', (r) => {
    if (r.url().includes('/flags/')) flags.push(new URL(r.url()).pathname);
  });
  await page.goto('/');
  await page.waitForLoadState('networkidle');
  expect(flags).toEqual(['/flags/en.svg']);
  await page.getByLabel('Open menu').click();
  await expect(page.getByRole('navigation', { name: 'Menu' }).getByRole('button', { name: 'Deutsch' })).toBeVisible();
  await expect.poll(() => new Set(flags).size).toBe(18);
  expect(flags).toContain('/flags/de.svg');
});

test('USD/JPY, USD/CHF and USD/CAD each have their own logo, and each looks different', async ({ page }) => {
  await chooseLanguage(page, 'en');
  await page.goto('/product?tab=products&q=USD');
  const products = page.getByRole('list', { name: 'Products' });
  const sources = new Set<string>();
  const drawings = new Set<string>();
  const pictures: Buffer[] = [];
  for (const [pair, quote] of [
    ['USD/JPY', 'JPY'],
    ['USD/CHF', 'CHF'],
    ['USD/CAD', 'CAD'],
  ] as const) {
    const logo = products.getByRole('link', { name: new RegExp(`^${pair}`) }).locator('img');
    const svg = await expectInstrumentLogo(page, logo);
    // Both currencies are written on the badge.
    expect(svg).toContain('>USD</text>');
    expect(svg).toContain(`>${quote}</text>`);
    sources.add((await logo.getAttribute('src'))!);
    drawings.add(svg);
    pictures.push(await logo.screenshot());
  }
  expect(sources.size).toBe(3);
  expect(drawings.size).toBe(3);
  // What reaches the screen differs too, not only the files.
  expect(pictures[0]!.equals(pictures[1]!)).toBe(false);
  expect(pictures[0]!.equals(pictures[2]!)).toBe(false);
  expect(pictures[1]!.equals(pictures[2]!)).toBe(false);
});

test("service providers show their own marks, not an instrument's or a coin's logo", async ({ page }) => {
  await chooseLanguage(page, 'en');
  await page.goto('/product?tab=products');
  const instrumentLogos = new Set(
    await page
      .getByRole('list', { name: 'Products' })
      .locator('img')
      .evaluateAll((imgs) => imgs.map((i) => i.getAttribute('src'))),
  );
  expect(instrumentLogos).toContain('/logos/btcusd.png');

  await page.goto('/product');
  const providers = page.getByRole('list', { name: 'Service providers' });
  const marks = new Set<string>();
  for (const name of ['Harbour Prime Markets Ltd', 'Meridian Clearing Services', 'Lumen Digital Assets Pte Ltd']) {
    const logo = providers.getByRole('link', { name: new RegExp(name) }).locator('img');
    const svg = await expectSvgPicture(page, logo);
    const src = (await logo.getAttribute('src'))!;
    expect(instrumentLogos.has(src), `${name}: ${src}`).toBe(false);
    expect(src).not.toMatch(/btc|eth|sol|xrp|ltc|usd/);
    // The provider's own mark: it is named after the provider.
    expect(svg).toContain(`aria-label="${name}"`);
    marks.add(src);
  }
  expect(marks.size).toBe(3);
});
