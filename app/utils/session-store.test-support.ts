/**
 * What every session store must do (SQLite in DATA_DIR, Redis with REDIS_URL): the same tests run against
 * each from its own test file, which sets the environment before it imports the session module.
 */
import { beforeAll, describe, expect, test } from 'vitest';
import { traderView } from '#contract/views';
import type * as SessionModule from './session.server';

type Sessions = typeof SessionModule;

export const testUser = {
  id: 7,
  uid: '12345678',
  email: 'a@b.co',
  mobile: null,
  area_id: null,
  is_demo: 0 as const,
  invite_code: 'ABCDEF',
  created_at: '2026-01-01T00:00:00.000Z',
};

export function cookieOf(response: Response): string {
  const set = response.headers.get('Set-Cookie') ?? '';
  return set.split(';')[0]!;
}

export const withCookie = (cookie: string, url = 'http://localhost/') => new Request(url, { headers: { Cookie: cookie } });

/** A signed-in session's cookie from the given session module (imported after the test set DATA_DIR). */
export const signInWith = (sessions: Sessions) => async (token: string) =>
  cookieOf(await sessions.startSession(new Request('http://localhost/login'), { token, user: testUser }, '/'));

/** A posted form's fields. */
export function formOf(fields: Record<string, string>): FormData {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) form.append(name, value);
  return form;
}

/** `count()` says how many sessions the store holds. */
export function describeSessionStore(store: string, sessions: Sessions, count: () => Promise<number>) {
  const user = testUser;
  describe(`sessions (${store})`, () => {
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

    test("a visitor's toast writes no session, and is shown once (issue 9 #8)", async () => {
      const before = await count();
      const response = await sessions.redirectWithToast(new Request('http://localhost/language', { method: 'POST' }), '/', {
        kind: 'info',
        message: 'hi',
      });
      const cookie = cookieOf(response);
      expect(cookie).toMatch(/^__Host-toast=/);
      expect(response.headers.get('Set-Cookie')).toMatch(/Max-Age=60/);
      expect(await count()).toBe(before);
      const taken = await sessions.takeToast(withCookie(cookie));
      expect(taken.toast).toEqual({ kind: 'info', message: 'hi' });
      expect(taken.clear).toMatch(/^__Host-toast=;.*Max-Age=0/);
      // A forged toast (not signed by us) is not shown.
      const forged = await sessions.takeToast(
        withCookie(`__Host-toast=${Buffer.from(JSON.stringify({ kind: 'error', message: 'send BTC to …' })).toString('base64')}`),
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
      const before = await count();
      const response = await sessions.startSession(
        new Request('http://localhost/login', { headers: { Cookie: visitorCookie } }),
        { token: 't1', user },
        '/order',
      );
      const newCookie = cookieOf(response);
      expect(await sessions.sessionIdOf(newCookie)).not.toBe(oldId);
      expect(await count()).toBe(before);
      expect(response.headers.get('Location')).toBe('/order');
      expect(await sessions.getSignedIn(withCookie(visitorCookie))).toBeNull();
      expect(await sessions.getSignedIn(withCookie(newCookie))).toEqual({ token: 't1', user: traderView(user) });
    });

    test('a session idle for longer than the idle timeout has expired', async () => {
      const response = await sessions.startSession(new Request('http://localhost/login'), { token: 't2', user }, '/');
      const cookie = cookieOf(response);
      const realNow = sessions.sessionClock.now;
      try {
        const start = Date.now();
        sessions.sessionClock.now = () => start + sessions.SESSION_IDLE_MS - 1000;
        expect(await sessions.getSignedIn(withCookie(cookie))).not.toBeNull();
        sessions.sessionClock.now = () => start + sessions.SESSION_IDLE_MS + 1000;
        expect(await sessions.getSignedIn(withCookie(cookie))).toBeNull();
      } finally {
        sessions.sessionClock.now = realNow;
      }
    });

    test("the user's other sessions on this host are found with their tokens, and once deleted are a visitor's (issue 38)", async () => {
      const start = (host: string, token: string, id = user.id) =>
        sessions
          .startSession(new Request(`https://${host}/login`), { token, user: { ...user, id } }, '/')
          .then((r) => withCookie(cookieOf(r), `https://${host}/`));
      const phone = await start('lotfx.test', 'phone-token', 71);
      const laptop = await start('lotfx.test', 'laptop-token', 71);
      const tablet = await start('lotfx.test', 'tablet-token', 71);
      // Another user, and the same id at another broker's host: never someone else's device.
      await start('lotfx.test', 'stranger-token', 72);
      await start('other-broker.test', 'broker-token', 71);
      const others = await sessions.otherSessions(phone);
      expect(others.map((o) => o.token).sort()).toEqual(['laptop-token', 'tablet-token']);
      expect(others.map((o) => o.id)).not.toContain(await sessions.sessionIdOf(phone.headers.get('Cookie')));

      await sessions.deleteSessions(others.filter((o) => o.token === 'laptop-token').map((o) => o.id));
      expect(await sessions.getSignedIn(laptop)).toBeNull();
      expect(await sessions.getSignedIn(tablet)).not.toBeNull();
      expect((await sessions.otherSessions(phone)).map((o) => o.token)).toEqual(['tablet-token']);
      // A session that logged out is no longer listed.
      await sessions.endSession(tablet, '/');
      expect(await sessions.otherSessions(phone)).toEqual([]);
      expect(await sessions.otherSessions(withCookie(''))).toEqual([]);
    });

    test('logout deletes the session', async () => {
      const response = await sessions.startSession(new Request('http://localhost/login'), { token: 't3', user }, '/');
      const cookie = cookieOf(response);
      const before = await count();
      await sessions.endSession(withCookie(cookie, 'http://localhost/logout'), '/');
      expect(await count()).toBe(before - 1);
      expect(await sessions.getSignedIn(withCookie(cookie))).toBeNull();
    });
  });
}
