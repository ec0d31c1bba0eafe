/** Sessions in SQLite (no REDIS_URL): the store's shared tests, redirects to login, CSRF refusal, configuration. */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createCookie } from '@remix-run/node';
import { CSRF } from 'remix-utils/csrf/server';
import { afterAll, describe, expect, test, vi } from 'vitest';
import { traderView } from '#contract/views';
import { cookieOf, describeSessionStore, testUser, withCookie } from './session-store.test-support';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'web-session-test-'));
process.env.DATA_DIR = dir;
delete process.env.REDIS_URL;
const sessions = await import('./session.server');
const filesAtImport = fs.readdirSync(dir);
const { csrf, validateCsrf } = await import('./csrf.server');
const { readAppEnv } = await import('./env.server');

afterAll(async () => {
  await sessions.closeSessionStore();
  fs.rmSync(dir, { recursive: true, force: true });
});

async function rowCount(): Promise<number> {
  const Database = (await import('better-sqlite3')).default;
  const db = new Database(path.join(dir, 'web-sessions.sqlite'), { readonly: true });
  const n = (db.prepare('SELECT COUNT(*) AS n FROM sessions').get() as { n: number }).n;
  db.close();
  return n;
}

describeSessionStore('SQLite', sessions, rowCount);

test('a visitor asking for a login-only page is sent to /login?from=<that page>', async () => {
  const thrown = await sessions.requireSignedIn(new Request('http://localhost/order?type=0')).catch((r) => r);
  expect(thrown).toBeInstanceOf(Response);
  expect(thrown.headers.get('Location')).toBe('/login?from=%2Forder%3Ftype%3D0');
});

describe('the signed-in trader', () => {
  test('a session written before this release (the upstream user as login gave it) is read as the trader view', async () => {
    // A row as every release so far has written it: the session keeps the upstream's user, never a view.
    const written = {
      token: 'old-token',
      createdAt: Date.now(),
      user: {
        id: 9,
        uid: '90000009',
        email: null,
        mobile: '5550100',
        area_id: 44,
        is_demo: 1,
        invite_code: 'OLDONE',
        created_at: '2025-12-01T00:00:00.000Z',
      },
    } as const;
    const session = await sessions.sessionStorage.getSession();
    for (const [key, value] of Object.entries(written)) session.set(key as keyof typeof written, value as never);
    const request = withCookie(
      cookieOf(new Response(null, { headers: { 'Set-Cookie': await sessions.sessionStorage.commitSession(session) } })),
    );
    const trader = {
      id: 9,
      uid: '90000009',
      email: null,
      mobile: '5550100',
      areaId: 44,
      isDemo: true,
      inviteCode: 'OLDONE',
      createdAt: '2025-12-01T00:00:00.000Z',
    };
    expect(await sessions.getSignedIn(request)).toEqual({ token: 'old-token', user: trader });
    // The root loader's read of the same session.
    expect(sessions.traderOf(await sessions.getSession(request))).toEqual(trader);
    // A demo account is kept from the real-account pages.
    const { requireRealAccount } = await import('./guards.server');
    await expect(requireRealAccount(request)).rejects.toMatchObject({ init: { status: 403 } });
  });

  test('a visitor, or a session without a token, has no trader', async () => {
    expect(sessions.traderOf(await sessions.getSession(new Request('http://localhost/')))).toBeNull();
    const session = await sessions.sessionStorage.getSession();
    session.set('user', testUser);
    expect(sessions.traderOf(session)).toBeNull();
  });
});

describe('the store opens on first use', () => {
  test('importing the module opens no database: the first session made creates it', () => {
    expect(filesAtImport).not.toContain('web-sessions.sqlite');
    expect(fs.readdirSync(dir)).toContain('web-sessions.sqlite');
  });

  test('importing writes nothing, nor does a visitor without a session; the first session does', async () => {
    const fresh = path.join(dir, 'fresh');
    const saved = { DATA_DIR: process.env.DATA_DIR, SESSION_SECRET: process.env.SESSION_SECRET };
    vi.resetModules();
    Object.assign(process.env, { DATA_DIR: fresh, SESSION_SECRET: 'a secret of at least 32 characters, given' });
    try {
      const node = await import('./session.server');
      expect(fs.existsSync(fresh)).toBe(false);
      expect(await node.getSignedIn(new Request('http://localhost/'))).toBeNull();
      expect(fs.existsSync(fresh)).toBe(false);
      const cookie = cookieOf(await node.startSession(new Request('http://localhost/login'), { token: 't', user: testUser }, '/'));
      expect(fs.readdirSync(fresh)).toContain('web-sessions.sqlite');
      expect(await node.getSignedIn(withCookie(cookie))).toEqual({ token: 't', user: traderView(testUser) });
      await node.closeSessionStore();
    } finally {
      Object.assign(process.env, saved);
      if (saved.SESSION_SECRET === undefined) delete process.env.SESSION_SECRET;
    }
  });
});

describe('configuration', () => {
  const secret = 'x'.repeat(32);
  test('REDIS_URL needs SESSION_SECRET: nodes sharing sessions must sign alike', () => {
    expect(() => readAppEnv({ REDIS_URL: 'redis://127.0.0.1:6379' })).toThrow(/SESSION_SECRET: required.*not with REDIS_URL/);
    expect(readAppEnv({ REDIS_URL: 'redis://127.0.0.1:6379', SESSION_SECRET: secret }).REDIS_URL).toBe('redis://127.0.0.1:6379');
  });
  test('REDIS_URL must be a redis:// or rediss:// URL; empty means unset', () => {
    expect(() => readAppEnv({ REDIS_URL: 'http://127.0.0.1:6379', SESSION_SECRET: secret })).toThrow(/REDIS_URL/);
    expect(() => readAppEnv({ REDIS_URL: 'nonsense', SESSION_SECRET: secret })).toThrow(/REDIS_URL/);
    expect(readAppEnv({ REDIS_URL: '', SESSION_SECRET: secret }).REDIS_URL).toBeUndefined();
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

  test('a token signed as remix-utils signs it is accepted; one whose signature does not match its value is not', async () => {
    const { SECRET } = sessions;
    // Our subclass replaces remix-utils' `sign`: if remix-utils renamed it, its check would quietly use its own.
    expect(typeof (CSRF.prototype as unknown as { sign?: unknown }).sign).toBe('function');
    // remix-utils' own token and signature (crypto-js), as a cookie set before node's crypto took over carries it.
    const signed = new CSRF({ cookie: createCookie('x'), secret: SECRET }).generate();
    const value = signed.split('.')[0]!;
    const tampered = `${value.startsWith('A') ? 'B' : 'A'}${value.slice(1)}.${signed.split('.')[1]}`;
    for (const [token, ok] of [
      [signed, true],
      [tampered, false],
    ] as const) {
      const cookie = await createCookie('__Host-csrf', { secrets: [SECRET] }).serialize(token);
      const form = new FormData();
      form.set('csrf', token);
      const check = validateCsrf(form, new Headers({ Cookie: cookie.split(';')[0]! }));
      if (ok) await expect(check).resolves.toBeUndefined();
      else await expect(check).rejects.toMatchObject({ status: 403 });
    }
  });
});
