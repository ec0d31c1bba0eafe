/**
 * The upstream client against a scripted HTTP server: the real upstream cannot be made to time out,
 * drop connections or send malformed envelopes on demand, so this test simulates those faults.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import * as account from '#contract/calls/account';
import * as trade from '#contract/calls/trade';
import { USER_AGENT_HEADER } from '#contract/calls/security';
import { callUpstream, MAX_USER_AGENT, UpstreamError, UpstreamUnavailable } from './client.server';

let script: (req: http.IncomingMessage, body: string, res: http.ServerResponse) => void = () => {};
let server: http.Server;
let baseUrl: string;

beforeAll(async () => {
  server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => script(req, body, res));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => {
  server.closeAllConnections();
  server.close();
});

const json = (res: http.ServerResponse, value: unknown) => {
  res.setHeader('content-type', 'application/json');
  res.end(JSON.stringify(value));
};
const user = {
  id: 1,
  uid: '12345678',
  email: 'a@b.co',
  mobile: null,
  area_id: null,
  is_demo: 0,
  invite_code: 'ABCDEF',
  created_at: '2026-01-01T00:00:00.000Z',
};

describe('callUpstream', () => {
  test('sends lang and authorization; GET carries t; success returns parsed data', async () => {
    let seen: http.IncomingMessage | undefined;
    script = (req, _b, res) => {
      seen = req;
      json(res, { code: 1, msg: 'ok', data: user });
    };
    const out = await callUpstream({ baseUrl }, account.info, {}, { lang: 'ar', token: 'tok' });
    expect(out.data).toEqual(user);
    expect(seen!.headers.lang).toBe('ar');
    expect(seen!.headers.authorization).toBe('tok');
    expect(new URL(seen!.url!, baseUrl).searchParams.get('t')).toMatch(/^\d+$/);
    // The answer is read as sent: no compressed body, which this client does not decode.
    expect(seen!.headers['accept-encoding']).toBe('identity');
  });

  test("passes the browser's user agent beside its address, printable and trimmed to a sane length (issue 38)", async () => {
    const seen: http.IncomingHttpHeaders[] = [];
    script = (req, _b, res) => {
      seen.push(req.headers);
      json(res, { code: 1, msg: 'ok', data: user });
    };
    const ua = 'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0 Mobile Safari/537.36';
    await callUpstream({ baseUrl }, account.info, {}, { lang: 'en', token: 'tok', clientIp: '203.0.113.9', userAgent: ua });
    await callUpstream({ baseUrl }, account.info, {}, { lang: 'en', token: 'tok', userAgent: `  Bot\u00e9\u0007/1 ${'x'.repeat(1000)}` });
    await callUpstream({ baseUrl }, account.info, {}, { lang: 'en', token: 'tok' });
    expect(seen[0]!['x-forwarded-for']).toBe('203.0.113.9');
    expect(seen[0]![USER_AGENT_HEADER]).toBe(ua);
    expect(seen[1]![USER_AGENT_HEADER]).toMatch(/^Bot \/1 x+$/);
    expect(seen[1]![USER_AGENT_HEADER]).toHaveLength(MAX_USER_AGENT);
    expect(seen[2]![USER_AGENT_HEADER]).toBeUndefined();
    // The server's own user agent stays the one a firewall expects.
    expect(seen[0]!['user-agent']).toBe('lotfx-web');
  });

  test('POST sends a form body', async () => {
    let body = '';
    let type = '';
    script = (req, b, res) => {
      body = b;
      type = String(req.headers['content-type']);
      json(res, { code: 1, msg: 'ok', data: { token: 't', user } });
    };
    await callUpstream({ baseUrl }, account.loginForU, { account: 'a@b.co', password: 'secret1', login_type: 'email' }, { lang: 'en' });
    expect(type).toBe('application/x-www-form-urlencoded');
    expect(new URLSearchParams(body).get('account')).toBe('a@b.co');
  });

  test('code 999 raises a session-expired error', async () => {
    script = (_r, _b, res) => json(res, { code: 999, msg: 'Your session has ended.', data: null });
    const error = await callUpstream({ baseUrl }, account.info, {}, { lang: 'en', token: 'old' }).catch((e) => e);
    expect(error).toBeInstanceOf(UpstreamError);
    expect(error).toMatchObject({ code: 999, msg: 'Your session has ended.', sessionExpired: true });
  });

  test('another code raises its message for a toast', async () => {
    script = (_r, _b, res) => json(res, { code: 3002, msg: 'Le marché est fermé.', data: null });
    const error = await callUpstream({ baseUrl }, account.info, {}, { lang: 'fr' }).catch((e) => e);
    expect(error).toMatchObject({ code: 3002, msg: 'Le marché est fermé.', sessionExpired: false });
  });

  test('extras beside data are read (my_deal totals)', async () => {
    script = (_r, _b, res) => json(res, { code: 1, msg: 'ok', data: [], total: 0, all_fact_profits: 0, balance: 100000 });
    const out = await callUpstream({ baseUrl }, trade.myDeal, { status: 1 }, { lang: 'en', token: 't' });
    expect(out.extras).toEqual({ total: 0, all_fact_profits: 0, balance: 100000 });
  });

  test('no answer within the timeout is a timeout', async () => {
    script = () => {}; // never answers: a black-holed upstream
    const error = await callUpstream({ baseUrl }, account.info, {}, { lang: 'en', timeoutMs: 150 }).catch((e) => e);
    expect(error).toBeInstanceOf(UpstreamUnavailable);
    expect(error.reason).toBe('timeout');
  });

  test('a refused connection is a network error', async () => {
    const closed = http.createServer();
    await new Promise<void>((r) => closed.listen(0, '127.0.0.1', r));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((r) => closed.close(r));
    const error = await callUpstream({ baseUrl: `http://127.0.0.1:${port}` }, account.info, {}, { lang: 'en' }).catch((e) => e);
    expect(error).toMatchObject({ reason: 'network' });
  });

  test.each([
    ['not JSON', (res: http.ServerResponse) => res.end('<html>bad gateway</html>')],
    ['not an envelope', (res: http.ServerResponse) => json(res, { hello: 'world' })],
    ['data against the schema', (res: http.ServerResponse) => json(res, { code: 1, msg: 'ok', data: { id: 'x' } })],
  ])('a malformed answer (%s) is reported as malformed', async (_name, answer) => {
    script = (_r, _b, res) => answer(res);
    const error = await callUpstream({ baseUrl }, account.info, {}, { lang: 'en' }).catch((e) => e);
    expect(error).toBeInstanceOf(UpstreamUnavailable);
    expect(error.reason).toBe('malformed');
  });

  test('an HTTP error status is reported with its status', async () => {
    script = (_r, _b, res) => {
      res.statusCode = 502;
      res.end();
    };
    const error = await callUpstream({ baseUrl }, account.info, {}, { lang: 'en' }).catch((e) => e);
    expect(error).toMatchObject({ reason: 'http', status: 502, notOffered: false });
    expect(String(error.message)).toContain('502');
  });

  test('an HTTP 404 says the upstream does not offer the call (a broker without our own calls)', async () => {
    script = (_r, _b, res) => {
      res.statusCode = 404;
      res.end();
    };
    const error = await callUpstream({ baseUrl }, account.info, {}, { lang: 'en' }).catch((e) => e);
    expect(error).toMatchObject({ reason: 'http', status: 404, notOffered: true });
  });

  test('a redirect is not followed: an order is never sent on elsewhere, and the call fails as unavailable', async () => {
    const seen: string[] = [];
    script = (req, _b, res) => {
      seen.push(`${req.method} ${req.url}`);
      res.statusCode = 302;
      res.setHeader('location', '/elsewhere');
      res.end('moved');
    };
    const error = await callUpstream(
      { baseUrl },
      trade.submit,
      { type: 1, cont: '0.01', forex_id: 1, status: 1, multiple: 100 },
      { lang: 'en', token: 't' },
    ).catch((e) => e);
    expect(error).toMatchObject({ reason: 'http' });
    expect(seen).toEqual(['POST /v1/api/forex/submit']);
  });
});
