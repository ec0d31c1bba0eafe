/**
 * Withdrawals: the currencies a trader can withdraw in, the methods they bind (a coin address checked
 * against its network, or a bank account), and requests. A request takes the amount out of the balance at
 * once; the back office pays it (nothing more moves) or rejects it (the amount comes back).
 */
import { volumeAllowsWithdrawal, withdrawalFeeMicro, WITHDRAW_VOLUME_WINDOW_MS } from '../../contract/arithmetic';
import { addressMatchesNetwork, swiftValid } from '../../contract/addresses';
import { MAX_METHODS_PER_TYPE } from '../../contract/calls/funds';
import { LedgerType, WithdrawStatus, WithdrawType } from '../../contract/enums';
import { MONEY_DECIMALS, parseUnits } from '../../contract/money';
import type { UserRow } from '../accounts/accounts';
import { immediate, type Db } from '../db/database';
import { fail } from '../shared/errors';
import type { TradingEngine } from '../trading/engine';

export interface CurrencyRow {
  id: number;
  type: number;
  code: string;
  protocol: string;
  fee_type: number;
  draw_rate: number;
  usd_price: number;
  min_amount: number;
  max_amount: number;
  enabled: number;
  sort: number;
}

export interface MethodRow {
  id: number;
  user_id: number;
  type: number;
  currency_id: number;
  dc_address: string | null;
  bank_name: string | null;
  bank_address: string | null;
  bank_swift: string | null;
  payee_name: string | null;
  payee_account: string | null;
  branch_name: string | null;
  remark: string | null;
  created_at: number;
  deleted_at: number | null;
  /** When a withdrawal may first use it (null: bound before holds existed). */
  usable_at: number | null;
}

export interface WithdrawalRow {
  id: number;
  user_id: number;
  currency_id: number;
  method_id: number;
  type: number;
  amount: number;
  fee: number;
  currency_code: string;
  protocol: string;
  address: string | null;
  bank_name: string | null;
  payee_name: string | null;
  payee_account: string | null;
  memo: string;
  status: number;
  remark: string;
  idempotency_key: string | null;
  created_at: number;
  reviewed_at: number | null;
}

export interface BindInput {
  type: number;
  currencyId: number;
  address?: string;
  bankName?: string;
  bankAddress?: string;
  swift?: string;
  payeeName?: string;
  payeeAccount?: string;
  branchName?: string;
  remark?: string;
}

export type WithdrawalReview = 'approve' | 'reject';

export class Withdrawals {
  constructor(
    private readonly db: Db,
    private readonly engine: TradingEngine,
    private readonly clock: () => number,
    /** A newly bound method waits this long before a withdrawal may use it (issue 38). */
    private readonly holdMs: number,
  ) {}

  currencies(type?: number, includeDisabled = false): CurrencyRow[] {
    const rows = this.db.prepare('SELECT * FROM withdraw_currencies ORDER BY sort, id').all() as CurrencyRow[];
    return rows.filter((c) => (includeDisabled || c.enabled === 1) && (type === undefined || c.type === type));
  }

  currency(id: number): CurrencyRow | undefined {
    return this.currencies().find((c) => c.id === id);
  }

  methods(userId: number, type: number, currencyId?: number): MethodRow[] {
    const rows = this.db
      .prepare('SELECT * FROM withdraw_methods WHERE user_id = ? AND type = ? AND deleted_at IS NULL ORDER BY id DESC')
      .all(userId, type) as MethodRow[];
    return currencyId === undefined ? rows : rows.filter((m) => m.currency_id === currencyId);
  }

  method(id: number): MethodRow | undefined {
    return this.db.prepare('SELECT * FROM withdraw_methods WHERE id = ?').get(id) as MethodRow | undefined;
  }

