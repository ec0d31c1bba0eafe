import { describe, expect, test } from 'vitest';
import {
  failuresOutsideFaults,
  historyViolations,
  lateRecoveries,
  ledgerViolations,
  orderViolations,
  processGrowth,
  streamViolations,
  workersHeap,
  type KeyedRow,
} from './checks';
import { Recorder, type RequestSample } from './record';

const account = { user_id: 7, balance: 1000, lock_balance: 200, log_sum: 1000, last_after: 1000, open_margin: 200 };

describe('ledger invariants', () => {
  test('an account whose balance is its log and whose locked margin is its open orders passes', () => {
    expect(
      ledgerViolations([account, { ...account, user_id: 8, balance: 0, log_sum: 0, last_after: null, lock_balance: 0, open_margin: 0 }]),
    ).toEqual([]);
  });

  test('each broken invariant is named', () => {
    expect(ledgerViolations([{ ...account, log_sum: 999 }])).toEqual(['account of user 7: balance 1000 ≠ Σ account log 999']);
    expect(ledgerViolations([{ ...account, last_after: 900 }])[0]).toContain("last log row's balance after 900");
    expect(ledgerViolations([{ ...account, open_margin: 150 }])[0]).toContain('locked margin 200 ≠ Σ open and pending margins 150');
    expect(ledgerViolations([{ ...account, balance: -5, log_sum: -5, last_after: -5 }])).toEqual([
      'account of user 7: negative balance -5',
    ]);
  });
});

describe('history matches the account log', () => {
  const logged = (entries: [number, number, number][]) => new Map(entries.map(([type, rows, sum]) => [type, { rows, sum }]));
  const closed = {
    id: 5,
    closed: true,
    profit: -300,
    margin: 2_000,
    fee: 40,
    logged: logged([
      [6, 1, 2_000],
      [9, 1, -300],
    ]),
  };
  const cancelled = {
    id: 6,
    closed: false,
    profit: 0,
    margin: 2_000,
    fee: 40,
    logged: logged([
      [6, 1, 2_000],
      [8, 1, 40],
    ]),
  };

  test('a closed order whose profit and margin the log wrote once, and a cancelled one refunded, pass', () => {
    expect(historyViolations([closed, cancelled])).toEqual([]);
    // Closed where it opened: nothing realised, no row.
    expect(historyViolations([{ ...closed, profit: 0, logged: logged([[6, 1, 2_000]]) }])).toEqual([]);
    expect(
      historyViolations([
        {
          ...closed,
          profit: 0,
          logged: logged([
            [6, 1, 2_000],
            [9, 1, 0],
          ]),
        },
      ]),
    ).toHaveLength(1);
  });

  test('a profit logged twice or differently, a margin not released, a cancelled order that realised: each named', () => {
    expect(
      historyViolations([
        {
          ...closed,
          logged: logged([
            [6, 1, 2_000],
            [9, 2, -600],
          ]),
        },
      ]),
    ).toEqual(['order 5: history says profit -300, the account log has 2 row(s) summing -600']);
    expect(historyViolations([{ ...closed, profit: -301 }])[0]).toContain('profit -301');
    expect(historyViolations([{ ...closed, logged: logged([[9, 1, -300]]) }])[0]).toContain(
      'margin released 2000, the account log has 0 row(s)',
    );
    expect(
      historyViolations([
        {
          ...cancelled,
          logged: logged([
            [6, 1, 2_000],
            [8, 1, 40],
            [9, 1, 0],
          ]),
        },
      ]),
    ).toEqual(['order 6: cancelled, yet the account log realised a profit for it']);
  });
});

