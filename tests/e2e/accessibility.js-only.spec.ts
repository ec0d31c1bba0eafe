/**
 * WCAG 2.2 AA as axe-core sees it, on every screen a trader reaches, in English and in Arabic (right to
 * left): a visitor's screens, a demo account with an open position (its detail popup, the confirmations,
 * the drawer), and a registered account's money and identity screens. Any serious or critical finding
 * fails, listed with its rule, the elements and what to fix. JavaScript on only: axe runs in the page.
 */
import { expect, test, type Page } from '@playwright/test';
import { seriousFindings } from './axe';
import { chooseLanguage, codeSentBy, forceMarket, logInRealAccount, londonToday, openDemo, placeOrder, setPrice } from './fixtures';

/** Lists every serious or critical axe finding on the page as it is now; collected, so one run names every screen. */
async function expectNoSeriousFindings(page: Page, screen: string) {
  expect.soft(await seriousFindings(page), `axe findings on ${screen}`).toEqual([]);
}

/** Opens a screen once it is interactive and checks it. */
async function check(page: Page, path: string) {
  await page.goto(path);
  await expect(page.locator('html')).toHaveAttribute('data-hydrated', 'true');
  await expectNoSeriousFindings(page, path);
}

/** Tabs of one browser (one session) that check a list of screens side by side (3: a visitor's 18 screens 84 s → 49 s). */
const TABS = 3;

/**
 * Checks every screen of the list, on `page` and more tabs of its browser at once: the screens only show, so the
 * order does not matter, and one screen's server and axe time overlaps another's.
 */
async function checkAll(page: Page, paths: string[]) {
  const tabs = [page, ...(await Promise.all(Array.from({ length: TABS - 1 }, () => page.context().newPage())))];
  const queue = [...paths];
  await Promise.all(
    tabs.map(async (tab) => {
      for (let path = queue.shift(); path !== undefined; path = queue.shift()) await check(tab, path);
    }),
  );
  await Promise.all(tabs.slice(1).map((tab) => tab.close()));
}

// Each test walks a dozen screens and runs axe on every one.
test.describe.configure({ timeout: 240_000 });

test.beforeEach(async ({ page }) => {
  await chooseLanguage(page, 'en');
  await forceMarket('EURUSD', 'open');
  await setPrice('EURUSD', '1.10000');
});
test.afterEach(async () => {
  await forceMarket('EURUSD', 'auto');
});

