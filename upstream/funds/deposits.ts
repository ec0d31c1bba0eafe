/**
 * Deposits: the channels a trader pays into, the records they submit with a proof, and the back office's
 * review. Money moves only when a deposit is approved, once, through the ledger.
 */
import { DepositStatus, DepositType, LedgerType } from '../../contract/enums';
import { MONEY_DECIMALS, parseUnits } from '../../contract/money';
import type { UserRow } from '../accounts/accounts';
import { immediate, type Db } from '../db/database';
import { fail } from '../shared/errors';
import type { TradingEngine } from '../trading/engine';
import type { Uploads } from './uploads';

export interface ChannelRow {
  id: number;
  kind: 'coin' | 'wire';
  currency_code: string;
  protocol_code: string | null;
  address: string | null;
  bank_name: string | null;
  bank_address: string | null;
  bank_swift: string | null;
  payee_name: string | null;
  payee_account: string | null;
  enabled: number;
  sort: number;
}

export interface DepositRow {
  id: number;
  user_id: number;
  channel_id: number;
  type: number;
  amount: number;
  currency_code: string;
  protocol_code: string | null;
  address: string | null;
  proof: string;
  status: number;
  remark: string;
  idempotency_key: string | null;
  created_at: number;
  reviewed_at: number | null;
}

/** The largest single deposit accepted, micro-USD: beyond it a typo (an extra zero) is more likely than a payment. */
export const MAX_DEPOSIT = 10_000_000 * 1_000_000;

export type DepositReview = 'approve' | 'reject' | 'invalid';

export class Deposits {
  constructor(
    private readonly db: Db,
    private readonly engine: TradingEngine,
    private readonly uploads: Uploads,
    private readonly clock: () => number,
  ) {}

  channels(kind?: 'coin' | 'wire', includeDisabled = false): ChannelRow[] {
    const rows = this.db.prepare('SELECT * FROM deposit_channels ORDER BY sort, id').all() as ChannelRow[];
    return rows.filter((c) => (includeDisabled || c.enabled === 1) && (!kind || c.kind === kind));
  }

  submit(
    user: UserRow,
    input: { amount: string; proofUrl: string; channelId: number; kind: 'coin' | 'wire'; address?: string; idempotencyKey?: string },
  ): DepositRow {
    if (user.is_demo === 1) fail('DemoNotAllowed');
    if (input.idempotencyKey) {
      const first = this.db
        .prepare('SELECT * FROM deposits WHERE user_id = ? AND idempotency_key = ?')
        .get(user.id, input.idempotencyKey) as DepositRow | undefined;
      if (first) return first;
    }
    const channel = this.channels(input.kind).find((c) => c.id === input.channelId);
    if (!channel) fail(input.kind === 'coin' ? 'NetworkRequired' : 'NoPaymentChannel');
    // A coin deposit names the address the trader paid to: it must be the channel's, or the money went elsewhere.
    if (input.kind === 'coin' && input.address?.trim() !== channel.address) fail('AddressInvalid');
    const amount = parseUnits(input.amount, MONEY_DECIMALS);
    if (amount === null || amount <= 0) fail('AmountInvalid');
    if (amount > MAX_DEPOSIT) fail('AmountAboveMaximum');
    const proof = this.uploads.ownedName(user.id, input.proofUrl) ?? fail('ProofInvalid');
    const id = Number(
      this.db
        .prepare(
          `INSERT INTO deposits (user_id, channel_id, type, amount, currency_code, protocol_code, address, proof, idempotency_key, created_at)
           VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
        )
        .run(
          user.id,
          channel.id,
          channel.kind === 'coin' ? DepositType.Coin : DepositType.Wire,
          amount,
          channel.currency_code,
          channel.protocol_code,
          channel.address,
          proof,
          input.idempotencyKey ?? null,
          this.clock(),
        ).lastInsertRowid,
    );
    return this.get(id)!;
  }

  get(id: number): DepositRow | undefined {
    return this.db.prepare('SELECT * FROM deposits WHERE id = ?').get(id) as DepositRow | undefined;
  }

  list(userId: number, type: number | undefined, page: number, pageSize: number): { rows: DepositRow[]; total: number } {
    const where = type === undefined ? 'user_id = ?' : 'user_id = ? AND type = ?';
    const args = type === undefined ? [userId] : [userId, type];
    const rows = this.db
      .prepare(`SELECT * FROM deposits WHERE ${where} ORDER BY id DESC LIMIT ? OFFSET ?`)
      .all(...args, pageSize, (page - 1) * pageSize) as DepositRow[];
    const total = (this.db.prepare(`SELECT COUNT(*) AS n FROM deposits WHERE ${where}`).get(...args) as { n: number }).n;
    return { rows, total };
  }

  /** Micro-USD of a user's deposits waiting for review. */
  pendingTotal(userId: number): number {
    return (
      this.db.prepare('SELECT COALESCE(SUM(amount), 0) AS s FROM deposits WHERE user_id = ? AND status = 0').get(userId) as { s: number }
    ).s;
  }

  /**
   * The back office's decision on a waiting deposit. Approval credits the amount in the same transaction
   * that moves the record out of review, so a deposit can never be credited twice.
   */
  review(id: number, decision: DepositReview, remark = ''): DepositRow {
    const row = this.get(id) ?? fail('NotFound', `deposit ${id}`);
    const status = decision === 'approve' ? DepositStatus.Finished : decision === 'reject' ? DepositStatus.Rejected : DepositStatus.Invalid;
    const decide = () => {
      const changed = this.db
        .prepare('UPDATE deposits SET status = ?, remark = ?, reviewed_at = ? WHERE id = ? AND status = 0')
        .run(status, remark, this.clock(), id).changes;
      if (changed !== 1) fail('Forbidden', `deposit ${id} was already reviewed`);
    };
    if (decision === 'approve') {
      this.engine.moveFunds(row.user_id, (ledger) => {
        decide();
        ledger.post(row.user_id, [{ value: row.amount, type: LedgerType.Deposit, memo: `#${id}` }]);
      });
    } else {
      immediate(this.db, decide);
    }
    return this.get(id)!;
  }
}
