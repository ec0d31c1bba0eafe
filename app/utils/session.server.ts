/**
 * Server-side sessions: the cookie (`__Host-sid`, Secure, HttpOnly, SameSite=Lax) carries only a signed
 * session id; the upstream token and the user live in a SQLite table in the data folder, or in Redis when
 * REDIS_URL is set (several web nodes then share them). Sessions end after 7 idle days or 30 days in all;
 * the id changes at login; logout deletes the row.
 */
import { createCookie, createSessionStorage, redirect, type Session } from '@remix-run/node';
import Database from 'better-sqlite3';
import { Redis } from 'ioredis';
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { User } from '#contract/calls/account';
import { traderView, type Trader } from '#contract/views';
import { DATA_DIR, REDIS_URL, SESSION_SECRET } from './env.server';
import { safeRedirectPath } from './safe-redirect';
import type { Toast } from './toast';

export const SESSION_IDLE_MS = 7 * 24 * 3600 * 1000;
export const SESSION_ABSOLUTE_MS = 30 * 24 * 3600 * 1000;

export type { Toast };

export interface SessionData {
  token: string;
  /**
   * The user as the upstream gave it at login: the session keeps the upstream's shape, so that a session written by
   * any release reads the same; only this module reads its fields (getSignedIn and traderOf hand out the view).
   */
  user: User;
  createdAt: number;
  /** A device uuid for the demo account (kept in its own long-lived cookie too). */
  demoId?: string;
  /** The page host it was started on: with the user's id, the key of the user's sessions (see ownerOf). */
  host?: string;
}
// Toasts travel in their own short-lived cookie, not the session: a visitor's message must not create
// a 7-day session row (issue 9 #8); a row is written only when someone signs in.
export type AppSession = Session<SessionData>;

/** Given by the environment or, on a single node, made by the web server in DATA_DIR (server/session-secret.ts). */
export const SECRET = SESSION_SECRET;

/** The clock, replaceable in tests. */
export const sessionClock = { now: () => Date.now() };

const expiry = (createdAt: number) => Math.min(sessionClock.now() + SESSION_IDLE_MS, createdAt + SESSION_ABSOLUTE_MS);

interface Row {
  /** The session data as JSON. */
  data: string;
  createdAt: number;
  expiresAt: number;
}

/** Where session rows live; expiry is decided once, above it, and each store only keeps `expiresAt`. */
interface SessionRows {
  read(id: string): Promise<Row | null>;
  /** `owner`: a signed-in row is listed under its user (ownerOf), so that ending a device can find its row. */
  write(id: string, row: Row, owner?: string): Promise<void>;
  delete(id: string): Promise<void>;
  /** The ids of the live rows written under this owner. */
  owned(owner: string): Promise<string[]>;
  close(): Promise<void>;
}

/**
 * Whose session this is, across every web node: the user's id under the page host it was started on (with
 * UPSTREAM_URL=auto each host is another broker, whose user ids are its own). A row written before it had a host
 * has none and is found by no one (its token still ends at its next upstream call, code 999).
 */
function ownerOf(data: Partial<SessionData>): string | undefined {
  return data.host && data.user ? `${data.host}#${data.user.id}` : undefined;
}

/**
 * The web processes start together and each opens the same new file: switching it to WAL takes a lock that
 * SQLite refuses at once (SQLITE_BUSY, no waiting) to the one that comes second. It tries again shortly.
 */
function openSessionsDb(file: string): Database.Database {
  for (let attempt = 1; ; attempt++) {
    const db = new Database(file, { timeout: 5000 });
    try {
      db.pragma('journal_mode = WAL');
      db.pragma('synchronous = NORMAL');
      db.exec(`CREATE TABLE IF NOT EXISTS sessions (
        id TEXT PRIMARY KEY, data TEXT NOT NULL, created_at INTEGER NOT NULL, expires_at INTEGER NOT NULL
      ) STRICT`);
      addOwnerColumn(db);
      return db;
    } catch (error) {
      db.close();
      if ((error as { code?: string }).code !== 'SQLITE_BUSY' || attempt >= 50) throw error;
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 20 + Math.random() * 80);
    }
  }
}

