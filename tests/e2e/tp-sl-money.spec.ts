/**
 * Money at the take profit and stop loss (issue 13): on the order ticket and in the popup of a holding
 * position, the profit at the take profit and the loss at the stop loss in USD and their distance in pips,
 * before anything is placed or saved. Live with JavaScript; drawn by the server without it ("Update
 * estimates" on the ticket, "Show profit and loss" in the popup). Every expected figure is worked out here from the
 * prices, the contract size (100,000 a lot for the seeded currency pairs) and the lots, not by the app's code.
 */
import { expect, test, type Locator, type Page } from '@playwright/test';
import { chooseLanguage, fact, forceMarket, openDemo, placeOrder, setPrice, ticketReady } from './fixtures';

const UNITS_PER_LOT = 100_000;

/** A signed amount as the app shows it in English: 2 to 6 decimals, "+" or "-". */
const signed = (usd: number) =>
  `${new Intl.NumberFormat('en', { signDisplay: 'exceptZero', minimumFractionDigits: 2, maximumFractionDigits: 6 }).format(usd)} USD`;

/** Points (the last decimal) between two EUR/USD prices, and the USD they make on `lots` (a whole number of cents). */
const eurusdPoints = (from: string, to: string) => Math.round((Number(to) - Number(from)) * 1e5);
const eurusdUsd = (points: number, lots: string) => Math.round((points * UNITS_PER_LOT * Number(lots) * 100) / 1e5) / 100;
const asPrice = (points: number) => (points / 1e5).toFixed(5);

async function openTrade(page: Page, code: string) {
  await page.goto(`/trade?code=${code}`);
  if (test.info().project.name === 'js-on') await ticketReady(page);
  return page.getByRole('form', { name: 'Place an order' });
}

/** Without JavaScript the server works the figures out for the values on screen. */
async function update(page: Page, javaScriptEnabled: boolean) {
  if (!javaScriptEnabled) await page.getByRole('button', { name: 'Update estimates' }).click();
}

async function expectNote(note: Locator, usd: number, pips: string, side?: string) {
  await expect(note).toContainText(signed(usd));
  await expect(note).toContainText(`${pips} pips`);
  if (side) await expect(note).toContainText(side);
}

test.beforeEach(async () => {
  await forceMarket('EURUSD', 'open');
  await forceMarket('USDJPY', 'open');
  await setPrice('EURUSD', '1.10000');
});

test.afterAll(async () => {
  await forceMarket('EURUSD', 'auto');
  await forceMarket('USDJPY', 'auto');
});

test('the ticket shows the money and pips at its take profit and stop loss before placing', async ({ page, javaScriptEnabled }) => {
  await chooseLanguage(page, 'en');
  await openDemo(page);
  const ticket = await openTrade(page, 'EURUSD');
  const takeProfitNote = ticket.getByTestId('take-profit-money');
  const stopLossNote = ticket.getByTestId('stop-loss-money');

  // A pending buy at 1.09000, 0.10 lot: the figures are from the target price.
  await ticket.getByRole('radio', { name: 'Pending order' }).check();
  await ticket.getByRole('spinbutton', { name: 'Target price' }).fill('1.09000');
  await ticket.getByRole('spinbutton', { name: 'Lots', exact: true }).fill('0.10');
  await ticket.getByRole('spinbutton', { name: 'Take profit' }).fill('1.09500');
  await ticket.getByRole('spinbutton', { name: 'Stop loss' }).fill('1.08700');
  await update(page, javaScriptEnabled);
  const tpPoints = eurusdPoints('1.09000', '1.09500'); // 500 points, 50.0 pips
  const slPoints = eurusdPoints('1.09000', '1.08700');
  await expectNote(takeProfitNote, eurusdUsd(tpPoints, '0.10'), '50.0', 'if you buy up');
  await expectNote(stopLossNote, eurusdUsd(slPoints, '0.10'), '30.0', 'if you buy up');
  expect(eurusdUsd(tpPoints, '0.10')).toBe(50);
  // The note is the field's description too.
  await expect(ticket.getByRole('spinbutton', { name: 'Take profit' })).toHaveAccessibleDescription(/At take profit \+50\.00 USD/);

  // Ten times the lots, ten times the money; the pips stay.
  await ticket.getByRole('spinbutton', { name: 'Lots', exact: true }).fill('1');
  await update(page, javaScriptEnabled);
  await expectNote(takeProfitNote, eurusdUsd(tpPoints, '1'), '50.0');
  await expectNote(stopLossNote, eurusdUsd(slPoints, '1'), '30.0');

  // Stops on the other side of the price belong to a sell: still a profit at the take profit.
  await ticket.getByRole('spinbutton', { name: 'Take profit' }).fill('1.08000');
  await ticket.getByRole('spinbutton', { name: 'Stop loss' }).fill('1.09250');
  await update(page, javaScriptEnabled);
  // A sell gains as the price falls: (1.09000 − 1.08000) and (1.09000 − 1.09250) on 1 lot.
  await expectNote(takeProfitNote, eurusdUsd(eurusdPoints('1.08000', '1.09000'), '1'), '100.0', 'if you buy low');
  await expectNote(stopLossNote, eurusdUsd(eurusdPoints('1.09250', '1.09000'), '1'), '25.0', 'if you buy low');

  // A market order: from the price on screen, which moves; read both until they agree.
  await ticket.getByRole('radio', { name: 'Market price' }).check();
  await ticket.getByRole('spinbutton', { name: 'Lots', exact: true }).fill('0.20');
  const shown = (await page.getByTestId('best-price').innerText()).replace(/,/g, '');
  const takeProfit = asPrice(eurusdPoints('0', shown) + 400);
  await ticket.getByRole('spinbutton', { name: 'Take profit' }).fill(takeProfit);
  await ticket.getByRole('spinbutton', { name: 'Stop loss' }).fill('');
  await update(page, javaScriptEnabled);
  await expect(async () => {
    const price = (await page.getByTestId('best-price').innerText()).replace(/,/g, '');
    const points = eurusdPoints(price, takeProfit);
    const note = await takeProfitNote.innerText();
    expect(note).toContain(signed(eurusdUsd(points, '0.20')));
    expect(note).toContain(`${(Math.abs(points) / 10).toFixed(1)} pips`);
  }).toPass({ timeout: 10_000 });
  await expect(stopLossNote).toHaveText('');

  // The confirmation says it again for the side pressed, before anything is placed.
  await ticket.getByRole('radio', { name: 'Pending order' }).check();
  await ticket.getByRole('spinbutton', { name: 'Target price' }).fill('1.09000');
  await ticket.getByRole('spinbutton', { name: 'Lots', exact: true }).fill('0.10');
  await ticket.getByRole('spinbutton', { name: 'Take profit' }).fill('1.09500');
  await ticket.getByRole('spinbutton', { name: 'Stop loss' }).fill('1.08700');
  await ticket.getByRole('button', { name: 'Buy up (long)', exact: true }).click();
  const confirmation = page.getByRole('dialog', { name: 'Confirm your order' });
  await expectNote(confirmation.getByTestId('take-profit-money'), 50, '50.0');
  await expectNote(confirmation.getByTestId('stop-loss-money'), -30, '30.0');
  await confirmation.getByRole('button', { name: 'Cancel' }).click();
  await expect(page.getByRole('dialog')).toHaveCount(0);
  await expect(page.getByRole('spinbutton', { name: 'Take profit' })).toHaveValue('1.09500');
  await page.goto('/order?type=0');
  await expect(page.getByText('No pending orders')).toBeVisible();
});