for (const lng of ['en', 'ar']) {
  test.describe(`in ${lng}`, () => {
    test(`a visitor's screens have no serious accessibility findings (${lng})`, async ({ page }) => {
      await chooseLanguage(page, lng);
      await checkAll(page, [
        '/',
        '/trade?code=EURUSD',
        '/trade?code=EURUSD&drawer=1',
        '/login',
        '/register',
        '/forgot',
        '/language',
        '/news',
        '/news/detail?id=1',
        '/rank',
        '/product',
        '/product?tab=products',
        '/contract/EURUSD',
        '/contract/US30',
        '/mine/system',
        '/mine/announcement',
        '/feedback',
        '/no-such-page/at-all',
      ]);
      // A form sent empty: its messages stand next to the fields, and must be readable too.
      await page.goto('/login');
      await expect(page.locator('html')).toHaveAttribute('data-hydrated', 'true');
      await page.getByRole('textbox').first().press('Enter');
      await expect(page.getByRole('textbox').first()).toHaveAttribute('aria-invalid', 'true');
      await expectNoSeriousFindings(page, '/login with its field errors');
      // A form past its bounds: the refusal page.
      await page.evaluate(() => {
        const form = document.querySelector('form[method="post"]') as HTMLFormElement;
        for (let i = 0; i < 300; i++) form.insertAdjacentHTML('beforeend', `<input type="hidden" name="x${i}" value="1">`);
        form.querySelector<HTMLInputElement>('input[type="password"]')!.value = 'secret-123';
        form.querySelector<HTMLInputElement>('input[type="email"], input[name="account"]')!.value = 'a@example.com';
        form.requestSubmit();
      });
      await expect(page.locator('main.error-page h1')).toBeVisible();
      await expectNoSeriousFindings(page, 'the page of a form past its bounds (413)');
    });

    test(`a demo account's screens, with an open position, have no serious accessibility findings (${lng})`, async ({ page }) => {
      await openDemo(page);
      const id = await placeOrder(page);
      await chooseLanguage(page, lng);
      await checkAll(page, [
        '/mine',
        '/mine?confirm=reset-demo',
        '/mine/system?confirm=logout',
        '/trade?code=EURUSD',
        '/trade?code=EURUSD&take_profit=1.10500&stop_loss=1.09500',
        `/trade?code=EURUSD&placed=${id}`,
        '/order?type=1',
        `/order?type=1&detail=${id}`,
        `/order?type=1&detail=${id}&tp=1.20000&sl=1.00000`,
        '/order?type=1&confirm=close-all&scope=all',
        '/order?type=0',
        '/order?type=3',
        '/mine/history',
        '/mine/statement',
        `/mine/statement?from=${londonToday()}&to=${londonToday()}`,
        '/mine/email',
        '/mine/charge',
      ]);
      // The order's confirmation (one-tap trading off), with the money at its take profit and stop loss.
      await check(page, '/trade?code=EURUSD&take_profit=1.10500&stop_loss=1.09500');
      await page.locator('form[aria-label] button[name="side"][value="1"]').click();
      await expect(page.getByRole('dialog')).toBeVisible();
      await expectNoSeriousFindings(page, 'the order confirmation');
    });

    test(`a registered account's screens have no serious accessibility findings (${lng})`, async ({ page }) => {
      await logInRealAccount(page, 'a11y');
      await chooseLanguage(page, lng);
      await checkAll(page, [
        '/mine',
        '/mine/charge',
        '/mine/charge?method=coin&channel=1',
        '/mine/withdraw',
        '/mine/withdraw-way',
        '/mine/withdraw-way?type=2',
        '/mine/wallet',
        '/mine/bank-card-list',
        '/mine/coin-address-list',
        '/mine/history',
        '/mine/invite',
        '/mine/auth',
        '/mine/password',
        '/mine/chat',
      ]);
    });

    test(`a bound bank account's delete confirmation has no serious accessibility findings (${lng})`, async ({ page }) => {
      const email = await logInRealAccount(page, 'a11y-bank');
      await chooseLanguage(page, lng);
      // A bound bank account and its delete confirmation (fields by name: the labels are in this language).
      await page.goto('/mine/withdraw-way?type=2');
      await expect(page.locator('html')).toHaveAttribute('data-hydrated', 'true');
      const bank = { bank_name: 'Pacific Bank', bank_address: '2 Harbour Road', bank_swift: 'PACBHKHH', payee_name: 'Chan Tai Man' };
      for (const [name, value] of Object.entries({ ...bank, payee_account: '123-456-789' }))
        await page.locator(`input[name="${name}"]`).fill(value);
      await page.locator('input[name="payee_account"]').press('Enter');
      // The step-up a new method asks for (issue 38): a code sent to the e-mail, then one tap to finish.
      await expect(page).toHaveURL(/\/step-up\?/);
      const code = await codeSentBy(email, () => page.locator('button[name="intent"][value="send"]').click());
      await page.locator('input[name="code"]').fill(code);
      await page.locator('input[name="code"]').press('Enter');
      await page.getByRole('dialog').getByRole('button').last().click();
      await expect(page).toHaveURL(/bank-card-list/);
      await page.goto((await page.locator('a[href*="confirm=delete-"]').first().getAttribute('href'))!);
      await expect(page.getByRole('dialog')).toBeVisible();
      await expectNoSeriousFindings(page, 'the delete confirmation of a bank account');
    });
  });
}