/** Sessions written before issue 38 had no owner: the column is added once (another process may win the race). */
function addOwnerColumn(db: Database.Database): void {
  const columns = db.prepare<[], { name: string }>('PRAGMA table_info(sessions)').all();
  if (!columns.some((c) => c.name === 'owner')) {
    try {
      db.exec('ALTER TABLE sessions ADD COLUMN owner TEXT');
    } catch (error) {
      if (!/duplicate column/i.test(String((error as Error).message))) throw error;
    }
  }
  db.exec('CREATE INDEX IF NOT EXISTS sessions_owner ON sessions (owner) WHERE owner IS NOT NULL');
}

function sqliteRows(dataDir: string): SessionRows {
  fs.mkdirSync(dataDir, { recursive: true });
  const db = openSessionsDb(path.join(dataDir, 'web-sessions.sqlite'));
  const q = {
    read: db.prepare<[string], { data: string; createdAt: number; expiresAt: number }>(
      'SELECT data, created_at AS createdAt, expires_at AS expiresAt FROM sessions WHERE id = ?',
    ),
    upsert: db.prepare(
      'INSERT INTO sessions (id, data, created_at, expires_at, owner) VALUES (?, ?, ?, ?, ?) ON CONFLICT (id) DO UPDATE SET data = excluded.data, expires_at = excluded.expires_at, owner = excluded.owner',
    ),
    owned: db.prepare<[string, number], { id: string }>('SELECT id FROM sessions WHERE owner = ? AND expires_at > ?'),
    delete: db.prepare('DELETE FROM sessions WHERE id = ?'),
    purge: db.prepare('DELETE FROM sessions WHERE expires_at <= ?'),
  };
  const purge = setInterval(() => q.purge.run(Date.now()), 3600_000).unref();
  return {
    read: async (id) => q.read.get(id) ?? null,
    write: async (id, row, owner) => void q.upsert.run(id, row.data, row.createdAt, row.expiresAt, owner ?? null),
    delete: async (id) => void q.delete.run(id),
    owned: async (owner) => q.owned.all(owner, sessionClock.now()).map((r) => r.id),
    close: async () => {
      clearInterval(purge);
      db.close();
    },
  };
}

/** One hash per session under `lotfx:session:<id>`; its TTL is the session's expiry, so Redis forgets it then. */
function redisRows(url: string): SessionRows {
  // A request waits for at most two reconnects rather than queueing forever while Redis is away.
  const redis = new Redis(url, { maxRetriesPerRequest: 2, connectTimeout: 5000 });
  let reported = false;
  redis.on('error', (error: Error) => {
    if (!reported) console.error(`[sessions] Redis unreachable (${error.message}); signed-in pages fail until it returns`);
    reported = true;
  });
  redis.on('ready', () => (reported = false));
  const key = (id: string) => `lotfx:session:${id}`;
  // The ids of a user's sessions, a set kept as long as a session can live; an id whose hash expired is dropped when listed.
  const ownerKey = (owner: string) => `lotfx:sessions-of:${owner}`;
  return {
    async read(id) {
      const h = await redis.hgetall(key(id));
      if (!h.data) return null;
      return { data: h.data, createdAt: Number(h.createdAt), expiresAt: Number(h.expiresAt) };
    },
    async write(id, row, owner) {
      const ttl = row.expiresAt - sessionClock.now();
      if (ttl <= 0) return void (await redis.del(key(id)));
      const multi = redis
        .multi()
        .hset(key(id), { data: row.data, createdAt: row.createdAt, expiresAt: row.expiresAt })
        .pexpire(key(id), ttl);
      if (owner) multi.sadd(ownerKey(owner), id).pexpire(ownerKey(owner), SESSION_ABSOLUTE_MS);
      await multi.exec();
    },
    delete: async (id) => void (await redis.del(key(id))),
    async owned(owner) {
      const ids = await redis.smembers(ownerKey(owner));
      if (ids.length === 0) return [];
      const live = await Promise.all(ids.map((id) => redis.exists(key(id))));
      const gone = ids.filter((_, i) => live[i] === 0);
      if (gone.length) await redis.srem(ownerKey(owner), ...gone);
      return ids.filter((_, i) => live[i] === 1);
    },
    close: async () => void (await redis.quit()),
  };
}

