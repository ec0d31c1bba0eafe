/**
 * The ledger: the only code that changes an account's balance or held margin. Every change appends one
 * `account_log` row per movement, in the caller's transaction; the log is append-only (database triggers).
 * Invariants: balance = sum of the account's log values; lock_balance = margins of open and pending orders.
 */
import { LedgerType } from '../../contract/enums';
import type { Db } from '../db/database';

export interface AccountRow {
  user_id: number;
  balance: number;
  lock_balance: number;
}

export interface Movement {
  /** Signed change of the free balance, micro-USD. */
  value: number;
  type: LedgerType;
  memo?: string;
  orderId?: number | null;
}

export class Ledger {
  private readonly selectAccount;
  private readonly updateAccount;
  private readonly insertLog;
  private readonly insertAccount;

  constructor(
    private readonly db: Db,
    private readonly clock: () => number,
  ) {
    this.selectAccount = db.prepare('SELECT user_id, balance, lock_balance FROM accounts WHERE user_id = ?');
    this.updateAccount = db.prepare('UPDATE accounts SET balance = ?, lock_balance = ? WHERE user_id = ?');
    this.insertAccount = db.prepare('INSERT INTO accounts (user_id, balance, lock_balance) VALUES (?, 0, 0)');
    this.insertLog = db.prepare(
      `INSERT INTO account_log (user_id, value, type, memo, balance_after, order_id, created_at)
       VALUES (?, ?, ?, ?, ?, ?, ?)`,
    );
  }

  open(userId: number, openingBalance: number, memo = ''): void {
    this.insertAccount.run(userId);
    if (openingBalance !== 0) this.post(userId, [{ value: openingBalance, type: LedgerType.OpeningBalance, memo }]);
  }

  account(userId: number): AccountRow {
    const row = this.selectAccount.get(userId) as AccountRow | undefined;
    if (!row) throw new Error(`no account for user ${userId}`);
    return row;
  }

  /**
   * Applies movements of the free balance and a change of held margin. Must run inside a transaction.
   * Throws (and so rolls back) if the balance or the held margin would end below zero.
   */
  post(userId: number, movements: readonly Movement[], lockChange = 0): AccountRow {
    const acct = this.account(userId);
    let balance = acct.balance;
    const now = this.clock();
    for (const m of movements) {
      if (!Number.isSafeInteger(m.value)) throw new RangeError(`ledger value must be an integer: ${m.value}`);
      if (m.value === 0) continue;
      balance += m.value;
      this.insertLog.run(userId, m.value, m.type, m.memo ?? '', balance, m.orderId ?? null, now);
    }
    // Checked once at the end: a realised loss may dip below zero before its protection entry lifts it.
    if (balance < 0) throw new RangeError(`balance of user ${userId} would be negative`);
    const lock = acct.lock_balance + lockChange;
    if (lock < 0) throw new RangeError(`held margin of user ${userId} would be negative`);
    this.updateAccount.run(balance, lock, userId);
    return { user_id: userId, balance, lock_balance: lock };
  }
}
