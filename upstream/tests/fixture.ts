/**
 * An in-process upstream without HTTP, for engine and property tests: a temporary database, no simulator,
 * every market forced open, a fixed clock. `restart()` closes it and opens the same database again.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Upstream, type UpstreamOptions } from '../upstream';

/** An upstream on `dbFile` for tests: no simulator, no backfill, price injection on, every response checked. */
export function testUpstream(dbFile: string, options: Pick<UpstreamOptions, 'clock'> & Partial<UpstreamOptions>): Upstream {
  return new Upstream({
    dbFile,
    seed: 7,
    simulate: false,
    tickIntervalMs: 1000,
    backfill: false,
    allowPriceInjection: true,
    validateResponses: true,
    log: () => {},
    // The money rules here do not wait for a new method's hold (contract-security.test.ts tests it).
    withdrawMethodHoldMs: 0,
    ...options,
  });
}

export interface EngineFixture {
  up: Upstream;
  restart(): void;
  close(): void;
  /** A new demo account's user id (100,000 USD). */
  demoUser(): number;
  /** A new real account's user id (0 USD), with one stored proof image it can name in deposits. */
  realUser(): { id: number; proofUrl: string };
  /** Scaled integer price of a code at a decimal price. */
  price(code: string, value: number): number;
  tick(code: string, value: number): void;
  id(code: string): number;
  /** Ledger and order invariants of one user; throws with a message when one fails. */
  checkInvariants(userId: number): void;
}

export function engineFixture(options: { tradeFeeType?: 1 | 2 } = {}): EngineFixture {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'engine-test-'));
  const dbFile = path.join(dir, 'upstream.sqlite');
  let now = Date.UTC(2026, 10, 18, 12, 0, 0);
  const make = () => testUpstream(dbFile, { clock: () => (now += 1) });
  let up = make();
  if (options.tradeFeeType) up.setSetting('trade_fee_type', String(options.tradeFeeType));
  for (const inst of up.market.instruments) up.market.forceStatus(inst.id, 1);
  const f: EngineFixture = {
    get up() {
      return up;
    },
    restart() {
      up.stop();
      up = make();
    },
    close() {
      up.stop();
      fs.rmSync(dir, { recursive: true, force: true });
    },
    demoUser() {
      return up.accounts.demo(crypto.randomUUID()).user.id;
    },
    realUser() {
      const tag = crypto.randomUUID().replaceAll('-', '');
      const id = Number(
        up.db
          .prepare('INSERT INTO users (uid, email, invite_code, created_at) VALUES (?, ?, ?, 0)')
          .run(tag.slice(0, 10), `${tag}@example.com`, tag.slice(0, 8)).lastInsertRowid,
      );
      up.engine.ledger.open(id, 0);
      // The money rules do not depend on the picture: a stored row stands for an upload here.
      const name = `${tag}.jpg`;
      up.db.prepare('INSERT INTO uploads (name, user_id, bytes, width, height, created_at) VALUES (?, ?, 1, 1, 1, 0)').run(name, id);
      return { id, proofUrl: `/api/common/image/${name}` };
    },
    id(code) {
      return up.market.getByCode(code)!.id;
    },
    price(code, value) {
      const inst = up.market.getByCode(code)!;
      return Math.round(value * 10 ** inst.precision);
    },
    tick(code, value) {
      up.market.applyTick(f.id(code), f.price(code, value));
    },
    checkInvariants(userId) {
      const db = up.db;
      const acct = db.prepare('SELECT balance, lock_balance FROM accounts WHERE user_id = ?').get(userId) as {
        balance: number;
        lock_balance: number;
      };
      const ledger = (db.prepare('SELECT COALESCE(SUM(value), 0) AS s FROM account_log WHERE user_id = ?').get(userId) as { s: number }).s;
      const held = (
        db.prepare('SELECT COALESCE(SUM(margin), 0) AS s FROM orders WHERE user_id = ? AND status IN (0, 1)').get(userId) as { s: number }
      ).s;
      if (acct.balance !== ledger) throw new Error(`user ${userId}: balance ${acct.balance} ≠ ledger sum ${ledger}`);
      if (acct.lock_balance !== held) throw new Error(`user ${userId}: lock_balance ${acct.lock_balance} ≠ held margins ${held}`);
      if (acct.balance < 0 || acct.lock_balance < 0) throw new Error(`user ${userId}: negative balance or lock`);
      const figures = up.engine.figures(userId);
      if (figures.balance !== acct.balance || figures.lockBalance !== acct.lock_balance)
        throw new Error(
          `user ${userId}: engine memory (${figures.balance}, ${figures.lockBalance}) ≠ database (${acct.balance}, ${acct.lock_balance})`,
        );
      const dupes = db
        .prepare(
          'SELECT idempotency_key, COUNT(*) AS n FROM orders WHERE user_id = ? AND idempotency_key IS NOT NULL GROUP BY idempotency_key HAVING n > 1',
        )
        .all(userId);
      if (dupes.length > 0) throw new Error(`user ${userId}: two orders under one idempotency key`);
    },
  };
  return f;
}