let rows: SessionRows | null = null;
/** The store opens when a session is first read or written: importing this module opens no file or connection. */
const store = (): SessionRows => (rows ??= REDIS_URL ? redisRows(REDIS_URL) : sqliteRows(DATA_DIR));

/** Closes the session store if it was opened (tests; a process that ends needs nothing). */
export async function closeSessionStore(): Promise<void> {
  const open = rows;
  rows = null;
  await open?.close();
}

export const sessionCookie = createCookie('__Host-sid', {
  path: '/',
  httpOnly: true,
  secure: true,
  sameSite: 'lax',
  secrets: [SECRET],
  maxAge: SESSION_ABSOLUTE_MS / 1000,
});

/** A toast for the next page, signed so nobody else can put words in our mouth; gone after one read or a minute. */
export const toastCookie = createCookie('__Host-toast', {
  path: '/',
  httpOnly: true,
  secure: true,
  sameSite: 'lax',
  secrets: [SECRET],
  maxAge: 60,
});

/** The Set-Cookie that shows `toast` on the next page. */
export function toastHeader(toast: Toast): Promise<string> {
  return toastCookie.serialize(toast);
}

/** The toast waiting for this page, and the Set-Cookie that consumes it. */
export async function takeToast(request: Request): Promise<{ toast: Toast | null; clear: string | null }> {
  const value: unknown = await toastCookie.parse(request.headers.get('Cookie'));
  if (!value || typeof value !== 'object') return { toast: null, clear: null };
  const t = value as Partial<Toast>;
  const ok = (t.kind === 'success' || t.kind === 'error' || t.kind === 'info') && typeof t.message === 'string';
  return { toast: ok ? { kind: t.kind!, message: t.message! } : null, clear: await toastCookie.serialize('', { maxAge: 0 }) };
}

export const sessionStorage = createSessionStorage<SessionData>({
  cookie: sessionCookie,
  async createData(data) {
    const id = crypto.randomBytes(24).toString('base64url');
    const now = sessionClock.now();
    await store().write(id, { data: JSON.stringify(data), createdAt: now, expiresAt: expiry(now) }, ownerOf(data));
    return id;
  },
  async readData(id) {
    const row = await store().read(id);
    if (!row) return null;
    if (row.expiresAt <= sessionClock.now()) {
      await store().delete(id);
      return null;
    }
    return JSON.parse(row.data);
  },
  async updateData(id, data) {
    const createdAt = (await store().read(id))?.createdAt ?? sessionClock.now();
    await store().write(id, { data: JSON.stringify(data), createdAt, expiresAt: expiry(createdAt) }, ownerOf(data));
  },
  async deleteData(id) {
    await store().delete(id);
  },
});

export function getSession(request: Request): Promise<AppSession> {
  return sessionStorage.getSession(request.headers.get('Cookie'));
}

/** The session's raw id (tests, and the stream that looks the user up). */
export async function sessionIdOf(cookieHeader: string | null): Promise<string | null> {
  const id: unknown = await sessionCookie.parse(cookieHeader);
  return typeof id === 'string' ? id : null;
}

/** What a login gives (the upstream's session): what startSession keeps. */
export interface UpstreamSession {
  token: string;
  user: User;
}

/** Who is signed in: the upstream token (never sent to the browser) and the trader, as a view. */
export interface SignedIn {
  token: string;
  user: Trader;
}

export async function getSignedIn(request: Request): Promise<SignedIn | null> {
  const session = await getSession(request);
  const token = session.get('token');
  const user = traderOf(session);
  return token && user ? { token, user } : null;
}

/** The session's trader (the root loader's too), or null for a visitor. */
export function traderOf(session: AppSession): Trader | null {
  const user = session.get('user');
  return session.get('token') && user ? traderView(user) : null;
}

/** The path and query of the request, for `from`. */
export function currentPath(request: Request): string {
  const url = new URL(request.url);
  return `${url.pathname}${url.search}`;
}

export function loginRedirect(request: Request, from = currentPath(request)): string {
  const path = safeRedirectPath(from, '/');
  return path === '/' ? '/login' : `/login?${new URLSearchParams({ from: path })}`;
}

/** A login-required page: a visitor goes to /login?from=<this path>. */
export async function requireSignedIn(request: Request): Promise<SignedIn> {
  const signedIn = await getSignedIn(request);
  if (!signedIn) throw redirect(loginRedirect(request));
  return signedIn;
}