  bind(user: UserRow, input: BindInput): MethodRow {
    if (user.is_demo === 1) fail('DemoNotAllowed');
    const currency = this.currency(input.currencyId);
    if (!currency || currency.type !== input.type) fail('CurrencyNotFound');
    const now = this.clock();
    return immediate(this.db, () => {
      const existing = this.methods(user.id, input.type);
      if (input.type === WithdrawType.Crypto) {
        const address = input.address?.trim() ?? '';
        if (!address) fail('AddressInvalid', 'missing');
        if (!addressMatchesNetwork(currency.protocol, address)) fail('AddressInvalid');
        // Binding the same address twice is the same method, not a second one.
        const same = existing.find((m) => m.currency_id === currency.id && m.dc_address === address);
        if (same) return same;
        if (existing.length >= MAX_METHODS_PER_TYPE) fail('TooManyMethods');
        const id = this.db
          .prepare(
            `INSERT INTO withdraw_methods (user_id, type, currency_id, dc_address, remark, created_at, usable_at)
             VALUES (?, ?, ?, ?, ?, ?, ?)`,
          )
          .run(user.id, input.type, currency.id, address, input.remark ?? null, now, now + this.holdMs).lastInsertRowid;
        return this.method(Number(id))!;
      }
      const required = [input.bankName, input.bankAddress, input.swift, input.payeeName, input.payeeAccount].map((v) => v?.trim() ?? '');
      if (required.some((v) => v === '')) fail('BankFieldsRequired');
      if (!swiftValid(input.swift!)) fail('SwiftInvalid');
      if (existing.length >= MAX_METHODS_PER_TYPE) fail('TooManyMethods');
      const id = this.db
        .prepare(
          `INSERT INTO withdraw_methods (user_id, type, currency_id, bank_name, bank_address, bank_swift, payee_name, payee_account,
             branch_name, remark, created_at, usable_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
        )
        .run(
          user.id,
          input.type,
          currency.id,
          required[0],
          required[1],
          required[2]!.toUpperCase(),
          required[3],
          required[4],
          input.branchName ?? null,
          input.remark ?? null,
          now,
          now + this.holdMs,
        ).lastInsertRowid;
      return this.method(Number(id))!;
    });
  }

  unbind(userId: number, id: number): void {
    const changed = this.db
      .prepare('UPDATE withdraw_methods SET deleted_at = ? WHERE id = ? AND user_id = ? AND deleted_at IS NULL')
      .run(this.clock(), id, userId).changes;
    if (changed !== 1) fail('WithdrawMethodNotFound');
  }

  /** Micro-USD of margin of the orders the user opened in the last 24 hours (docs/decisions/0005). */
  tradingVolume(userId: number): number {
    const since = this.clock() - WITHDRAW_VOLUME_WINDOW_MS;
    return (
      this.db.prepare('SELECT COALESCE(SUM(margin), 0) AS s FROM orders WHERE user_id = ? AND opened_at >= ?').get(userId, since) as {
        s: number;
      }
    ).s;
  }

  /** The withdrawal a repeated idempotency key already made, if any. */
  byKey(userId: number, idempotencyKey: string | undefined): WithdrawalRow | undefined {
    if (!idempotencyKey) return undefined;
    return this.db.prepare('SELECT * FROM withdrawals WHERE user_id = ? AND idempotency_key = ?').get(userId, idempotencyKey) as
      WithdrawalRow | undefined;
  }

  request(
    user: UserRow,
    input: { currencyId: number; amount: string; methodId: number; memo?: string; idempotencyKey?: string },
  ): WithdrawalRow {
    if (user.is_demo === 1) fail('DemoNotAllowed');
    const first = this.byKey(user.id, input.idempotencyKey);
    if (first) return first;
    // The operator removed this account's factors: no money leaves until the hold ends (security.ts removeFactors).
    const held = this.db.prepare('SELECT withdrawals_held_until AS t FROM users WHERE id = ?').get(user.id) as { t: number | null };
    if (held.t !== null && held.t > this.clock()) fail('WithdrawalsHeld');
    const currency = this.currency(input.currencyId) ?? fail('CurrencyNotFound');
    if (this.methods(user.id, currency.type).length === 0) fail('BindAccountFirst');
    const method = this.method(input.methodId);
    if (!method || method.user_id !== user.id || method.deleted_at !== null || method.type !== currency.type)
      fail('WithdrawMethodNotFound');
    // A coin address is good for the network it was bound for only.
    if (currency.type === WithdrawType.Crypto && method.currency_id !== currency.id) fail('AddressInvalid');
    if (method.usable_at !== null && method.usable_at > this.clock()) fail('MethodHeld');
    const amount = parseUnits(input.amount, MONEY_DECIMALS);
    if (amount === null || amount <= 0) fail('AmountInvalid');
    if (amount < currency.min_amount) fail('AmountBelowMinimum');
    if (amount > currency.max_amount) fail('AmountAboveMaximum');
    const fee = withdrawalFeeMicro(currency.fee_type, currency.draw_rate, amount);
    if (fee >= amount) fail('AmountBelowFee');
    const id = this.engine.moveFunds(user.id, (ledger, available) => {
      if (amount > available) fail('InsufficientBalance');
      if (!volumeAllowsWithdrawal(this.tradingVolume(user.id), ledger.account(user.id).balance)) fail('TradingVolumeTooLow');
      const rowId = Number(
        this.db
          .prepare(
            `INSERT INTO withdrawals (user_id, currency_id, method_id, type, amount, fee, currency_code, protocol, address, bank_name,
               payee_name, payee_account, memo, idempotency_key, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
          )
          .run(
            user.id,
            currency.id,
            method.id,
            currency.type,
            amount,
            fee,
            currency.code,
            currency.protocol,
            method.dc_address,
            method.bank_name,
            method.payee_name,
            method.payee_account,
            input.memo ?? '',
            input.idempotencyKey ?? null,
            this.clock(),
          ).lastInsertRowid,
      );
      ledger.post(user.id, [{ value: -amount, type: LedgerType.Withdrawal, memo: `#${rowId}` }]);
      return rowId;
    });
    return this.get(id)!;
  }