describe('orders exactly once', () => {
  const rows = (entries: [string, KeyedRow[]][]) => new Map(entries);

  test('acknowledged once, refused never, lost at most once: passes, and counts each kind', () => {
    const r = new Recorder();
    r.attempt('a', 'place', 'acked', 1);
    r.attempt('b', 'place', 'refused');
    r.attempt('c', 'place', 'unknown');
    r.attempt('d', 'place', 'unknown');
    r.attempt('d', 'place', 'acked', 4);
    r.attempt('e', 'partial-close', 'acked', undefined, 1);
    const check = orderViolations(
      r.attempts.values(),
      rows([
        ['a', [{ id: 1, parent_id: null }]],
        ['c', [{ id: 3, parent_id: null }]],
        ['d', [{ id: 4, parent_id: null }]],
        ['e', [{ id: 5, parent_id: 1 }]],
      ]),
    );
    expect(check).toMatchObject({ violations: [], acked: 3, refused: 1, lostThenResolved: 1, lostOpen: 1, postedMoreThanOnce: 1 });
  });

  test('an order a retry resolved must be on the orders screen', () => {
    const r = new Recorder();
    for (const key of ['seen', 'unseen']) {
      r.attempt(key, 'place', 'unknown');
      r.attempt(key, 'place', 'acked', key === 'seen' ? 1 : 2);
    }
    r.shownAfterRetry('seen', true);
    r.shownAfterRetry('unseen', false);
    const check = orderViolations(
      r.attempts.values(),
      rows([
        ['seen', [{ id: 1, parent_id: null }]],
        ['unseen', [{ id: 2, parent_id: null }]],
      ]),
    );
    expect(check.shownAfterRetry).toBe(1);
    expect(check.violations).toEqual(['place unseen: a retry resolved it to order 2, but the orders screen did not show that order']);
  });

  test('an acknowledged order missing, doubled, or under another number fails', () => {
    const r = new Recorder();
    r.attempt('a', 'place', 'acked', 1);
    r.attempt('b', 'place', 'acked', 2);
    r.attempt('c', 'place', 'acked', 3);
    const { violations } = orderViolations(
      r.attempts.values(),
      rows([
        [
          'b',
          [
            { id: 2, parent_id: null },
            { id: 9, parent_id: null },
          ],
        ],
        ['c', [{ id: 4, parent_id: null }]],
      ]),
    );
    expect(violations).toEqual([
      'place a: acknowledged, but 0 orders carry its key',
      'place b: acknowledged, but 2 orders carry its key',
      'place c: acknowledged as order 3, but its key is on order 4',
    ]);
  });

  test('a refused key that has an order, a lost one with two, a partial close on the wrong position fail', () => {
    const r = new Recorder();
    r.attempt('a', 'place', 'refused');
    r.attempt('b', 'place', 'unknown');
    r.attempt('c', 'partial-close', 'acked', undefined, 10);
    const { violations } = orderViolations(
      r.attempts.values(),
      rows([
        ['a', [{ id: 1, parent_id: null }]],
        [
          'b',
          [
            { id: 2, parent_id: null },
            { id: 3, parent_id: null },
          ],
        ],
        ['c', [{ id: 4, parent_id: 11 }]],
      ]),
    );
    expect(violations).toEqual([
      'place a: refused, but order 1 carries its key',
      'place b: answer lost, and 2 orders carry its key',
      'partial-close c: closed part of position 10, but its row points at 11',
    ]);
  });

  test('two sends under one key told different orders, or refused after an acknowledgement, fail', () => {
    const r = new Recorder();
    r.attempt('a', 'place', 'acked', 1);
    r.attempt('a', 'place', 'acked', 2);
    r.attempt('b', 'place', 'acked', 3);
    r.attempt('b', 'place', 'refused');
    const { violations } = orderViolations(
      r.attempts.values(),
      rows([
        ['a', [{ id: 1, parent_id: null }]],
        ['b', [{ id: 3, parent_id: null }]],
      ]),
    );
    expect(violations).toEqual([
      'place a: sends under one key were told different orders (1, 2)',
      'place a: acknowledged as order 2, but its key is on order 1',
      'place b: refused after it was acknowledged',
    ]);
    // The acknowledgement stands: the later refusal does not turn the key into a refused one.
    expect(r.attempts.get('b')!.outcome).toBe('acked');
  });
});

