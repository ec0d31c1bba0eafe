/** The anti-loss check (spec §7, §8): switched on by the back office, every page sends the browser to its address. */
import { expect, test } from '@playwright/test';
import { setSetting } from './fixtures';

test('a switched-on anti-loss check sends pages to its address; switched off, the app is back', async ({ page, baseURL }) => {
  // Another host name of this very server, so the browser can load it (the machine has no other network).
  const target = `${baseURL!.replace('localhost', '127.0.0.1')}/healthz`;
  await setSetting('loss_url', target);
  await setSetting('loss_status', '1');
  try {
    // The web server asks at most every few seconds.
    await expect(async () => {
      await page.goto('/trade?code=EURUSD');
      expect(page.url()).toBe(target);
    }).toPass({ timeout: 15_000 });
  } finally {
    await setSetting('loss_status', '0');
    // Each web process keeps the check's answer for a few seconds: the app is back once none of them still
    // sends pages away (else the next test's first page can land on the target).
    await expect(async () => {
      for (let i = 0; i < 6; i++) expect((await page.request.get('/login', { maxRedirects: 0 })).status()).toBe(200);
    }).toPass({ timeout: 15_000 });
  }
  await expect(async () => {
    await page.goto('/');
    expect(new URL(page.url()).pathname).toBe('/');
  }).toPass({ timeout: 15_000 });
  await expect(page.getByRole('navigation').first()).toBeVisible();
});
