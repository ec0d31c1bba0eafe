/**
 * A market order carries the price the trader saw; the upstream refuses a fill too far from it
 * (0.2 % for forex). Without JavaScript the page's price is what the trader saw, however old; with it
 * the live price is, and follows the market.
 */
import { expect, test } from '@playwright/test';
import { chooseLanguage, forceMarket, openDemo, setPrice } from './fixtures';

test.afterEach(async () => {
  await forceMarket('EURUSD', 'auto');
});

test('a market order whose price moved too far since it was shown is refused, and the ticket stays', async ({
  page,
  javaScriptEnabled,
}) => {
  await chooseLanguage(page, 'en');
  await forceMarket('EURUSD', 'open');
  await setPrice('EURUSD', '1.10000');
  await openDemo(page);
  await page.goto('/trade?code=EURUSD');
  const ticket = page.getByRole('form', { name: 'Place an order' });
  await ticket.getByRole('radio', { name: 'Market price' }).check();
  await ticket.getByRole('spinbutton', { name: 'Lots', exact: true }).fill('0.03');
  const price = page.getByTestId('trade-price');
  await expect(price).toContainText(/1\.(09|10)/);

  // The confirmation (one-tap trading off) shows the price the order is agreed at.
  await ticket.getByRole('button', { name: 'Buy up' }).click();
  const confirmation = page.getByRole('dialog', { name: 'Confirm your order' });
  await expect(confirmation).toBeVisible();
  await setPrice('EURUSD', '1.12000'); // 1.8 % in a moment
  if (javaScriptEnabled) {
    // The page shows the new price before the trader can act on it: that price is the one agreed to.
    await expect(price).toContainText(/1\.1[12]/, { timeout: 10_000 });
    await expect(confirmation.getByTestId('confirm-price')).toContainText(/1\.1[12]/);
    await confirmation.getByRole('button', { name: 'Place order' }).click();
    await expect(page.getByRole('dialog', { name: 'Your order has been confirmed' })).toBeVisible();
    return;
  }
  await confirmation.getByRole('button', { name: 'Place order' }).click();
  await expect(ticket.getByRole('alert')).toHaveText(
    'The price has moved too far from the one you saw. Check the new price and try again.',
  );
  await expect(ticket.getByRole('spinbutton', { name: 'Lots', exact: true })).toHaveValue('0.03');
  await expect(price).toContainText(/1\.1[12]/);
  await page.goto('/order?type=1');
  await expect(page.getByText('No open positions')).toBeVisible();
});