test('USD/JPY: the yen at the take profit is turned into USD at that price', async ({ page, javaScriptEnabled }) => {
  await chooseLanguage(page, 'en');
  const ticket = await openTrade(page, 'USDJPY');
  await ticket.getByRole('radio', { name: 'Pending order' }).check();
  await ticket.getByRole('spinbutton', { name: 'Target price' }).fill('150.000');
  await ticket.getByRole('spinbutton', { name: 'Lots', exact: true }).fill('1');
  await ticket.getByRole('spinbutton', { name: 'Take profit' }).fill('151.000');
  await ticket.getByRole('spinbutton', { name: 'Stop loss' }).fill('149.500');
  await update(page, javaScriptEnabled);
  // 1 lot × 100,000 × 1.000 JPY = 100,000 JPY, at 151 JPY a dollar; −50,000 JPY at 149.5. Rounded to the micro-dollar.
  const usd = (yen: number, rate: number) => Math.round((yen / rate) * 1e6) / 1e6;
  await expectNote(ticket.getByTestId('take-profit-money'), usd(100_000, 151), '100.0', 'if you buy up');
  await expectNote(ticket.getByTestId('stop-loss-money'), usd(-50_000, 149.5), '50.0', 'if you buy up');
});

test('the popup of a holding position shows the money at the take profit and stop loss typed', async ({ page, javaScriptEnabled }) => {
  await chooseLanguage(page, 'en');
  await openDemo(page);
  const id = await placeOrder(page, { lots: '0.02' });
  await page.goto(`/order?type=1&detail=${id}`);
  const popup = page.getByRole('dialog');
  await expect(popup.getByRole('heading', { name: /EUR\/USD/ })).toBeVisible();
  const entry = (await fact(page, 'Open price').innerText()).replace(/,/g, '');
  const entryPoints = eurusdPoints('0', entry);
  const takeProfit = asPrice(entryPoints + 300);
  const stopLoss = asPrice(entryPoints - 150);

  await popup.getByRole('textbox', { name: 'Take profit' }).fill(takeProfit);
  await popup.getByRole('textbox', { name: 'Stop loss' }).fill(stopLoss);
  if (!javaScriptEnabled) await popup.getByRole('button', { name: 'Show profit and loss' }).click();
  // 300 points × 100,000 × 0.02 lot = 6.00 USD; −150 points = −3.00 USD.
  await expectNote(page.getByRole('dialog').getByTestId('take-profit-money'), eurusdUsd(300, '0.02'), '30.0');
  await expectNote(page.getByRole('dialog').getByTestId('stop-loss-money'), eurusdUsd(-150, '0.02'), '15.0');
  expect(eurusdUsd(300, '0.02')).toBe(6);
  await expect(page.getByRole('dialog').getByRole('textbox', { name: 'Take profit' })).toHaveValue(takeProfit);
  // Nothing was saved by looking.
  await expect(fact(page, 'Take profit')).toHaveText('Not set');

  // Saved, the popup shows them as the order's own.
  await page.getByRole('dialog').getByRole('button', { name: 'Save take profit and stop loss' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Take profit and stop loss saved.' })).toBeVisible();
  await expect(fact(page, 'Take profit')).toHaveText(takeProfit);
  await expectNote(page.getByRole('dialog').getByTestId('take-profit-money'), 6, '30.0');
});
