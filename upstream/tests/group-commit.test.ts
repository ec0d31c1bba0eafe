/**
 * Group commit (issue 41, decision 0042): orders that arrive together share one transaction, each in its own
 * SAVEPOINT, and each is answered only once that transaction has committed. A second connection to the same file
 * sees only committed rows, so it is the witness of "durable before answered".
 */
import Database from 'better-sqlite3';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest';
import { trade } from '../../contract/index';
import { EntryMode, Side } from '../../contract/enums';
import { BusinessError } from '../shared/errors';
import { startTestUpstream } from '../testing';
import type { SubmitInput } from '../trading/engine';
import { engineFixture, type EngineFixture } from './fixture';

let f: EngineFixture;
beforeEach(() => {
  f = engineFixture();
  f.tick('EURUSD', 1.1);
});
afterEach(() => f.close());

const order = (extra: Partial<SubmitInput> = {}): SubmitInput => ({
  side: Side.Buy,
  lots: '0.1',
  instrumentId: f.id('EURUSD'),
  entryMode: EntryMode.Market,
  targetPrice: null,
  stopLoss: null,
  takeProfit: null,
  leverage: 100,
  ...extra,
});

/** What a promise settled to, without throwing. */
const settled = <T>(p: Promise<T>) =>
  p.then(
    (value) => ({ value }),
    (error: unknown) => ({ error }),
  );

const refusal = (outcome: { value?: unknown; error?: unknown }) =>
  outcome.error instanceof BusinessError ? outcome.error.errorName : outcome.error;

describe('group commit', () => {
  test('orders of one turn share one transaction; nothing is written or answered before it commits', async () => {
    const users = [f.demoUser(), f.demoUser(), f.demoUser()];
    const transactions = vi.spyOn(f.up.db, 'transaction');
    // Another connection sees only what is committed: at each answer, its order must be there.
    const witness = new Database(f.up.db.name, { readonly: true });
    const committed = witness.prepare('SELECT id FROM orders WHERE id = ?');
    const answered: number[] = [];
    const all = Array.from({ length: 30 }, (_, i) =>
      f.up.engine.submitGrouped(users[i % 3]!, order()).then((row) => {
        answered.push(row.id);
        expect(committed.get(row.id)).toEqual({ id: row.id });
        return row;
      }),
    );
    const count = () => (f.up.db.prepare('SELECT COUNT(*) AS n FROM orders').get() as { n: number }).n;
    expect(count()).toBe(0);
    await Promise.resolve();
    expect(answered).toEqual([]);
    const rows = await Promise.all(all);
    // One transaction function for the group (the per-order SAVEPOINT function was made once, at start).
    expect(transactions).toHaveBeenCalledTimes(1);
    expect(count()).toBe(30);
    expect(new Set(rows.map((r) => r.id)).size).toBe(30);
    witness.close();
    for (const u of users) f.checkInvariants(u);
  });

  test('more than 64 waiting orders commit in groups of at most 64', async () => {
    const user = f.demoUser();
    const transactions = vi.spyOn(f.up.db, 'transaction');
    const rows = await Promise.all(Array.from({ length: 130 }, () => f.up.engine.submitGrouped(user, order({ lots: '0.01' }))));
    expect(rows).toHaveLength(130);
    expect(transactions).toHaveBeenCalledTimes(3); // 64 + 64 + 2
    f.checkInvariants(user);
  });

  test('a failing order in a group refuses only itself: business refusals and a failure after its writes', async () => {
    const rich = f.demoUser();
    const other = f.demoUser();
    const broken = f.demoUser();
    // The ledger fails for `broken` after its order row was inserted: its SAVEPOINT must take the row back.
    const post = f.up.engine.ledger.post.bind(f.up.engine.ledger);
    vi.spyOn(f.up.engine.ledger, 'post').mockImplementation((userId, movements, lock) => {
      if (userId === broken) throw new Error('disk says no, for this order only');
      return post(userId, movements, lock);
    });
    const outcomes = await Promise.all([
      settled(f.up.engine.submitGrouped(rich, order({ lots: '40' }))), // margin 44,000 of 100,000
      settled(f.up.engine.submitGrouped(other, order({ lots: '0.5' }))),
      settled(f.up.engine.submitGrouped(rich, order({ lots: '40' }))), // 88,000 held by now: still fits
      settled(f.up.engine.submitGrouped(rich, order({ lots: '40' }))), // sees the two above, uncommitted: refused
      settled(f.up.engine.submitGrouped(other, order({ lots: '0.1234' }))), // not a whole step
      settled(f.up.engine.submitGrouped(broken, order())),
      settled(f.up.engine.submitGrouped(other, order({ side: Side.Sell, lots: '0.2' }))),
    ]);
    expect(outcomes.map((o) => ('value' in o ? 'ok' : refusal(o)))).toEqual([
      'ok',
      'ok',
      'ok',
      'InsufficientMargin',
      'LotsInvalid',
      expect.objectContaining({ message: 'disk says no, for this order only' }),
      'ok',
    ]);
    const stored = f.up.db.prepare('SELECT user_id, lots FROM orders ORDER BY id').all();
    expect(stored).toEqual([
      { user_id: rich, lots: 40_000 },
      { user_id: other, lots: 500 },
      { user_id: rich, lots: 40_000 },
      { user_id: other, lots: 200 },
    ]);
    vi.restoreAllMocks();
    for (const u of [rich, other, broken]) f.checkInvariants(u);
    expect(f.up.engine.holdingOf(broken)).toEqual([]);
  });

  test('a key sent twice in one group, and again in a later group, resolves to the one order', async () => {
    const user = f.demoUser();
    const [a, b, c] = await Promise.all([
      f.up.engine.submitGrouped(user, order({ idempotencyKey: 'tap-1' })),
      f.up.engine.submitGrouped(user, order({ idempotencyKey: 'tap-1' })),
      f.up.engine.submitGrouped(user, order({ idempotencyKey: 'tap-2' })),
    ]);
    expect(b!.id).toBe(a!.id);
    expect(c!.id).not.toBe(a!.id);
    const later = await f.up.engine.submitGrouped(user, order({ idempotencyKey: 'tap-1' }));
    expect(later.id).toBe(a!.id);
    // The same key for another order is refused, in the group as after it.
    const reused = await settled(f.up.engine.submitGrouped(user, order({ idempotencyKey: 'tap-2', lots: '0.2' })));
    expect(refusal(reused)).toBe('IdempotencyKeyReused');
    expect((f.up.db.prepare('SELECT COUNT(*) AS n FROM orders').get() as { n: number }).n).toBe(2);
    // Memory holds the position once: the replays were not remembered again.
    expect(f.up.engine.holdingOf(user).map((p) => p.id)).toEqual([a!.id, c!.id]);
    f.checkInvariants(user);
  });

  test('an order that fails in its own group does not hold its key: the retry places it', async () => {
    const user = f.demoUser();
    f.up.market.forceStatus(f.id('EURUSD'), 0);
    const first = await settled(f.up.engine.submitGrouped(user, order({ idempotencyKey: 'retry-me' })));
    expect(refusal(first)).toBe('MarketClosed');
    f.up.market.forceStatus(f.id('EURUSD'), 1);
    const again = await f.up.engine.submitGrouped(user, order({ idempotencyKey: 'retry-me' }));
    expect(again.idempotency_key).toBe('retry-me');
    f.checkInvariants(user);
  });
});

