/**
 * An order sent while the upstream is frozen: the post answers within one timeout, the ticket stays
 * with the same one-time key and says the outcome is unknown; the order placed when the upstream
 * resumes is the one a retry returns, never a second. Runs against a second web server whose upstream
 * traffic passes a freezable proxy (./frozen-upstream.ts: the one simulated fault).
 */
import { expect, test } from '@playwright/test';
import { chooseLanguage, confirmOrder, forceMarket, openDemo, setPrice, upstreamUrl, ticketReady } from './fixtures';
import { startFreezableProxy, startWebServer, type FreezableUpstream } from './frozen-upstream';

const PORT = Number(process.env.E2E_PORT ?? 3210) + 1;
let proxy: FreezableUpstream;
let web: Awaited<ReturnType<typeof startWebServer>>;

test.use({ baseURL: `http://localhost:${PORT}` });

test.beforeAll(async () => {
  proxy = await startFreezableProxy(upstreamUrl());
  web = await startWebServer(PORT, proxy.url);
});

test.afterAll(async () => {
  await web?.stop();
  await proxy?.close();
  await forceMarket('EURUSD', 'auto');
});

test('an order the upstream does not answer keeps its ticket and key, and its retry is the same order', async ({
  page,
  javaScriptEnabled,
}) => {
  test.setTimeout(90_000);
  await chooseLanguage(page, 'en');
  await forceMarket('EURUSD', 'open');
  await setPrice('EURUSD', '1.10000');
  await openDemo(page);
  await page.goto('/trade?code=EURUSD');
  if (javaScriptEnabled) await ticketReady(page);
  const ticket = page.getByRole('form', { name: 'Place an order' });
  await ticket.getByRole('radio', { name: 'Market price' }).check();
  await ticket.getByRole('spinbutton', { name: 'Lots', exact: true }).fill('0.02');
  const buy = ticket.getByRole('button', { name: 'Buy up' });
  await expect(buy).toBeEnabled({ timeout: 10_000 });
  const key = await ticket.locator('input[name="idempotency_key"]').inputValue();

  // The confirmation (one-tap trading off) shows before the upstream stops answering; its "Place order" is sent into it.
  await buy.click();
  const confirmation = page.getByRole('dialog', { name: 'Confirm your order' });
  await expect(confirmation).toBeVisible();
  proxy.freeze();
  await confirmation.getByRole('button', { name: 'Place order' }).click();
  // One timeout (8 s) and a little: not one per upstream call of the page.
  await expect(ticket.getByRole('alert')).toContainText('We could not confirm your order', { timeout: 11_000 });
  await expect(ticket.getByRole('link', { name: 'Check your orders' })).toHaveAttribute('href', '/order?type=1');
  await expect(ticket.getByRole('spinbutton', { name: 'Lots', exact: true })).toHaveValue('0.02');
  expect(await ticket.locator('input[name="idempotency_key"]').inputValue()).toBe(key);

  // The upstream resumes and places the order it was sent; the trader sends the ticket again.
  proxy.thaw();
  await expect(buy).toBeEnabled({ timeout: 20_000 });
  await buy.click();
  await confirmOrder(page);
  const placed = page.getByRole('dialog', { name: 'Your order has been confirmed' });
  await expect(placed).toBeVisible();
  const id = /(\d+)/.exec(await placed.getByText(/Order number/).innerText())?.[1];

  await page.goto('/order?type=1');
  const rows = page.getByRole('list', { name: 'Holding' }).getByRole('listitem');
  await expect(rows).toHaveCount(1);
  await expect(rows.first()).toContainText('0.02 lots');
  await expect(rows.first().getByRole('link')).toHaveAttribute('href', new RegExp(`detail=${id}\\b`));
});
