/**
 * Contract tests of the statement ranges (issue 40): my_deal and forexChange with optional `from`/`to` (ms,
 * `from` inclusive, `to` exclusive). A range keeps only its rows; without one the lists are as before; and the
 * account log's balance-after figures make a statement add up: the balance after the last movement before
 * `from` + every movement in the range = the balance after the range's last movement.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { market, trade } from '../../contract/index';
import { money } from '../../contract/money';
import { startTestUpstream, type TestUpstream } from '../testing';
import { expectError, expectOk, extrasOf, freshEmail, registerByEmail } from './contract-helpers';

const DAY = 86_400_000;
let up: TestUpstream;
let token: string;
/** The day boundaries the test put its movements between: day 1 = [days[0], days[1]), and so on. */
const days: number[] = [];

async function log(range: { from?: number; to?: number } = {}) {
  const rows = [];
  for (let page = 1; ; page++) {
    const env = await up.call(trade.forexChange, { page, ...range }, { token });
    const data = expectOk(trade.forexChange, env);
    rows.push(...data);
    if (rows.length >= extrasOf(trade.forexChange, env).total || data.length === 0) return rows;
  }
}

async function history(range: { from?: number; to?: number } = {}) {
  const env = await up.call(trade.myDeal, { status: 3, ...range }, { token });
  return { rows: expectOk(trade.myDeal, env), ...extrasOf(trade.myDeal, env) };
}

beforeAll(async () => {
  up = await startTestUpstream();
  up.forceMarket('EURUSD', 'open');
  const list = expectOk(market.tradeList, await up.call(market.tradeList));
  const eurusd = list.find((i) => i.Code === 'EURUSD')!.Id;
  const session = await registerByEmail(up, freshEmail('statement'));
  token = session.token;
  const user = String(session.user.id);
  const now = async () => Date.parse(expectOk(trade.forexChange, await up.call(trade.forexChange, {}, { token }))[0]!.CreatedAtTran);
  const trip = async (exit: number) => {
    up.setPrice('EURUSD', 1.1);
    const o = expectOk(
      trade.submit,
      await up.call(trade.submit, { type: 1, cont: '0.5', forex_id: eurusd, status: 1, multiple: 100 }, { token }),
    );
    up.setPrice('EURUSD', exit);
    expectOk(trade.close, await up.call(trade.close, { id: o.Id }, { token }));
  };
  // Day 1: a deposit and a winning trip.
  await up.admin('POST', '/admin/balance', { user, amount: '1000', memo: 'first deposit' });
  days.push((await now()) - 1);
  await trip(1.1012);
  up.advance(DAY);
  // Day 2: another deposit, a losing trip.
  await up.admin('POST', '/admin/balance', { user, amount: '250.125', memo: 'second' });
  days.push(await now());
  await trip(1.0991);
  up.advance(DAY);
  // Day 3: a withdrawal by the back office.
  await up.admin('POST', '/admin/balance', { user, amount: '-100.5', memo: 'taken out' });
  days.push(await now());
  days.push((await now()) + 1);
});
afterAll(() => up.close());

describe('forexChange from/to', () => {
  test('without a range every movement is listed, newest first', async () => {
    const all = await log();
    // Each trip: margin held, fee, margin released, realised profit; three adjustments.
    expect(all.length).toBe(11);
    expect(all.map((r) => r.Id)).toEqual([...all.map((r) => r.Id)].sort((a, b) => b - a));
  });

  test('a range keeps only its movements, and total counts them', async () => {
    const day2 = await log({ from: days[1], to: days[2] });
    expect(day2.map((r) => r.Memo)).toContain('second');
    expect(day2.map((r) => r.Memo)).not.toContain('first deposit');
    expect(day2.map((r) => r.Memo)).not.toContain('taken out');
    expect(day2.length).toBe(5);
    for (const r of day2) {
      expect(Date.parse(r.CreatedAtTran)).toBeGreaterThanOrEqual(days[1]!);
      expect(Date.parse(r.CreatedAtTran)).toBeLessThan(days[2]!);
    }
    expect((await log({ from: days[2] })).map((r) => r.Memo)).toEqual(['taken out']);
    expect((await log({ to: days[1] })).length).toBe(5);
    expect(await log({ from: days[3] })).toEqual([]);
  });

  test('opening balance + every movement in the range = closing balance, by the ledger', async () => {
    for (const [from, to] of [
      [days[0]!, days[1]!],
      [days[1]!, days[2]!],
      [days[1]!, days[3]!],
      [days[0]!, days[3]!],
    ] as const) {
      const before = await log({ to: from });
      const opening = before.length ? money.fromNumber(before[0]!.Balance) : 0;
      const rows = await log({ from, to });
      const sum = rows.reduce((s, r) => s + money.fromNumber(r.Value), 0);
      const closing = money.fromNumber(rows[0]!.Balance);
      expect(opening + sum).toBe(closing);
    }
    // The whole range ends at the account's balance now.
    const { balance } = expectOk(trade.getBalance, await up.call(trade.getBalance, {}, { token }));
    expect((await log({ from: days[0] }))[0]!.Balance).toBe(balance);
  });

  test('a bad bound is refused', async () => {
    expectError(await up.call(trade.forexChange, { from: 'yesterday' }, { token }), 'InvalidRequest');
    expectError(await up.call(trade.forexChange, { to: -1 }, { token }), 'InvalidRequest');
    // Empty form text is no bound.
    expect((await log({ from: '' as unknown as number })).length).toBe(11);
  });
});

describe('my_deal from/to', () => {
  test('the history tab is filtered by when each order closed; without a range both are there', async () => {
    const all = await history();
    expect(all.total).toBe(2);
    const day1 = await history({ from: days[0], to: days[1] });
    const day2 = await history({ from: days[1], to: days[2] });
    expect(day1.total).toBe(1);
    expect(day2.total).toBe(1);
    expect(day1.rows[0]!.Id).not.toBe(day2.rows[0]!.Id);
    // all_fact_profits sums the range only.
    expect(day1.all_fact_profits).toBe(day1.rows[0]!.FactProfits);
    expect(day1.all_fact_profits).toBeGreaterThan(0);
    expect(day2.all_fact_profits).toBeLessThan(0);
    expect((await history({ from: days[2] })).total).toBe(0);
  });
});
