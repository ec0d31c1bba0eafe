/** What the chart-lines tests share: a position with a take profit and a stop loss, placed as a trader does. */
import { expect, test, type Locator, type Page } from '@playwright/test';
import { confirmOrder, ticketReady } from './fixtures';

/** A market buy of 0.10 lot of EUR/USD with a take profit and a stop loss, placed on the ticket; returns its number. */
export async function buyWithStops(page: Page, takeProfit: string, stopLoss: string): Promise<string> {
  await page.goto('/trade?code=EURUSD');
  if (test.info().project.name === 'js-on') await ticketReady(page);
  const ticket = page.getByRole('form', { name: 'Place an order' });
  await ticket.getByRole('radio', { name: 'Market price' }).check();
  await ticket.getByRole('spinbutton', { name: 'Lots', exact: true }).fill('0.10');
  await ticket.getByRole('spinbutton', { name: 'Take profit' }).fill(takeProfit);
  await ticket.getByRole('spinbutton', { name: 'Stop loss' }).fill(stopLoss);
  await ticket.getByRole('button', { name: 'Buy up' }).click();
  await confirmOrder(page);
  const placed = page.getByRole('dialog', { name: 'Your order has been confirmed' });
  await expect(placed).toBeVisible();
  const id = /(\d+)/.exec(await placed.getByText(/Order number/).innerText())?.[1];
  expect(id).toBeTruthy();
  return id!;
}

/**
 * A trader reaching for the chart (a mouse over it) once the page is interactive: the canvas chart is loaded
 * then and takes the SVG's place (decision 0021).
 */
export async function reachForChart(page: Page, figure: Locator) {
  await expect(page.locator('html')).toHaveAttribute('data-hydrated', 'true');
  await figure.hover();
  await expect(figure.locator('canvas').first()).toBeVisible({ timeout: 10_000 });
}
