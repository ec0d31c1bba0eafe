/**
 * The anti-loss check's caching and safety, against a scripted HTTP server standing in for the upstream's
 * `loss_check` (the real upstream cannot fail or count calls on demand; the browser test uses the real one).
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, expect, test, vi } from 'vitest';
import type { AppLoadContext } from '@remix-run/node';
import { lossCheckRedirect, LOSS_CHECK_TTL_MS, resetLossCheck } from './loss-check.server';

let answer: unknown = { code: 1, msg: 'ok', data: { status: 0, loss_url: '' } };
let calls = 0;
let server: http.Server;
let context: AppLoadContext;

beforeAll(async () => {
  server = http.createServer((_req, res) => {
    calls += 1;
    res.setHeader('content-type', 'application/json');
    res.end(typeof answer === 'string' ? answer : JSON.stringify(answer));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  context = { upstream: { baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}` } };
});
afterAll(() => {
  server.closeAllConnections();
  server.close();
});
beforeEach(() => {
  resetLossCheck();
  calls = 0;
});

const page = (path = '/') => new Request(`http://localhost:3000${path}`);

test('status 0: no redirect; the answer is reused for a few seconds, then asked again', async () => {
  answer = { code: 1, msg: 'ok', data: { status: 0, loss_url: 'https://example.com/x' } };
  expect(await lossCheckRedirect(page(), context, 1000)).toBeNull();
  expect(await lossCheckRedirect(page('/trade'), context, 1000 + LOSS_CHECK_TTL_MS - 1)).toBeNull();
  expect(calls).toBe(1);
  await lossCheckRedirect(page(), context, 1000 + LOSS_CHECK_TTL_MS);
  expect(calls).toBe(2);
});

test('a non-zero status sends every page to loss_url, but not the target page itself', async () => {
  answer = { code: 1, msg: 'ok', data: { status: 1, loss_url: 'http://localhost:3000/notice' } };
  expect(await lossCheckRedirect(page('/mine'), context, 0)).toBe('http://localhost:3000/notice');
  expect(await lossCheckRedirect(page('/notice'), context, 1)).toBeNull();
});

test('concurrent pages share one question', async () => {
  answer = { code: 1, msg: 'ok', data: { status: 0, loss_url: '' } };
  await Promise.all(Array.from({ length: 20 }, () => lossCheckRedirect(page(), context, 0)));
  expect(calls).toBe(1);
});

test('a script URL is never a destination; an upstream that fails does not block the site', async () => {
  answer = { code: 1, msg: 'ok', data: { status: 1, loss_url: 'javascript:alert(1)' } };
  expect(await lossCheckRedirect(page(), context, 0)).toBeNull();
  resetLossCheck();
  const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
  answer = 'not json';
  expect(await lossCheckRedirect(page(), context, 0)).toBeNull();
  resetLossCheck();
  answer = { code: 1000, msg: 'busy', data: null };
  expect(await lossCheckRedirect(page(), context, 0)).toBeNull();
  expect(warn).toHaveBeenCalledTimes(2);
  warn.mockRestore();
});