describe('failures outside fault windows', () => {
  const failed = (started: number, ended: number): RequestSample => ({ kind: 'page', started, ended, failed: true });
  const windows = [{ kind: 'upstream-kill', start: 1000, recovered: 2000 }];

  test('a failure that meets a window or its grace is the fault’s; one before or well after is not', () => {
    const inside = failed(1500, 1600);
    const startedBefore = failed(500, 1100);
    const inGrace = failed(2400, 2500);
    const before = failed(100, 900);
    const after = failed(2600, 2700);
    const ok: RequestSample = { kind: 'page', started: 3000, ended: 3100, failed: false };
    expect(failuresOutsideFaults([inside, startedBefore, inGrace, before, after, ok], windows, 500)).toEqual([before, after]);
  });

  test('a fault the system never recovered from explains every later failure', () => {
    expect(failuresOutsideFaults([failed(5000, 5100)], [{ kind: 'upstream-freeze', start: 1000, recovered: NaN }], 0)).toEqual([]);
  });

  test('a fault recovered from after more than 60 s, or not yet that long after, is a violation of its own', () => {
    const windows = [
      { kind: 'upstream-kill', start: 0, recovered: 59_000 },
      { kind: 'worker-kill', start: 100_000, recovered: 161_000 },
      { kind: 'redis-restart', start: 200_000, recovered: NaN },
      { kind: 'upstream-freeze', start: 290_000, recovered: NaN },
    ];
    expect(lateRecoveries(windows, 300_000)).toEqual(['worker-kill: back only after 61.0 s', 'redis-restart: not back 100 s after it']);
  });
});

test('streams: the held count and a quote since recovery for every held client', () => {
  expect(streamViolations({ held: 495, quotedSince: 495 }, 495)).toEqual([]);
  expect(streamViolations({ held: 490, quotedSince: 488 }, 495)).toEqual([
    '490 of 495 stream clients held',
    '2 held stream clients read no quote since the last recovery',
  ]);
});

test('memory growth: median against median, only for a process read in the first window and alive at the end', () => {
  const p = (name: string, pid: number, rss: number) => ({ name, pid, rss });
  const first = [
    [p('web worker', 1, 100), p('web worker', 2, 100), p('upstream', 5, 50)],
    [p('web worker', 1, 120)],
    [p('web worker', 1, 100)],
  ];
  // Worker 2 was killed during the later window (its early readings must not count); upstream 6 replaced upstream 5.
  // Worker 1 jumped to 300 once (it took a killed worker's streams): its median moved 5 %, its peak would say 150 %.
  const later = [
    [p('web worker', 1, 90), p('web worker', 2, 300), p('upstream', 6, 80)],
    [p('web worker', 1, 300)],
    [p('web worker', 1, 105), p('upstream', 6, 81)],
  ];
  expect(processGrowth(first, later, 'median')).toEqual([{ name: 'web worker', pid: 1, percent: 5 }]);
});

test('heap growth: floor against floor, so a sawtooth with a taller tooth passes and a rising floor fails', () => {
  const series = (values: number[]) => values.map((heap) => [{ name: 'web primary heap', pid: 1, rss: heap }]);
  const first = series([220, 300, 250, 230, 290]);
  // The collector ran late once (a peak 17 % over the first window's), but what survives each collection stayed at ~220.
  expect(processGrowth(first, series([350, 226, 260, 240]), 'floor')).toEqual([
    expect.objectContaining({ percent: expect.closeTo(2.7, 1) }),
  ]);
  // A leak: every collection leaves more behind.
  expect(processGrowth(first, series([270, 330, 260, 300]), 'floor')).toEqual([
    expect.objectContaining({ percent: expect.closeTo(18.2, 1) }),
  ]);
});

test("the workers' heap: each worker's floor, averaged over the workers read often enough", () => {
  const reading = (...heaps: [pid: number, heap: number][]) => heaps.map(([pid, rss]) => ({ name: 'web worker heap', pid, rss }));
  // Worker 1 collects down to 100, worker 2 to 90; worker 3, started at the window's end, was read too few times.
  const window = [reading([1, 250], [2, 90]), reading([1, 100], [2, 300], [3, 150]), reading([1, 180], [2, 120], [3, 200])];
  expect(workersHeap(window, 3)).toBe(95);
  expect(workersHeap(window, 2)).toBeCloseTo(113.3, 1);
  expect(workersHeap([], 3)).toBeNaN();
});
