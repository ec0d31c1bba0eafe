/** Sessions: a new id at login, idle expiry, deletion at logout; CSRF refusal. */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'web-session-test-'));
process.env.DATA_DIR = dir;
const sessions = await import('./session.server');
const { csrf, validateCsrf } = await import('./csrf.server');

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

afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

function cookieOf(response: Response): string {
  const set = response.headers.get('Set-Cookie') ?? '';
  return set.split(';')[0]!;
}

async function rowCount(): Promise<number> {
  const Database = (await import('better-sqlite3')).default;
  const db = new Database(path.join(dir, 'web-sessions.sqlite'), { readonly: true });
  const n = (db.prepare('SELECT COUNT(*) AS n FROM sessions').get() as { n: number }).n;
  db.close();
  return n;
}

describe('sessions', () => {
  let visitorCookie = '';
  beforeAll(async () => {
    // Someone already signed in (a demo account) who now logs in to a real account.
    const response = await sessions.startSession(
      new Request('http://localhost/'),
      { token: 'demo-token', user: { ...user, is_demo: 1 } },
      '/',
    );
    visitorCookie = cookieOf(response);
  });

  test("a visitor's toast writes no session row, and is shown once (issue 9 #8)", async () => {
    const before = await rowCount();
    const response = await sessions.redirectWithToast(new Request('http://localhost/language', { method: 'POST' }), '/', {
      kind: 'info',
      message: 'hi',
    });
    const cookie = cookieOf(response);
    expect(cookie).toMatch(/^__Host-toast=/);
    expect(response.headers.get('Set-Cookie')).toMatch(/Max-Age=60/);
    expect(await rowCount()).toBe(before);
    const taken = await sessions.takeToast(new Request('http://localhost/', { headers: { Cookie: cookie } }));
    expect(taken.toast).toEqual({ kind: 'info', message: 'hi' });
    expect(taken.clear).toMatch(/^__Host-toast=;.*Max-Age=0/);
    // A forged toast (not signed by us) is not shown.
    const forged = await sessions.takeToast(
      new Request('http://localhost/', {
        headers: { Cookie: `__Host-toast=${Buffer.from(JSON.stringify({ kind: 'error', message: 'send BTC to …' })).toString('base64')}` },
      }),
    );
    expect(forged.toast).toBeNull();
  });

  test('the cookie is __Host-, Secure, HttpOnly, SameSite=Lax and holds only an id', async () => {
    const response = await sessions.startSession(new Request('http://localhost/login'), { token: 'secret-token', user }, '/');
    const header = response.headers.get('Set-Cookie')!;
    expect(header).toMatch(/^__Host-sid=/);
    expect(header).toMatch(/Secure/);
    expect(header).toMatch(/HttpOnly/);
    expect(header).toMatch(/SameSite=Lax/);
    expect(header).not.toContain('secret-token');
  });

  test('login rotates the id: the old session is gone and a new one holds the user', async () => {
    const oldId = await sessions.sessionIdOf(visitorCookie);
    const response = await sessions.startSession(
      new Request('http://localhost/login', { headers: { Cookie: visitorCookie } }),
      { token: 't1', user },
      '/order',
    );
    const newCookie = cookieOf(response);
    expect(await sessions.sessionIdOf(newCookie)).not.toBe(oldId);
    expect(response.headers.get('Location')).toBe('/order');
    expect(await sessions.getSignedIn(new Request('http://localhost/', { headers: { Cookie: visitorCookie } }))).toBeNull();
    expect(await sessions.getSignedIn(new Request('http://localhost/', { headers: { Cookie: newCookie } }))).toEqual({ token: 't1', user });
  });

  test('a session idle for longer than the idle timeout has expired', async () => {
    const response = await sessions.startSession(new Request('http://localhost/login'), { token: 't2', user }, '/');
    const cookie = cookieOf(response);
    const realNow = sessions.sessionClock.now;
    try {
      const start = Date.now();
      sessions.sessionClock.now = () => start + sessions.SESSION_IDLE_MS - 1000;
      expect(await sessions.getSignedIn(new Request('http://localhost/', { headers: { Cookie: cookie } }))).not.toBeNull();
      sessions.sessionClock.now = () => start + sessions.SESSION_IDLE_MS + 1000;
      expect(await sessions.getSignedIn(new Request('http://localhost/', { headers: { Cookie: cookie } }))).toBeNull();
    } finally {
      sessions.sessionClock.now = realNow;
    }
  });

  test('logout deletes the session row', async () => {
    const response = await sessions.startSession(new Request('http://localhost/login'), { token: 't3', user }, '/');
    const cookie = cookieOf(response);
    const before = await rowCount();
    await sessions.endSession(new Request('http://localhost/logout', { headers: { Cookie: cookie } }), '/');
    expect(await rowCount()).toBe(before - 1);
    expect(await sessions.getSignedIn(new Request('http://localhost/', { headers: { Cookie: cookie } }))).toBeNull();
  });

  test('a visitor asking for a login-only page is sent to /login?from=<that page>', async () => {
    const thrown = await sessions.requireSignedIn(new Request('http://localhost/order?type=0')).catch((r) => r);
    expect(thrown).toBeInstanceOf(Response);
    expect(thrown.headers.get('Location')).toBe('/login?from=%2Forder%3Ftype%3D0');
  });
});

describe('CSRF', () => {
  test('a form without the token, or with another token, is refused with 403', async () => {
    const [token, cookie] = await csrf.commitToken(new Request('http://localhost/'));
    const headers = new Headers({ Cookie: String(cookie).split(';')[0]! });
    const good = new FormData();
    good.set('csrf', token);
    await expect(validateCsrf(good, headers)).resolves.toBeUndefined();

    const missing = new FormData();
    await expect(validateCsrf(missing, headers)).rejects.toMatchObject({ status: 403 });
    const forged = new FormData();
    forged.set('csrf', `${token}x`);
    await expect(validateCsrf(forged, headers)).rejects.toMatchObject({ status: 403 });
    await expect(validateCsrf(good, new Headers())).rejects.toMatchObject({ status: 403 });
  });
});