describe('group commit over HTTP', () => {
  test('concurrent orders are all committed, and each answer finds its order in another connection', async () => {
    const up = await startTestUpstream();
    const witness = new Database(path.join(up.dataDir, 'upstream.sqlite'), { readonly: true });
    try {
      up.forceMarket('EURUSD', 'open');
      const id = up.upstream.market.getByCode('EURUSD')!.id;
      const traders = await Promise.all(Array.from({ length: 8 }, (_, i) => up.demo().then((d) => ({ ...d, i }))));
      const seen = witness.prepare('SELECT id FROM orders WHERE id = ? AND idempotency_key = ?');
      const answers = await Promise.all(
        Array.from({ length: 96 }, async (_, n) => {
          const t = traders[n % traders.length]!;
          const key = `c-${n}`;
          const body = await up.call(
            trade.submit,
            { type: 1 + (n % 2), cont: '0.01', forex_id: id, status: 1, multiple: 100, idempotency_key: key },
            { token: t.token },
          );
          // The moment the client holds its answer, the order is committed: another connection reads it.
          const orderId = (body.data as { Id: number } | null)?.Id;
          return { code: body.code, committed: orderId !== undefined && seen.get(orderId, key) !== undefined };
        }),
      );
      expect(answers.filter((a) => a.code !== 1)).toEqual([]);
      expect(answers.filter((a) => !a.committed)).toEqual([]);
      expect((witness.prepare('SELECT COUNT(*) AS n FROM orders').get() as { n: number }).n).toBe(96);
    } finally {
      witness.close();
      await up.close();
    }
  }, 30_000);
});
