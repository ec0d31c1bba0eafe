/**
 * A screen's stylesheet comes in its own code (decision 0020): moving to a screen in the app styles it with no
 * stylesheet request, and leaving it takes its rules away.
 */
import { expect, test, type Page } from '@playwright/test';
import { chooseLanguage } from './fixtures';

const hasRule = (page: Page, selector: string) =>
  page.evaluate(
    (s) => [...document.styleSheets].some((sheet) => [...sheet.cssRules].some((r) => (r as CSSStyleRule).selectorText === s)),
    selector,
  );

test('moving to the trade screen styles it without a stylesheet request; leaving it drops its rules', async ({ page }) => {
  const stylesheets: string[] = [];
  page.on('request', (r) => {
    if (r.resourceType() === 'stylesheet') stylesheets.push(r.url());
  });
  await chooseLanguage(page, 'en');
  await page.goto('/');
  await expect(page.locator('html')).toHaveAttribute('data-hydrated', 'true');
  expect(await hasRule(page, '.trade-price')).toBe(false);
  await page.getByRole('listitem', { name: 'EUR/USD' }).getByRole('link').click();
  await expect(page).toHaveURL(/\/trade\?code=EURUSD/);
  await expect(page.getByTestId('trade-price')).toHaveCSS('font-weight', '700');
  await page.getByRole('navigation', { name: 'Main sections' }).getByRole('link', { name: 'Quotes' }).click();
  await expect(page.getByRole('heading', { name: 'Markets' })).toBeVisible();
  expect(await hasRule(page, '.trade-price')).toBe(false);
  expect(stylesheets).toEqual([]);
});
