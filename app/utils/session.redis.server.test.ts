/**
 * Sessions in Redis (REDIS_URL), against a real redis-server started on a free port: the store's shared
 * tests, TTLs that are the session's expiry, and two web nodes with their own data folders sharing one
 * session. Skipped, saying so, only where redis-server is not installed (`.ci/run` installs it).
 */
import { Redis } from 'ioredis';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, test, vi } from 'vitest';
import { findProgram, freePort, startRedis } from '../../tests/services';
import { traderView } from '#contract/views';
import { cookieOf, describeSessionStore, testUser, withCookie } from './session-store.test-support';

const installed = findProgram('redis-server') !== null;
if (!installed) console.warn('SKIPPED: sessions in Redis — redis-server is not installed (apt-get install redis-server)');

const server = installed ? await startRedis(await freePort(6390)) : null;
const dirs = [fs.mkdtempSync(path.join(os.tmpdir(), 'web-node-a-')), fs.mkdtempSync(path.join(os.tmpdir(), 'web-node-b-'))];
const redis = server ? new Redis(server.url) : null;

/** A web node's session module: its own DATA_DIR and module instance, the one Redis and secret. */
async function node(dataDir: string) {
  vi.resetModules();
  Object.assign(process.env, { DATA_DIR: dataDir, REDIS_URL: server!.url, SESSION_SECRET: 'a shared secret of at least 32 characters' });
  return import('./session.server');
}
const nodeA = server ? await node(dirs[0]!) : null;
const nodeB = server ? await node(dirs[1]!) : null;

afterAll(async () => {
  await nodeA?.closeSessionStore();
  await nodeB?.closeSessionStore();
  await redis?.quit();
  await server?.stop();
  for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true });
});

const keys = () => redis!.keys('lotfx:session:*');

describe.skipIf(!installed)('Redis', () => {
  if (nodeA) describeSessionStore('Redis', nodeA, async () => (await keys()).length);

  test("a session's key expires with the session: 7 idle days, never past 30 days from sign-in", async () => {
    const a = nodeA!;
    const cookie = cookieOf(await a.startSession(new Request('http://localhost/login'), { token: 'ttl', user: testUser }, '/'));
    const key = `lotfx:session:${await a.sessionIdOf(cookie)}`;
    expect(await redis!.pttl(key)).toBeGreaterThan(a.SESSION_IDLE_MS - 60_000);
    expect(await redis!.pttl(key)).toBeLessThanOrEqual(a.SESSION_IDLE_MS);

    // Used every 6 days, then on day 29, it keeps one more day: the absolute limit wins over the idle one.
    const realNow = a.sessionClock.now;
    const day = 24 * 3600_000;
    try {
      const signedInAt = Number(await redis!.hget(key, 'createdAt'));
      for (const days of [6, 12, 18, 24, 29]) {
        a.sessionClock.now = () => signedInAt + days * day;
        await a.updateSessionUser(withCookie(cookie), { ...testUser, email: `day${days}@b.co` });
      }
      expect(await redis!.hget(key, 'data')).toContain('day29@b.co');
      expect(await redis!.pttl(key)).toBeGreaterThan(day - 60_000);
      expect(await redis!.pttl(key)).toBeLessThanOrEqual(day);
    } finally {
      a.sessionClock.now = realNow;
    }
  });

  test('two web nodes with their own data folders share sessions: signed in on A, signed in on B; logged out on B, out on A', async () => {
    const cookie = cookieOf(await nodeA!.startSession(new Request('http://localhost/login'), { token: 'shared', user: testUser }, '/'));
    expect(await nodeB!.getSignedIn(withCookie(cookie))).toEqual({ token: 'shared', user: traderView(testUser) });
    await nodeB!.endSession(withCookie(cookie, 'http://localhost/logout'), '/');
    expect(await nodeA!.getSignedIn(withCookie(cookie))).toBeNull();
    // Nothing of the sessions (nor a generated secret) is kept on the nodes themselves.
    for (const dir of dirs) expect(fs.readdirSync(dir)).toEqual([]);
  });
});
