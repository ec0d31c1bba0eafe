/**
 * Code 999 ends the session and sends the user to /login?from=<path>, except for calls flagged initial.
 * A scripted upstream answers 999 (the real one does too, but only for a token we would have to revoke).
 */
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import * as account from '#contract/calls/account';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'web-api-test-'));
process.env.DATA_DIR = dir;
const { upstreamApi, upstreamFallback, UpstreamError, UpstreamUnavailable } = await import('./api.server');
const sessions = await import('~/utils/session.server');

let server: http.Server;
let baseUrl = '';
beforeAll(async () => {
  server = http.createServer((_req, res) => {
    res.setHeader('content-type', 'application/json');
    res.end(JSON.stringify({ code: 999, msg: 'expired', data: null }));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => {
  server.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

const user = {
  id: 7,
  uid: '12345678',
  email: 'a@b.co',
  mobile: null,
  area_id: null,
  is_demo: 0 as const,
  invite_code: 'ABCDEF',
  created_at: '2026-01-01T00:00:00.000Z',
};

async function signedInRequest(url: string) {
  const response = await sessions.startSession(new Request('http://localhost/login'), { token: 'tok', user }, '/');
  const cookie = response.headers.get('Set-Cookie')!.split(';')[0]!;
  return new Request(url, { headers: { Cookie: cookie } });
}

test('999 deletes the session and redirects to /login?from=<the page>', async () => {
  const request = await signedInRequest('http://localhost/order?type=0');
  const api = await upstreamApi(request, { upstream: { baseUrl } });
  const thrown = await api.call(account.info, {}).catch((e) => e);
  expect(thrown).toBeInstanceOf(Response);
  expect(thrown.status).toBe(302);
  expect(thrown.headers.get('Location')).toBe('/login?from=%2Forder%3Ftype%3D0');
  expect(thrown.headers.get('Set-Cookie')).toMatch(/__Host-sid=;/);
  expect(await sessions.getSignedIn(request)).toBeNull();
});

test('a call flagged initial keeps the user where they are and raises the error instead', async () => {
  const request = await signedInRequest('http://localhost/');
  const api = await upstreamApi(request, { upstream: { baseUrl } });
  const thrown = await api.call(account.info, {}, { initial: true }).catch((e) => e);
  expect(thrown).toBeInstanceOf(UpstreamError);
  expect(await sessions.getSignedIn(request)).not.toBeNull();
});

test('a page part that can be left out falls back only on an upstream refusal or outage; the end of a session and bugs go on', async () => {
  const request = await signedInRequest('http://localhost/order?type=1');
  const api = await upstreamApi(request, { upstream: { baseUrl } });
  const fallback = upstreamFallback('fallback', 'a test part');
  // 999 is the session's end: its redirect is not swallowed.
  const ended = await api
    .call(account.info, {})
    .then(() => 'answered', fallback)
    .catch((e) => e);
  expect(ended).toBeInstanceOf(Response);
  expect(fallback(new UpstreamUnavailable('timeout', 'info', 'slow'))).toBe('fallback');
  expect(fallback(new UpstreamError(1003, 'not found', 'info'))).toBe('fallback');
  const bug = new TypeError('x.trim is not a function');
  expect(() => fallback(bug)).toThrow(bug);
});

test('once the upstream is silent in a request, its later calls fail at once instead of waiting again', async () => {
  const silent = http.createServer(() => {}); // accepts, never answers
  await new Promise<void>((r) => silent.listen(0, '127.0.0.1', r));
  try {
    const context = { upstream: { baseUrl: `http://127.0.0.1:${(silent.address() as AddressInfo).port}` } };
    const api = await upstreamApi(new Request('http://localhost/trade'), context);
    // An optional call may run out of its short wait without marking the upstream down.
    expect(await api.call(account.info, {}, { timeoutMs: 50, optional: true }).catch((e) => e)).toBeInstanceOf(UpstreamUnavailable);
    expect(context).not.toHaveProperty('upstreamOutage', true);
    expect(await api.call(account.info, {}, { timeoutMs: 100 }).catch((e) => e)).toMatchObject({ reason: 'timeout' });
    expect(context).toHaveProperty('upstreamOutage', true);
    const started = performance.now();
    expect(await api.call(account.info, {}).catch((e) => e)).toBeInstanceOf(UpstreamUnavailable);
    expect(performance.now() - started).toBeLessThan(1000); // not another 8 s
  } finally {
    silent.closeAllConnections();
    silent.close();
  }
});