  get(id: number): WithdrawalRow | undefined {
    return this.db.prepare('SELECT * FROM withdrawals WHERE id = ?').get(id) as WithdrawalRow | undefined;
  }

  list(userId: number, type: number | undefined, page: number, pageSize: number): { rows: WithdrawalRow[]; total: number } {
    const where = type === undefined ? 'user_id = ?' : 'user_id = ? AND type = ?';
    const args = type === undefined ? [userId] : [userId, type];
    const rows = this.db
      .prepare(`SELECT * FROM withdrawals WHERE ${where} ORDER BY id DESC LIMIT ? OFFSET ?`)
      .all(...args, pageSize, (page - 1) * pageSize) as WithdrawalRow[];
    const total = (this.db.prepare(`SELECT COUNT(*) AS n FROM withdrawals WHERE ${where}`).get(...args) as { n: number }).n;
    return { rows, total };
  }

  /** Micro-USD requested and not yet paid or rejected (already out of the balance). */
  pendingTotal(userId: number): number {
    return (
      this.db.prepare('SELECT COALESCE(SUM(amount), 0) AS s FROM withdrawals WHERE user_id = ? AND status = 0').get(userId) as { s: number }
    ).s;
  }

  /** The back office pays (nothing more moves) or rejects (the amount comes back), each at most once. */
  review(id: number, decision: WithdrawalReview, remark = ''): WithdrawalRow {
    const row = this.get(id) ?? fail('NotFound', `withdrawal ${id}`);
    const status = decision === 'approve' ? WithdrawStatus.Paid : WithdrawStatus.Rejected;
    const decide = () => {
      const changed = this.db
        .prepare('UPDATE withdrawals SET status = ?, remark = ?, reviewed_at = ? WHERE id = ? AND status = 0')
        .run(status, remark, this.clock(), id).changes;
      if (changed !== 1) fail('Forbidden', `withdrawal ${id} was already reviewed`);
    };
    if (decision === 'reject') {
      this.engine.moveFunds(row.user_id, (ledger) => {
        decide();
        ledger.post(row.user_id, [{ value: row.amount, type: LedgerType.WithdrawalRefund, memo: `#${id}` }]);
      });
    } else {
      immediate(this.db, decide);
    }
    return this.get(id)!;
  }
}
