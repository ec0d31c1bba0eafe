/**
 * The Contract screen (issue 40) in English, Chinese (Hong Kong) and Arabic, with and without JavaScript: opened
 * from the trade screen (EUR/USD) and from the product search (US30, an index). Its figures are the seeded
 * catalogue's, and each leverage's margin for one lot is contract/arithmetic's at the price the page names. The
 * browser tests' upstream keeps every market open around the clock (tests/e2e/serve.mjs), so that is the session.
 */
import fs from 'node:fs';
import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { marginMicro, type InstrumentTerms } from '../../contract/arithmetic';
import { MarginMode } from '../../contract/enums';
import { money, parseUnits } from '../../contract/money';
import { londonOffset } from '../../contract/time';
import { chooseLanguage, forceMarket, setPrice, watchCsp } from './fixtures';

type Strings = { [key: string]: string | Strings };
/** A string of the app's own locale files, with its {{placeholders}} filled in. */
function say(lng: string, ns: string, key: string, values: Record<string, string> = {}): string {
  const tree = JSON.parse(fs.readFileSync(path.join('locales', lng, `${ns}.json`), 'utf8')) as Strings;
  const text = key.split('.').reduce<string | Strings>((node, part) => (node as Strings)[part]!, tree) as string;
  return text.replace(/\{\{(\w+)\}\}/g, (_, name: string) => values[name] ?? '');
}

interface Seeded {
  code: string;
  symbol: string;
  terms: InstrumentTerms;
  size: string;
  lots: string;
  leverages: number[];
  fee: string;
}
/** As upstream/market/catalogue.ts seeds them (fees per lot: the seeded trade_fee_type). */
const EURUSD: Seeded = {
  code: 'EURUSD',
  symbol: 'EUR/USD',
  terms: { precision: 5, contractSize: 100_000, marginMode: MarginMode.Leverage, feeRateMicro: 5_000_000 },
  size: '100,000',
  lots: '0.01',
  leverages: [10, 20, 50, 100, 200],
  fee: '5.00',
};
const US30: Seeded = {
  code: 'US30',
  symbol: 'US30',
  terms: { precision: 1, contractSize: 1, marginMode: MarginMode.Leverage, feeRateMicro: 2_000_000 },
  size: '1',
  lots: '0.10',
  leverages: [10, 20, 50, 100],
  fee: '2.00',
};

const number = (text: string) => Number(text.replace(/[^\d.]/g, ''));

/** Everything the screen shows of `i`, in `lng`. */
async function expectContract(page: Page, lng: string, i: Seeded) {
  await expect(page).toHaveURL(new RegExp(`/contract/${i.code}$`));
  const title = say(lng, 'contract', 'title', { symbol: i.symbol });
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(title);
  await expect(page).toHaveTitle(title);
  await expect(page.getByTestId('contract-symbol')).toHaveText(i.code);
  await expect(page.getByTestId('contract-digits')).toHaveText(String(i.terms.precision));
  await expect(page.getByTestId('contract-size')).toHaveText(say(lng, 'contract', 'terms.perLot', { size: i.size }));
  await expect(page.getByTestId('contract-min-lots')).toHaveText(i.lots);
  await expect(page.getByTestId('contract-lot-step')).toHaveText(i.lots);
  // The reference upstream has no maximum lots: it sends none, and the row is left out.
  await expect(page.getByTestId('contract-max-lots')).toHaveCount(0);
  await expect(page.getByTestId('contract-leverages')).toHaveText(i.leverages.map((l) => `1:${l}`).join(', '));
  await expect(page.getByTestId('contract-fee-rule')).toHaveText(say(lng, 'contract', 'fee.perLot', { amount: i.fee }));
  await expect(page.getByTestId('contract-stops')).toHaveText(say(lng, 'contract', 'stops.any'));

  // Each leverage's margin for one lot is the arithmetic's at the price the page says it used.
  const note = await page.getByTestId('contract-price').innerText();
  const price = parseUnits(/\d[\d,]*\.\d+/.exec(note)![0].replace(/,/g, ''), i.terms.precision)!;
  const rows = page.getByTestId('contract-margins').locator('tbody tr');
  await expect(rows).toHaveCount(i.leverages.length);
  for (const [n, leverage] of i.leverages.entries()) {
    const row = rows.nth(n);
    await expect(row.getByRole('rowheader')).toHaveText(`1:${leverage}`);
    const expected = money.toNumber(marginMicro(i.terms, 1000, price, leverage));
    expect(number(await row.getByRole('cell').first().innerText()), `${i.code} 1:${leverage}`).toBe(expected);
    expect(number(await row.getByRole('cell').nth(1).innerText())).toBe(Number(i.fee));
  }

  // The session, in London time with the zone named: today's zone (GMT in winter, BST in summer).
  const summer = londonOffset(Math.floor(Date.now() / 1000)) > 0;
  await expect(page.getByTestId('contract-zone')).toHaveText(
    say(lng, 'contract', 'session.zone', { zone: summer ? 'BST' : 'GMT', offset: summer ? '1' : '0' }),
  );
  await expect(page.getByTestId('contract-next')).toHaveText(
    `${say(lng, 'contract', 'session.openNow')} ${say(lng, 'contract', 'session.neverCloses')}`,
  );
  const days = page.getByTestId('contract-sessions').locator('tbody tr');
  await expect(days).toHaveCount(7);
  await expect(days.first().getByRole('rowheader')).toContainText(say(lng, 'contract', 'session.today'));
  for (let d = 0; d < 7; d++) await expect(days.nth(d).getByRole('cell')).toHaveText(say(lng, 'contract', 'session.allDay'));
}

test.beforeEach(async () => {
  await forceMarket('EURUSD', 'open');
  await forceMarket('US30', 'open');
  await setPrice('EURUSD', '1.10000');
});
test.afterAll(async () => {
  await forceMarket('EURUSD', 'auto');
  await forceMarket('US30', 'auto');
});

for (const lng of ['en', 'hk', 'ar']) {
  test.describe(`in ${lng}`, () => {
    test.beforeEach(async ({ page }) => {
      await chooseLanguage(page, lng);
    });

    test(`EUR/USD's contract from the trade screen, and back (${lng})`, async ({ page }) => {
      const csp = watchCsp(page);
      await page.goto('/trade?code=EURUSD');
      await page.getByRole('link', { name: say(lng, 'contract', 'link'), exact: true }).click();
      await expectContract(page, lng, EURUSD);
      if (lng === 'ar') await expect(page.locator('html')).toHaveAttribute('dir', 'rtl');
      await page.getByRole('link', { name: say(lng, 'common', 'actions.back') }).click();
      await expect(page).toHaveURL(/\/trade\?code=EURUSD$/);
      expect(csp).toEqual([]);
    });

    test(`an index's contract from the product search (${lng})`, async ({ page }) => {
      await page.goto('/product?tab=products&q=US30');
      const products = page.getByRole('list', { name: say(lng, 'market', 'productsTab') });
      await products.getByRole('link', { name: say(lng, 'contract', 'linkFor', { symbol: 'US30' }) }).click();
      await expectContract(page, lng, US30);
    });
  });
}

test('an unknown instrument has no contract', async ({ page }) => {
  await chooseLanguage(page, 'en');
  const response = await page.goto('/contract/NOSUCH');
  expect(response?.status()).toBe(404);
});
