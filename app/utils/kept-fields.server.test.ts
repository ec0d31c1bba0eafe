/**
 * Steps without JavaScript as GET pages (decision 0041): the typed fields and the order ticket with its one-time key
 * are kept on the server, bound to the session; the address carries only an opaque id, and never a password.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { formOf as form, signInWith, withCookie } from './session-store.test-support';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'web-kept-fields-test-'));
process.env.DATA_DIR = dir;
delete process.env.REDIS_URL;
const sessions = await import('./session.server');
const keptFields = await import('./kept-fields.server');
const tickets = await import('~/routes/trade/kept-ticket.server');

afterAll(async () => {
  await sessions.closeSessionStore();
  fs.rmSync(dir, { recursive: true, force: true });
});

const signIn = signInWith(sessions);

describe('kept fields (a code sent)', () => {
  test('the redirect goes back to the page with an opaque id; the page gets the fields but the secrets', async () => {
    const posted = form({ csrf: 'x', intent: 'send-code', account: 'a@b.co', password: 'pw-123456', invite_code: 'NOPE42' });
    const request = new Request('http://localhost/register?from=%2Ftrade', { method: 'POST' });
    const response = await keptFields.redirectKeepingFields(request, posted, ['password'], { headers: { 'Set-Cookie': 'w=1' } });
    expect(response.status).toBe(302);
    expect(response.headers.get('Set-Cookie')).toBe('w=1');
    const location = new URL(response.headers.get('Location')!, 'http://localhost');
    expect(location.pathname).toBe('/register');
    expect(location.searchParams.get('from')).toBe('/trade');
    expect(response.headers.get('Location')).not.toContain('a%40b.co');
    const page = new Request(location);
    expect(await keptFields.keptFields(page)).toEqual({ account: 'a@b.co', invite_code: 'NOPE42' });
  });

  test("another session's page does not get them", async () => {
    const mine = await signIn('k1');
    const theirs = await signIn('k2');
    const request = withCookie(mine, 'http://localhost/forgot');
    const response = await keptFields.redirectKeepingFields(request, form({ account: 'me@b.co' }), []);
    const url = new URL(response.headers.get('Location')!, 'http://localhost').href;
    expect(await keptFields.keptFields(withCookie(mine, url))).toEqual({ account: 'me@b.co' });
    expect(await keptFields.keptFields(withCookie(theirs, url))).toEqual({});
    expect(await keptFields.keptFields(withCookie(mine, 'http://localhost/forgot?kept=nope'))).toEqual({});
  });
});

describe('kept tickets (the order confirmation)', () => {
  test('the confirmation page names the kept ticket; it keeps the one-time key, for its session and instrument only', async () => {
    const mine = await signIn('t1');
    const theirs = await signIn('t2');
    const posted = form({ csrf: 'x', forex_id: '1', code: 'EURUSD', lots: '0.02', leverage: '100', take_profit: '1.2', period: '5min' });
    const url = await tickets.confirmationUrl(withCookie(mine), posted, { code: 'EURUSD', side: 1, key: 'key-1' });
    const location = new URL(url, 'http://localhost');
    expect(location.pathname).toBe('/trade');
    expect([...location.searchParams.keys()].sort()).toEqual(['code', 'confirm', 'period']);
    expect(url).not.toContain('key-1');
    const id = location.searchParams.get('confirm');
    const kept = await tickets.keptTicket(withCookie(mine), id, 'EURUSD');
    expect(kept).toMatchObject({ code: 'EURUSD', side: 1, key: 'key-1', values: { lots: '0.02', leverage: '100', take_profit: '1.2' } });
    // Read again (Back, reload): the same key.
    expect((await tickets.keptTicket(withCookie(mine), id, 'EURUSD'))?.key).toBe('key-1');
    expect(await tickets.keptTicket(withCookie(theirs), id, 'EURUSD')).toBeNull();
    expect(await tickets.keptTicket(withCookie(mine), id, 'XAUUSD')).toBeNull();
  });

  test('an unknown instrument has nothing to confirm', async () => {
    const mine = await signIn('t3');
    expect(await tickets.confirmationUrl(withCookie(mine), form({}), { code: null, side: 1, key: 'k' })).toBe('/trade');
  });
});
