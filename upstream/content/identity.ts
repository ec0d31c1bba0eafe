/**
 * Real-name checks (spec §2 "Identity verification", §4): name, ID number and both sides of the document,
 * then the back office's decision. A rejection opens the form again with the reason.
 */
import { ID_NUMBER } from '../../contract/identity-rules';
import { ReviewStatus } from '../../contract/enums';
import type { UserRow } from '../accounts/accounts';
import type { Db } from '../db/database';
import type { Uploads } from '../funds/uploads';
import { fail } from '../shared/errors';

export interface IdentityRow {
  user_id: number;
  name: string;
  card_id: string;
  front: string;
  back: string;
  status: number;
  reason: string;
  submitted_at: number;
  reviewed_at: number | null;
}

/** Stored status of a rejected check: the form is shown again (review_status 0) with the reason. */
const REJECTED = 0;

export class Identity {
  constructor(
    private readonly db: Db,
    private readonly uploads: Uploads,
    private readonly clock: () => number,
  ) {}

  get(userId: number): IdentityRow | undefined {
    return this.db.prepare('SELECT * FROM identity_checks WHERE user_id = ?').get(userId) as IdentityRow | undefined;
  }

  /** What the screen shows: the form (0, with the reason of a rejection), waiting (1) or certified (2). */
  center(userId: number): { review_status: number; name: string | null; card_id: string | null; reason: string | null } {
    const row = this.get(userId);
    if (!row) return { review_status: ReviewStatus.NotSubmitted, name: null, card_id: null, reason: null };
    const status = row.status === REJECTED ? ReviewStatus.NotSubmitted : row.status;
    return { review_status: status, name: row.name, card_id: mask(row.card_id), reason: row.status === REJECTED ? row.reason : null };
  }

  submit(user: UserRow, input: { name: string; card_id: string; front_pic: string; reverse_pic: string }): void {
    if (user.is_demo === 1) fail('DemoNotAllowed');
    const name = input.name.trim();
    const cardId = input.card_id.trim().toUpperCase();
    if (!name) fail('NameRequired');
    if (!ID_NUMBER.test(cardId)) fail('IdNumberInvalid');
    const front = this.uploads.ownedName(user.id, input.front_pic);
    const back = this.uploads.ownedName(user.id, input.reverse_pic);
    if (!front || !back || front === back) fail('IdImagesRequired');
    const now = this.clock();
    this.db
      .transaction(() => {
        const current = this.get(user.id);
        if (current && current.status !== REJECTED) fail('IdentityAlreadySubmitted');
        this.db
          .prepare(
            `INSERT INTO identity_checks (user_id, name, card_id, front, back, status, reason, submitted_at, reviewed_at)
             VALUES (?, ?, ?, ?, ?, 1, '', ?, NULL)
             ON CONFLICT (user_id) DO UPDATE SET name = excluded.name, card_id = excluded.card_id, front = excluded.front,
               back = excluded.back, status = 1, reason = '', submitted_at = excluded.submitted_at, reviewed_at = NULL`,
          )
          .run(user.id, name, cardId, front, back, now);
      })
      .immediate();
  }

  /** The back office approves (verified) or rejects (the form again, with the reason) a check under review. */
  review(userId: number, decision: 'approve' | 'reject', reason = ''): IdentityRow {
    const changed = this.db
      .prepare('UPDATE identity_checks SET status = ?, reason = ?, reviewed_at = ? WHERE user_id = ? AND status = 1')
      .run(decision === 'approve' ? ReviewStatus.Verified : REJECTED, decision === 'reject' ? reason : '', this.clock(), userId).changes;
    if (changed !== 1) fail(this.get(userId) ? 'Forbidden' : 'NotFound', `identity of user ${userId} is not under review`);
    return this.get(userId)!;
  }

  waiting(): (IdentityRow & { email: string | null; uid: string })[] {
    return this.db
      .prepare(
        'SELECT i.*, u.email, u.uid FROM identity_checks i JOIN users u ON u.id = i.user_id WHERE i.status = 1 ORDER BY i.submitted_at',
      )
      .all() as (IdentityRow & { email: string | null; uid: string })[];
  }
}

/** All but the last four characters hidden: the owner recognises it, a shoulder-surfer does not. */
function mask(cardId: string): string {
  return cardId.length <= 4 ? cardId : '•'.repeat(cardId.length - 4) + cardId.slice(-4);
}
