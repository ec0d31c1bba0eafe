/**
 * The soak's checks, as pure functions of what was read (the upstream's database, the run's record, the stream
 * clients' report): each returns the violations it found, as sentences; none means the check passed.
 */
import type { Attempt, FaultWindow, RequestSample } from './record';

/** One account as the database has it, with what its log and its orders say it should be. */
export interface AccountFigures {
  user_id: number;
  balance: number;
  lock_balance: number;
  /** Σ account_log.value of the account. */
  log_sum: number;
  /** The last log row's balance_after (null: no log yet). */
  last_after: number | null;
  /** Σ margin of its open and pending orders. */
  open_margin: number;
}

/** The ledger invariants (../shared/design/upstream.md "Ledger"). */
export function ledgerViolations(accounts: readonly AccountFigures[]): string[] {
  const out: string[] = [];
  for (const a of accounts) {
    const who = `account of user ${a.user_id}`;
    if (a.balance !== a.log_sum) out.push(`${who}: balance ${a.balance} ≠ Σ account log ${a.log_sum}`);
    if (a.last_after !== null && a.last_after !== a.balance)
      out.push(`${who}: balance ${a.balance} ≠ last log row's balance after ${a.last_after}`);
    if (a.lock_balance !== a.open_margin) out.push(`${who}: locked margin ${a.lock_balance} ≠ Σ open and pending margins ${a.open_margin}`);
    if (a.balance < 0) out.push(`${who}: negative balance ${a.balance}`);
    if (a.lock_balance < 0) out.push(`${who}: negative locked margin ${a.lock_balance}`);
  }
  return out;
}

/** A closed or cancelled order (or closed part) as its history row shows it, with what the account log wrote for it. */
export interface EndedOrder {
  id: number;
  closed: boolean;
  profit: number | null;
  margin: number;
  fee: number;
  /** Per account-log type (contract's LedgerType): how many rows name this order, and their sum. */
  logged: ReadonlyMap<number, { rows: number; sum: number }>;
}

const REALISED_PROFIT = 9;
const MARGIN_RELEASED = 6;
const TRADE_FEE_REFUND = 8;

/**
 * The history and the account log agree: a closed order's profit is the one realised-profit row that names it (none
 * for a zero) and its margin the one release; a cancelled order released its margin and refunded its fee, and realised nothing.
 */
export function historyViolations(orders: readonly EndedOrder[]): string[] {
  const out: string[] = [];
  for (const o of orders) {
    const log = (type: number) => o.logged.get(type) ?? { rows: 0, sum: 0 };
    // The ledger writes no row for a zero amount (a position closed where it opened realises nothing).
    const expect = (type: number, name: string, value: number) => {
      const l = log(type);
      if (l.rows !== (value === 0 ? 0 : 1) || l.sum !== value)
        out.push(`order ${o.id}: history says ${name} ${value}, the account log has ${l.rows} row(s) summing ${l.sum}`);
    };
    expect(MARGIN_RELEASED, 'margin released', o.margin);
    if (o.closed) expect(REALISED_PROFIT, 'profit', o.profit ?? 0);
    else {
      expect(TRADE_FEE_REFUND, 'fee refunded', o.fee);
      if (log(REALISED_PROFIT).rows !== 0) out.push(`order ${o.id}: cancelled, yet the account log realised a profit for it`);
    }
  }
  return out;
}

/** The order rows that carry an idempotency key. */
export interface KeyedRow {
  id: number;
  parent_id: number | null;
}

export interface OrderCheck {
  violations: string[];
  acked: number;
  refused: number;
  /** Answers lost (no answer, 503, abandoned) that a later send under the same key resolved. */
  lostThenResolved: number;
  /** Answers lost and never resolved: each exists at most once. */
  lostOpen: number;
  postedMoreThanOnce: number;
  /** Of those resolved by a retry, how many the orders screen was seen to show. */
  shownAfterRetry: number;
}

/**
 * Exactly once, against the database: an acknowledged order exists once, under its key, as the number the trader was
 * told (a partial close: its row points at the position); a refused key has no order; a key whose answer was lost
 * has at most one; every send under one key was told the same number, and none was refused after an acknowledgement.
 */
export function orderViolations(attempts: Iterable<Attempt>, rowsByKey: ReadonlyMap<string, readonly KeyedRow[]>): OrderCheck {
  const check: OrderCheck = {
    violations: [],
    acked: 0,
    refused: 0,
    lostThenResolved: 0,
    lostOpen: 0,
    postedMoreThanOnce: 0,
    shownAfterRetry: 0,
  };
  for (const a of attempts) {
    const rows = rowsByKey.get(a.key) ?? [];
    const say = (what: string) => check.violations.push(`${a.action} ${a.key}: ${what}`);
    if (a.sends > 1) check.postedMoreThanOnce++;
    if (new Set(a.told).size > 1) say(`sends under one key were told different orders (${[...new Set(a.told)].join(', ')})`);
    const firstAck = a.history.indexOf('acked');
    if (firstAck >= 0 && a.history.slice(firstAck).includes('refused')) say('refused after it was acknowledged');
    if (a.outcome === 'acked') {
      check.acked++;
      if (a.history.indexOf('unknown') >= 0 && a.history.indexOf('unknown') < firstAck) check.lostThenResolved++;
      if (a.shown) check.shownAfterRetry++;
      if (a.shown === false) say(`a retry resolved it to order ${a.id}, but the orders screen did not show that order`);
      if (rows.length !== 1) say(`acknowledged, but ${rows.length} orders carry its key`);
      else if (a.action === 'place' && rows[0]!.id !== a.id) say(`acknowledged as order ${a.id}, but its key is on order ${rows[0]!.id}`);
      else if (a.action === 'partial-close' && rows[0]!.parent_id !== a.position)
        say(`closed part of position ${a.position}, but its row points at ${rows[0]!.parent_id}`);
    } else if (a.outcome === 'refused') {
      check.refused++;
      if (rows.length !== 0) say(`refused, but order ${rows.map((r) => r.id).join(', ')} carries its key`);
    } else {
      check.lostOpen++;
      if (rows.length > 1) say(`answer lost, and ${rows.length} orders carry its key`);
    }
  }
  return check;
}

