/** The phone bench's signed-in pages: a demo account with open positions, opened the way a visitor does it (in any language). */
import type { Page } from '@playwright/test';
import { EntryMode, Side } from '../contract/enums';

/** Opens a demo account from the log-in page and places `positions` market orders of 0.01 lot from the trade screen. */
export async function openDemoWithPositions(page: Page, origin: string, positions: number) {
  await page.goto(`${origin}/login`);
  await Promise.all([page.waitForURL((u) => u.pathname !== '/login'), page.locator('form[action="/demo"] button[type="submit"]').click()]);
  for (let i = 0; i < positions; i++) {
    await page.goto(`${origin}/trade?code=EURUSD`);
    // The ticket's code comes after the page (routes/trade/route.tsx): its own ticket, not the server's.
    const ticket = page.locator('form.order-form[data-live]');
    await ticket.waitFor();
    await ticket.locator(`.entry-mode input[type="radio"][value="${EntryMode.Market}"]`).check();
    await ticket.locator('input[name="lots"]').fill('0.01');
    await ticket.locator(`button[name="side"][value="${Side.Buy}"]`).click();
    // One-tap trading is off: the order's confirmation first, then its "Place order".
    await ticket.locator(`.order-confirm button[name="side"][value="${Side.Buy}"]`).click();
    await page.waitForURL((u) => u.searchParams.has('placed'));
    await page.locator('[role="dialog"][aria-labelledby="order-placed-title"]').waitFor();
  }
}
