/**
 * Web Push through the web app (issue 13, price alerts). Chromium cannot reach a real push service here
 * (no network beyond the package registries), so its own PushManager cannot subscribe: the test plays the
 * phone's push service on this machine (the upstream is started allowing it: tests/e2e/serve.mjs) and hands
 * the app the subscription a browser would, through the same /push action the "Notify this phone" switch
 * posts to. What the upstream then pushes when an alert fires is decrypted with the phone's keys.
 */
import { expect, test } from '@playwright/test';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { decryptPush, phone } from '../push-phone';
import { chooseLanguage, forceMarket, openDemo, setPrice } from './fixtures';

let service: http.Server;
let serviceUrl = '';
const received: { path: string; body: Buffer }[] = [];

test.beforeAll(async () => {
  service = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      received.push({ path: req.url ?? '', body: Buffer.concat(chunks) });
      res.writeHead(201).end();
    });
  });
  await new Promise<void>((r) => service.listen(0, '127.0.0.1', r));
  serviceUrl = `http://127.0.0.1:${(service.address() as AddressInfo).port}`;
});
test.afterAll(async () => {
  service.close();
  await forceMarket('EURUSD', 'auto');
});

test('the alerts screen offers to notify this phone; a subscribed phone gets the fired alert, readable only with its keys', async ({
  page,
}) => {
  await chooseLanguage(page, 'en');
  await forceMarket('EURUSD', 'closed');
  await setPrice('EURUSD', '1.10000');
  await openDemo(page);
  await page.goto('/alerts?code=EURUSD');
  await expect(page.locator('html')).toHaveAttribute('data-hydrated', 'true');
  await expect(page.getByRole('heading', { name: 'Notify this phone' })).toBeVisible();
  await expect(page.getByRole('button', { name: /notif/i })).toBeEnabled();

  // The service worker the switch registers is served from the root and registers there.
  const sw = await page.request.get('/sw.js');
  expect(sw.status()).toBe(200);
  expect(sw.headers()['content-type']).toMatch(/javascript/);
  expect(await page.evaluate(() => navigator.serviceWorker.register('/sw.js', { scope: '/' }).then((r) => r.scope))).toMatch(/\/$/);

  // The key to subscribe with, then the subscription a browser would make, posted as the switch does.
  const { publicKey } = (await (await page.request.get('/push')).json()) as { publicKey: string };
  expect(Buffer.from(publicKey, 'base64url')).toHaveLength(65);
  const p = phone(serviceUrl, 'browser');
  const csrf = await page.locator('input[name="csrf"]').first().inputValue();
  const subscribed = await page.request.post('/push', { form: { intent: 'subscribe', ...p.subscription, csrf } });
  expect(await subscribed.json()).toEqual({ ok: true });
  // Another site cannot subscribe for the trader (a cross-site post), nor can a post without the token.
  expect((await page.request.post('/push', { form: { intent: 'subscribe', ...p.subscription } })).status()).toBe(403);

  await page.getByRole('textbox', { name: 'Alert price' }).fill('1.10200');
  await page.getByRole('button', { name: 'Set alert' }).click();
  await expect(page.getByRole('list', { name: /^Active/ }).getByRole('listitem')).toHaveCount(1);
  received.length = 0;
  await setPrice('EURUSD', '1.10250');
  await expect.poll(() => received.length, { timeout: 10_000 }).toBe(1);
  expect(received[0]!.path).toBe('/push/browser');
  expect(JSON.parse(decryptPush(received[0]!.body, p))).toMatchObject({
    title: expect.stringContaining('EUR/USD'),
    url: '/alerts?code=EURUSD',
  });

  // Unsubscribed: the next alert reaches no phone.
  expect(
    await (await page.request.post('/push', { form: { intent: 'unsubscribe', endpoint: p.subscription.endpoint, csrf } })).json(),
  ).toEqual({
    ok: true,
  });
  await page.getByRole('textbox', { name: 'Alert price' }).fill('1.10400');
  await page.getByRole('button', { name: 'Set alert' }).click();
  await expect(page.getByText('Alert set: EUR/USD rises to 1.10400.')).toBeVisible();
  received.length = 0;
  await setPrice('EURUSD', '1.10450');
  // Fired (listed as triggered), and nothing pushed: a little time for a push that should not come.
  await expect(async () => {
    await page.reload();
    await expect(page.getByRole('list', { name: 'Triggered' }).getByRole('listitem')).toHaveCount(2, { timeout: 1000 });
  }).toPass({ timeout: 10_000 });
  await page.waitForTimeout(500);
  expect(received).toHaveLength(0);
});
