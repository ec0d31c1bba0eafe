/**
 * A trailing stop as a trader uses it, with JavaScript and without: set in the popup of a holding position, the
 * stop follows the price up (test hooks move it), stays when the price falls back, and closes the position when
 * crossed; set from the order ticket, the row shows it; a distance off the product's ticks is refused.
 */
import { expect, test, type Page } from '@playwright/test';
import { chooseLanguage, fact, forceMarket, openDemo, placeOrder, setPrice, ticketReady } from './fixtures';

test.beforeEach(async ({ page }) => {
  await chooseLanguage(page, 'en');
  await forceMarket('EURUSD', 'open');
  await setPrice('EURUSD', '1.10000');
});

test.afterEach(async () => {
  await forceMarket('EURUSD', 'auto');
});

const holdingRows = (page: Page) => page.getByRole('list', { name: 'Holding' }).getByRole('listitem');

/** Reloads until `check` passes: a price set through the back office reaches the page on its next load. */
async function reloadUntil(page: Page, check: () => Promise<void>) {
  await expect(async () => {
    await page.reload();
    await check();
  }).toPass({ timeout: 10_000 });
}

test('set in the popup, the stop follows the price up, never back, and closes the position when crossed', async ({ page }) => {
  const js = test.info().project.name === 'js-on';
  await openDemo(page);
  const id = await placeOrder(page);
  await page.goto('/order?type=1');
  await expect(holdingRows(page)).toHaveCount(1);
  // Prices move only when the test says so from here on.
  await forceMarket('EURUSD', 'closed');
  await setPrice('EURUSD', '1.10000');

  await holdingRows(page).first().getByRole('link').click();
  const dialog = page.getByRole('dialog');
  await expect(dialog).toContainText(`Order #${id}`);
  await expect(fact(page, 'Stop loss')).toHaveText('Not set');
  const distance = dialog.getByRole('textbox', { name: 'Trailing stop' });
  await expect(distance).toHaveValue('');
  await distance.fill('0.00200');
  await dialog.getByRole('button', { name: 'Save take profit and stop loss' }).click();
  await expect(page.getByText('Take profit and stop loss saved.')).toBeVisible();
  // It starts at once, 0.00200 behind the price.
  await expect(fact(page, 'Stop loss')).toHaveText('1.09800');
  await expect(fact(page, 'Trailing stop')).toHaveText('0.00200 behind the price');
  await expect(page.getByRole('dialog').getByRole('textbox', { name: 'Trailing stop' })).toHaveValue('0.00200');
  const detailUrl = page.url();

  // In the trader's favour: the stop follows.
  await setPrice('EURUSD', '1.10500');
  if (js) {
    // With JavaScript the stream's price carries it on the open popup, without a reload.
    await expect(fact(page, 'Stop loss')).toHaveText('1.10300');
  }
  await reloadUntil(page, async () => {
    await expect(fact(page, 'Stop loss')).toHaveText('1.10300', { timeout: 1000 });
  });
  await expect(page).toHaveURL(detailUrl);
  await page.getByRole('dialog').getByRole('link', { name: 'Close', exact: true }).click();
  await expect(holdingRows(page).first().getByTestId('trailing-stop')).toHaveText('Trailing stop 1.10300 (0.00200 behind)');

  // Back against the trader, short of the stop: it does not move back.
  await setPrice('EURUSD', '1.10400');
  await reloadUntil(page, async () => {
    await expect(holdingRows(page).first().getByTestId('current-price')).toHaveText('1.10400', { timeout: 1000 });
  });
  await expect(holdingRows(page).first().getByTestId('trailing-stop')).toHaveText('Trailing stop 1.10300 (0.00200 behind)');

  // Across it: closed by its stop loss, at that price.
  await setPrice('EURUSD', '1.10290');
  await reloadUntil(page, async () => {
    await expect(page.getByText('No open positions')).toBeVisible({ timeout: 1000 });
  });
  await page.getByRole('link', { name: 'History' }).click();
  const history = page.getByRole('list', { name: 'History' }).getByRole('listitem');
  await expect(history).toHaveCount(1);
  await expect(history.first()).toContainText('Closed');
  await expect(history.first().getByTestId('current-price')).toHaveText('1.10290');
  await history.first().getByRole('link').click();
  await expect(page.getByRole('dialog')).toContainText(`Order #${id}`);
  await expect(fact(page, 'Closed by')).toHaveText('Stop loss');
  await expect(fact(page, 'Stop loss')).toHaveText('1.10300');
  await expect(fact(page, 'Profit')).toContainText('+');
});

test('set from the order ticket: the holding row shows the trailing stop; a distance off the ticks is refused', async ({ page }) => {
  await openDemo(page);
  await page.goto('/trade?code=EURUSD');
  if (test.info().project.name === 'js-on') await ticketReady(page);
  const ticket = page.getByRole('form', { name: 'Place an order' });
  await ticket.getByRole('radio', { name: 'Market price' }).check();
  await ticket.getByRole('spinbutton', { name: 'Lots', exact: true }).fill('0.01');
  const distance = ticket.getByRole('spinbutton', { name: 'Trailing stop' });
  await distance.fill('0.000015');
  await ticket.getByRole('button', { name: 'Buy up' }).click();
  // Checked by the same schema in the browser and in the action: no order is placed.
  await expect(page.getByText('The distance has more decimals than this product allows.')).toBeVisible();
  await expect(page.getByRole('dialog', { name: 'Your order has been confirmed' })).toHaveCount(0);

  await page.getByRole('form', { name: 'Place an order' }).getByRole('spinbutton', { name: 'Trailing stop' }).fill('0.00150');
  await page.getByRole('form', { name: 'Place an order' }).getByRole('button', { name: 'Buy up' }).click();
  // The confirmation (one-tap trading off) says the trailing stop too.
  const confirmation = page.getByRole('dialog', { name: 'Confirm your order' });
  await expect(confirmation.getByRole('definition').filter({ hasText: '0.00150' })).toBeVisible();
  await confirmation.getByRole('button', { name: 'Place order' }).click();
  await expect(page.getByRole('dialog', { name: 'Your order has been confirmed' })).toBeVisible();

  await page.goto('/order?type=1');
  await expect(holdingRows(page)).toHaveCount(1);
  await expect(holdingRows(page).first().getByTestId('trailing-stop')).toHaveText(/^Trailing stop 1\.\d{5} \(0\.00150 behind\)$/);
  await holdingRows(page).first().getByRole('link').click();
  await expect(fact(page, 'Trailing stop')).toHaveText('0.00150 behind the price');
  await expect(page.getByRole('dialog').getByRole('textbox', { name: 'Trailing stop' })).toHaveValue('0.00150');
});