/**
 * Starts a signed-in session under a NEW id (the old one is deleted: no fixation) and redirects.
 */
export async function startSession(request: Request, signedIn: UpstreamSession, redirectTo: string, toast?: Toast): Promise<Response> {
  const old = await getSession(request);
  const demoId = old.get('demoId');
  await sessionStorage.destroySession(old);
  const session = await sessionStorage.getSession();
  session.set('token', signedIn.token);
  session.set('user', signedIn.user);
  session.set('createdAt', sessionClock.now());
  session.set('host', new URL(request.url).host);
  if (demoId) session.set('demoId', demoId);
  const headers = new Headers({ 'Set-Cookie': await sessionStorage.commitSession(session) });
  if (toast) headers.append('Set-Cookie', await toastHeader(toast));
  return redirect(safeRedirectPath(redirectTo, '/'), { headers });
}

/** Ends the session: the row is deleted and the cookie cleared; a fresh session carries the toast. */
export async function endSession(request: Request, redirectTo: string, toast?: Toast): Promise<Response> {
  const session = await getSession(request);
  const headers = new Headers({ 'Set-Cookie': await sessionStorage.destroySession(session) });
  if (toast) headers.append('Set-Cookie', await toastHeader(toast));
  return redirect(safeRedirectPath(redirectTo, '/'), { headers });
}

/** Redirects with a toast flashed into the session. */
export async function redirectWithToast(_request: Request, to: string, toast: Toast, init?: ResponseInit): Promise<Response> {
  const headers = new Headers(init?.headers);
  headers.append('Set-Cookie', await toastHeader(toast));
  return redirect(safeRedirectPath(to, '/'), { ...init, headers });
}

/**
 * The signed-in user's other sessions on this site (issue 38, "Signed-in devices"), each with its upstream token:
 * ending a device deletes the row that holds its token, so that device's next page (`/` too) is a visitor's.
 */
export async function otherSessions(request: Request): Promise<{ id: string; token: string }[]> {
  const session = await getSession(request);
  const owner = ownerOf(session.data);
  if (!owner || !session.get('token')) return [];
  const others: { id: string; token: string }[] = [];
  for (const id of await store().owned(owner)) {
    if (id === session.id) continue;
    const row = await store().read(id);
    const token = row ? (JSON.parse(row.data) as Partial<SessionData>).token : undefined;
    if (token) others.push({ id, token });
  }
  return others;
}

/** Deletes these sessions (their devices were signed out upstream). */
export async function deleteSessions(ids: readonly string[]): Promise<void> {
  for (const id of ids) await store().delete(id);
}

/**
 * After the upstream ended every other session of the user (sign out everywhere else, a new password, the
 * authenticator turned on): deletes their rows, so those devices' next page (`/` too) is a visitor's.
 */
export async function endOtherSessions(request: Request): Promise<void> {
  await deleteSessions((await otherSessions(request)).map((s) => s.id));
}

/** Replaces the stored user (after /info), keeping the session id. */
export async function updateSessionUser(request: Request, user: User): Promise<string> {
  const session = await getSession(request);
  session.set('user', user);
  return sessionStorage.commitSession(session);
}

/**
 * Short-lived server-side records (issue 38: a half-done log-in's ticket, a form kept while a step-up is asked),
 * in the sessions' store under `kept.<id>` with their own expiry; the browser holds at most the random id.
 */
const keptKey = (id: string) => `kept.${id}`;

export function newRecordId(): string {
  return crypto.randomBytes(18).toString('base64url');
}

export async function keepRecord(id: string, data: unknown, ttlMs: number): Promise<void> {
  const now = sessionClock.now();
  await store().write(keptKey(id), { data: JSON.stringify(data), createdAt: now, expiresAt: now + ttlMs });
}

export async function readRecord<T>(id: string): Promise<T | null> {
  if (!/^[\w-]{1,64}$/.test(id)) return null;
  const row = await store().read(keptKey(id));
  if (!row || row.expiresAt <= sessionClock.now()) return null;
  return JSON.parse(row.data) as T;
}

export async function dropRecord(id: string): Promise<void> {
  await store().delete(keptKey(id));
}
