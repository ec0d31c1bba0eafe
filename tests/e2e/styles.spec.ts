/**
 * Stylesheets are written into the page (decision 0020): a first visit on a slow link paints as soon as the
 * HTML is in, with no stylesheet request on its critical path. The screens must still look as designed, with
 * JavaScript on and off, and the CSP must accept the styles.
 */
import { expect, test } from '@playwright/test';
import { chooseLanguage, openDemo, watchCsp } from './fixtures';

const BACKGROUND = 'rgb(11, 18, 32)'; // --bg in app.css

for (const { path, styled, rule } of [
  { path: '/', styled: 'body', rule: ['background-color', BACKGROUND] },
  { path: '/login', styled: 'body', rule: ['background-color', BACKGROUND] },
  // trade.css: the price is large and bold.
  { path: '/trade?code=EURUSD', styled: '[data-testid="trade-price"]', rule: ['font-weight', '700'] },
]) {
  test(`${path} is styled on a first visit without requesting a stylesheet`, async ({ page }) => {
    const csp = watchCsp(page);
    const stylesheets: string[] = [];
    page.on('request', (r) => {
      if (r.resourceType() === 'stylesheet') stylesheets.push(r.url());
    });
    await chooseLanguage(page, 'en');
    await page.goto(path);
    const [property, value] = rule as [string, string];
    await expect(page.locator(styled).first()).toHaveCSS(property, value);
    await expect(page.locator('body')).toHaveCSS('background-color', BACKGROUND);
    expect(stylesheets).toEqual([]);
    expect(csp).toEqual([]);
  });
}

test('the signed-in tabs are styled by the rules they carry', async ({ page }) => {
  const csp = watchCsp(page);
  await chooseLanguage(page, 'en');
  await openDemo(page);
  await page.goto('/order');
  // orders.css: the page keeps a pull to refresh from scrolling the document.
  await expect(page.locator('html')).toHaveCSS('overscroll-behavior-y', 'contain');
  await page.goto('/mine');
  await expect(page.locator('html')).toHaveCSS('overscroll-behavior-y', 'auto');
  // mine.css: the account's card.
  await expect(page.getByRole('region', { name: 'Your account' }).first()).toHaveCSS('padding-top', '14px');
  expect(csp).toEqual([]);
});
