/** Reads the upstream's SQLite database (read-only, one snapshot) for the checks: accounts' figures and keyed orders. */
import Database from 'better-sqlite3';
import path from 'node:path';
import type { AccountFigures, EndedOrder, KeyedRow } from './checks';

export function readLedger(dataDir: string): {
  accounts: AccountFigures[];
  rowsByKey: Map<string, KeyedRow[]>;
  orders: number;
  ended: EndedOrder[];
} {
  const db = new Database(path.join(dataDir, 'upstream.sqlite'), { readonly: true, fileMustExist: true });
  db.pragma('busy_timeout = 10000');
  try {
    // One read transaction: every figure from the same committed state.
    return db.transaction(() => {
      const accounts = db
        .prepare(
          `SELECT a.user_id, a.balance, a.lock_balance,
             (SELECT COALESCE(SUM(l.value), 0) FROM account_log l WHERE l.user_id = a.user_id) AS log_sum,
             (SELECT l.balance_after FROM account_log l WHERE l.user_id = a.user_id ORDER BY l.id DESC LIMIT 1) AS last_after,
             (SELECT COALESCE(SUM(o.margin), 0) FROM orders o WHERE o.user_id = a.user_id AND o.status IN (0, 1)) AS open_margin
           FROM accounts a`,
        )
        .all() as AccountFigures[];
      const rowsByKey = new Map<string, KeyedRow[]>();
      const keyed = db
        .prepare('SELECT idempotency_key AS key, id, parent_id FROM orders WHERE idempotency_key IS NOT NULL')
        .all() as (KeyedRow & {
        key: string;
      })[];
      for (const { key, ...row } of keyed) rowsByKey.set(key, [...(rowsByKey.get(key) ?? []), row]);
      const orders = (db.prepare('SELECT COUNT(*) AS n FROM orders').get() as { n: number }).n;
      // Closed (3) and cancelled (4) orders beside the account-log rows that name them, grouped in one pass.
      const logged = new Map<number, Map<number, { rows: number; sum: number }>>();
      const groups = db
        .prepare(
          'SELECT order_id, type, COUNT(*) AS rows, SUM(value) AS sum FROM account_log WHERE order_id IS NOT NULL GROUP BY order_id, type',
        )
        .all() as { order_id: number; type: number; rows: number; sum: number }[];
      for (const g of groups) logged.set(g.order_id, (logged.get(g.order_id) ?? new Map()).set(g.type, { rows: g.rows, sum: g.sum }));
      const ended = (
        db.prepare('SELECT id, status, profit, margin, fee FROM orders WHERE status IN (3, 4)').all() as {
          id: number;
          status: number;
          profit: number | null;
          margin: number;
          fee: number;
        }[]
      ).map(({ status, ...o }) => ({ ...o, closed: status === 3, logged: logged.get(o.id) ?? new Map() }));
      return { accounts, rowsByKey, orders, ended };
    })();
  } finally {
    db.close();
  }
}
