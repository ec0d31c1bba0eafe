/**
 * Partial close and close all, as a trader does them, with JavaScript and without: the popup's lots field and
 * the money it realises, the remaining lots on the row, the closed part in history; "Close losing" with its
 * confirmation (how many, from the server) leaving only the winning positions.
 */
import { expect, test, type Page } from '@playwright/test';
import { chooseLanguage, fact, forceMarket, openDemo, placeOrder, setPrice } from './fixtures';

/** EURUSD quotes 5 decimals; 0.01 lot is 1,000 units, so one point (0.00001) is 0.01 USD of profit. */
const POINTS = 1e5;
const asPrice = (points: number) => (points / POINTS).toFixed(5);
const pointsOf = (text: string) => Math.round(Number(text.replace(/[^\d.]/g, '')) * POINTS);

test.beforeEach(async ({ page }) => {
  await chooseLanguage(page, 'en');
  await forceMarket('EURUSD', 'open');
  await setPrice('EURUSD', '1.10000');
});

test.afterEach(async () => {
  await forceMarket('EURUSD', 'auto');
});

const holdingRows = (page: Page) => page.getByRole('list', { name: 'Holding' }).getByRole('listitem');

/** Freezes EURUSD `points` above the highest open price of the rows shown, so every figure is exact. */
async function freezeAbove(page: Page, points: number) {
  const opens = await holdingRows(page)
    .getByText(/^Open /)
    .allInnerTexts();
  await forceMarket('EURUSD', 'closed');
  await setPrice('EURUSD', asPrice(Math.max(...opens.map(pointsOf)) + points));
  await page.reload();
}

test('partial close of half a position: the lots field, the money it realises, the rest open, the part in history', async ({ page }) => {
  await openDemo(page);
  const id = await placeOrder(page, { lots: '0.02' });
  await page.goto('/order?type=1');
  await expect(holdingRows(page)).toHaveCount(1);
  await expect(holdingRows(page).first()).toContainText('0.02 lots');
  // 100 points above the fill: 0.02 lot makes +2.00, half of it +1.00.
  await freezeAbove(page, 100);
  await expect(holdingRows(page).first().getByTestId('profit')).toHaveText('+2.00');

  await holdingRows(page).first().getByRole('link').click();
  const dialog = page.getByRole('dialog');
  const lots = dialog.getByRole('spinbutton', { name: 'Lots to close' });
  // All of it by default, stepping by the product's lot step up to what is held.
  await expect(lots).toHaveValue('0.02');
  await expect(lots).toHaveAttribute('step', '0.01');
  await expect(lots).toHaveAttribute('min', '0.01');
  await expect(lots).toHaveAttribute('max', '0.02');
  await expect(dialog.getByTestId('close-estimate')).toHaveText('+2.00');
  // An emptied field is a question, not "close all of it".
  await lots.fill('');
  await dialog.getByRole('button', { name: 'Close position' }).click();
  await expect(page.getByRole('dialog').getByText("Enter lots such as 0.1, on the product's step")).toBeVisible();
  await expect(holdingRows(page).first()).toContainText('0.02 lots');
  await lots.fill('0.01');
  // With JavaScript the amount follows the lots as they are typed; without, "Show amount" asks the server.
  if (test.info().project.name === 'js-on') await expect(dialog.getByTestId('close-estimate')).toHaveText('+1.00');
  await dialog.getByRole('button', { name: 'Show amount' }).click();
  await expect(page.getByRole('dialog').getByTestId('close-estimate')).toHaveText('+1.00');
  await expect(page.getByRole('dialog').getByRole('spinbutton', { name: 'Lots to close' })).toHaveValue('0.01');

  await forceMarket('EURUSD', 'open');
  await page.getByRole('dialog').getByRole('button', { name: 'Close position' }).click();
  await expect(page.getByText(`0.01 lots of position #${id} closed.`)).toBeVisible();
  await expect(page.getByRole('dialog')).toHaveCount(0);
  // The position keeps its number with the rest.
  await expect(holdingRows(page)).toHaveCount(1);
  await expect(holdingRows(page).first()).toContainText('0.01 lots');
  await holdingRows(page).first().getByRole('link').click();
  await expect(page.getByRole('dialog')).toContainText(`Order #${id}`);
  await expect(fact(page, 'Lots')).toHaveText('0.01');
  await page.getByRole('dialog').getByRole('link', { name: 'Close', exact: true }).click();

  await page.getByRole('link', { name: 'History' }).click();
  const history = page.getByRole('list', { name: 'History' }).getByRole('listitem');
  await expect(history).toHaveCount(1);
  await expect(history.first()).toContainText('0.01 lots');
  await expect(history.first()).toContainText(`Part of #${id}`);
  await history.first().getByRole('link').click();
  await expect(fact(page, 'Closed from position')).toHaveText(`#${id}`);
});

test('close all losing: the confirmation says how many; afterwards only the winning position is left', async ({ page }) => {
  await openDemo(page);
  await placeOrder(page, { side: 'sell' });
  await placeOrder(page, { side: 'sell' });
  await placeOrder(page);
  await page.goto('/order?type=1');
  await expect(holdingRows(page)).toHaveCount(3);
  // Above every fill: the buy wins, both sells lose.
  await freezeAbove(page, 200);

  await page.getByRole('link', { name: 'Close losing' }).click();
  await expect(page).toHaveURL(/confirm=close-all&scope=loss/);
  const confirm = page.getByRole('dialog', { name: 'Close all losing positions?' });
  await expect(confirm).toContainText('Positions to close: 2.');
  // Cancelling closes nothing.
  await confirm.getByRole('link', { name: 'Cancel' }).click();
  await expect(page.getByRole('dialog')).toHaveCount(0);
  await expect(holdingRows(page)).toHaveCount(3);

  await page.getByRole('link', { name: 'Close losing' }).click();
  await forceMarket('EURUSD', 'open');
  await page.getByRole('dialog', { name: 'Close all losing positions?' }).getByRole('button', { name: 'Close them' }).click();
  await expect(page.getByText('Positions closed: 2.')).toBeVisible();
  await expect(holdingRows(page)).toHaveCount(1);
  await expect(holdingRows(page).first()).toContainText('Buy up');
  await expect(holdingRows(page).first().getByTestId('profit')).toContainText('+');
});
