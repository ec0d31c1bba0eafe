/** Opening the upstream's SQLite database: durable settings and versioned migrations. */
import Database from 'better-sqlite3';
import fs from 'node:fs';
import path from 'node:path';
import { MIGRATIONS } from './migrations';

export type Db = Database.Database;

export function openDatabase(file: string): Db {
  if (file !== ':memory:') fs.mkdirSync(path.dirname(file), { recursive: true });
  const db = new Database(file);
  db.pragma('journal_mode = WAL');
  // An acknowledged order must survive power loss: FULL syncs the WAL at every commit.
  db.pragma('synchronous = FULL');
  db.pragma('foreign_keys = ON');
  db.pragma('busy_timeout = 5000');
  migrate(db);
  keepStatements(db);
  return db;
}

/** More texts than the upstream has (its SQL is fixed text and a few variants): beyond it, statements are not kept. */
const MAX_KEPT_STATEMENTS = 1000;

/**
 * `prepare` answers a text it has seen with the statement it made for it. better-sqlite3 compiles the SQL on every
 * call, and the handlers prepare where they query (for a `/trade` page with orders, 0.05 ms of the upstream's
 * 0.7 ms). A kept statement is safe to share: every call runs it to the end at once (`run`, `get`, `all`; none
 * iterates or changes a statement's mode), and SQLite recompiles it by itself after a migration.
 */
function keepStatements(db: Db): void {
  const compile = db.prepare.bind(db);
  const kept = new Map<string, Database.Statement>();
  db.prepare = ((source: string) => {
    let statement = kept.get(source);
    if (!statement) {
      statement = compile(source);
      if (kept.size < MAX_KEPT_STATEMENTS) kept.set(source, statement);
    }
    return statement;
  }) as Db['prepare'];
}

export function migrate(db: Db): void {
  const current = db.pragma('user_version', { simple: true }) as number;
  for (const [index, sql] of MIGRATIONS.entries()) {
    const version = index + 1;
    if (version <= current) continue;
    db.transaction(() => {
      db.exec(sql);
      db.pragma(`user_version = ${version}`);
    })();
  }
}

/** A consistent copy of a live database (upstream.md: backups with VACUUM INTO). */
export function backup(db: Db, target: string): void {
  db.prepare('VACUUM INTO ?').run(target);
}

/** Runs fn in a BEGIN IMMEDIATE transaction: every movement of money is one of these. */
export function immediate<T>(db: Db, fn: () => T): T {
  return db.transaction(fn).immediate();
}
