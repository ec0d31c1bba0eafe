import { expect, test } from 'vitest';
import { faultSchedule, readSoakConfig } from './config';
import type { RequestSample } from './record';
import { csv, minuteRows, percentile, svg, table } from './report';

const sample = (kind: RequestSample['kind'], started: number, ms: number, failed = false): RequestSample => ({
  kind,
  started,
  ended: started + ms,
  failed,
});

test('per-minute rows: latency percentiles of answered pages and orders, failures, the minute’s last reading and faults', () => {
  const start = 1_000_000;
  const requests = [
    sample('page', start + 1000, 10),
    sample('page', start + 2000, 30),
    sample('order', start + 3000, 50),
    sample('order', start + 4000, 5000, true),
    sample('page', start + 61_000, 20),
  ];
  const outside = new Set([requests[3]!]);
  const reading = (at: number, held: number) => ({
    at,
    webRss: 200 * 2 ** 20,
    upstreamRss: 100 * 2 ** 20,
    clientsRss: 0,
    webHeap: 50 * 2 ** 20,
    held,
    processes: [],
  });
  const rows = minuteRows(
    start,
    2,
    requests,
    outside,
    [reading(start + 5000, 400), reading(start + 50_000, 495)],
    [{ kind: 'worker-kill', start: start + 70_000, recovered: start + 75_000 }],
  );
  expect(rows[0]).toMatchObject({
    minute: 1,
    pageP50: 10,
    pageP99: 30,
    orderP50: 50,
    requests: 4,
    failed: 1,
    failedOutsideFaults: 1,
    webRssMb: 200,
    held: 495,
    faults: '',
  });
  expect(rows[1]).toMatchObject({ minute: 2, pageP50: 20, requests: 1, failed: 0, faults: 'worker-kill' });
  expect(Number.isNaN(rows[1]!.orderP50)).toBe(true);
  expect(table(rows).split('\n')[0]).toMatch(/^min +page p50 ms/);
  expect(csv(rows).split('\n')[1]).toBe('1,10,30,50,50,4,1,1,200,50,100,495,');
  expect(svg(rows, [], start)).toMatch(/^<svg[^]*<\/svg>\n$/);
});

test('percentile: the nearest rank', () => {
  expect(percentile([1, 2, 3, 4], 50)).toBe(2);
  expect(percentile([1, 2, 3, 4], 99)).toBe(4);
  expect(Number.isNaN(percentile([], 50))).toBe(true);
});

test('the full run’s faults take turns every few minutes and stop two minutes before the end', () => {
  const faults = faultSchedule(20, 5 * 60_000, 4 * 60_000, ['upstream-kill', 'upstream-freeze', 'worker-kill']);
  expect(faults.map((f) => [f.atMs / 60_000, f.kind])).toEqual([
    [5, 'upstream-kill'],
    [9, 'upstream-freeze'],
    [13, 'worker-kill'],
    [17, 'upstream-kill'],
  ]);
});

test('with several web nodes Redis is restarted among the faults: `--nodes=2` or SOAK_NODES', () => {
  const two = readSoakConfig({ SOAK_MINUTES: '20' }, ['node', 'run.ts', '--nodes=2']);
  expect([two.nodes, two.webConcurrency]).toEqual([2, 1]);
  // A node of one process has no worker to kill: it is killed whole.
  expect(two.faults.map((f) => f.kind)).toEqual(['upstream-kill', 'upstream-freeze', 'node-kill', 'redis-restart']);
  expect(readSoakConfig({ SOAK_SCALE: 'smoke', SOAK_NODES: '2' }, []).faults.map((f) => f.kind)).toContain('redis-restart');
  const one = readSoakConfig({ SOAK_SCALE: 'smoke' }, []);
  expect([one.nodes, one.webConcurrency, one.faults.map((f) => f.kind)]).toEqual([
    1,
    2,
    ['upstream-kill', 'upstream-freeze', 'worker-kill'],
  ]);
});