/** Issue 41: after each fault the system is back (every node's feed up, its workers there) within this. */
export const RECOVERY_LIMIT_MS = 60_000;

/** Faults the system took longer than RECOVERY_LIMIT_MS to recover from (or has not yet, that long after). */
export function lateRecoveries(windows: readonly FaultWindow[], now: number): string[] {
  return windows
    .filter((w) => (Number.isNaN(w.recovered) ? now : w.recovered) - w.start > RECOVERY_LIMIT_MS)
    .map((w) =>
      Number.isNaN(w.recovered)
        ? `${w.kind}: not back ${((now - w.start) / 1000).toFixed(0)} s after it`
        : `${w.kind}: back only after ${((w.recovered - w.start) / 1000).toFixed(1)} s`,
    );
}

/** The failed requests that no fault window explains: [started, ended] meets no [start, recovered + grace]. */
export function failuresOutsideFaults(
  requests: readonly RequestSample[],
  windows: readonly FaultWindow[],
  graceMs: number,
): RequestSample[] {
  return requests.filter(
    (r) =>
      r.failed && !windows.some((w) => r.ended >= w.start && r.started <= (Number.isNaN(w.recovered) ? Infinity : w.recovered + graceMs)),
  );
}

/** Streams: the held count is back, and every held client read a quote after the last recovery. */
export function streamViolations(report: { held: number; quotedSince: number }, target: number): string[] {
  const out: string[] = [];
  if (report.held !== target) out.push(`${report.held} of ${target} stream clients held`);
  if (report.quotedSince !== report.held)
    out.push(`${report.held - report.quotedSince} held stream clients read no quote since the last recovery`);
  return out;
}

/** Growth of a series after warm-up, in percent of the warm-up value (the last value against the baseline). */
export function growthPercent(baseline: number, last: number): number {
  return ((last - baseline) / baseline) * 100;
}

/** One memory reading: each process's size at one moment (RSS, or V8 heap in use, as `rss`). */
export type ProcessReading = readonly { name: string; pid: number; rss: number }[];

/**
 * How a window of readings gives a process's size. RSS by its median: a worker's RSS saws by ±20 % within minutes
 * and jumps while it takes a killed worker's streams, so its peak is the window's worst moment, not its size. The V8
 * heap in use by its floor: read at a random moment it holds what the last collection left plus the garbage made
 * since, so its peaks say when the collector ran, and a leak shows as a floor that rises.
 */
export type SizeBy = 'median' | 'floor';

function sizeOf(values: number[], by: SizeBy): number {
  const sorted = [...values].sort((a, b) => a - b);
  return by === 'floor' ? sorted[0]! : (sorted[(sorted.length - 1) >> 1]! + sorted[sorted.length >> 1]!) / 2;
}

/**
 * The web workers' heap in one window of readings: each worker's floor (what its collections leave), averaged over
 * the workers read at least `minReadings` times in it (NaN when none was). Not the sum of their heaps: a worker's
 * heap swings threefold within minutes, so the sum's floor says when two collectors happened to run together. Not
 * one worker through the run: a fault replaces them, and they share the load evenly, so each floor is one share.
 */
export function workersHeap(readings: readonly ProcessReading[], minReadings: number): number {
  const floors = [...sizesOf(readings, 'floor').values()].filter((p) => p.readings >= minReadings).map((p) => p.size);
  return floors.length ? floors.reduce((a, b) => a + b, 0) / floors.length : NaN;
}

const processKey = (p: { name: string; pid: number }) => `${p.name} ${p.pid}`;

/** Each process's size over a window of readings (by its median or floor), and how many readings it had there. */
function sizesOf(readings: readonly ProcessReading[], by: SizeBy) {
  const seen = new Map<string, { name: string; pid: number; values: number[] }>();
  for (const reading of readings) {
    for (const p of reading) {
      if (!(p.rss > 0)) continue;
      const entry = seen.get(processKey(p)) ?? { name: p.name, pid: p.pid, values: [] };
      entry.values.push(p.rss);
      seen.set(processKey(p), entry);
    }
  }
  return new Map([...seen].map(([k, p]) => [k, { name: p.name, pid: p.pid, size: sizeOf(p.values, by), readings: p.values.length }]));
}

/**
 * Memory growth of each process from one window of readings to a later one, each window's size taken `by` its
 * median or floor. Only a process alive at the last reading and read in the first window is compared: one a fault
 * replaced started afresh, and one it killed has no end.
 */
export function processGrowth(
  first: readonly ProcessReading[],
  later: readonly ProcessReading[],
  by: SizeBy,
): { name: string; pid: number; percent: number }[] {
  const alive = new Set((later.at(-1) ?? []).filter((p) => p.rss > 0).map(processKey));
  const before = sizesOf(first, by);
  return [...sizesOf(later, by)].flatMap(([k, p]) => {
    const b = before.get(k);
    return b && alive.has(k) ? [{ name: p.name, pid: p.pid, percent: growthPercent(b.size, p.size) }] : [];
  });
}
