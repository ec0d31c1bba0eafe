/**
 * `npm run soak` (issue 41): the built app under traders, streams and faults for SOAK_MINUTES (default 60;
 * SOAK_SCALE=smoke: 3 minutes, 20 accounts, 500 streams, one fault of each kind), checked every minute and at the
 * end. Prints the per-minute table and the checks, writes soak-results/<time>/ (minutes.csv, chart.svg, table.txt),
 * and exits 1 if any check failed. Ports from SOAK_PORT (default 3400: the web, or nginx in front of the nodes; +1 the upstream; +2 the upstream killed mid-burst; +3 Redis; +4… the nodes).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {
  failuresOutsideFaults,
  growthPercent,
  historyViolations,
  lateRecoveries,
  ledgerViolations,
  orderViolations,
  processGrowth,
  streamViolations,
  workersHeap,
} from './checks';
import { BurstKills } from './burst-kills';
import { readSoakConfig } from './config';
import { readLedger } from './database';
import { runFault } from './faults';
import {
  anonymousOf,
  ensureBuilt,
  HEAP_NOT_READ,
  heapOf,
  reportsOf,
  rssOf,
  startWebTier,
  Upstream,
  workerPids,
  type WebTier,
} from './processes';
import { Recorder } from './record';
import { csv, minuteRows, svg, table, type Reading } from './report';
import { startStreamClients } from './streams';
import { makeTrader, settle, trade, type Trader } from './traders';

/** A failure this long after a fault's recovery is still the fault's (a retry's backoff, a reconnecting socket). */
const GRACE_MS = 10_000;
/** Issue 41: heap and RSS of each process grow at most this much after warm-up. */
const MAX_GROWTH_PERCENT = 10;
const JUDGE_GROWTH_MINUTES = 15;
/** The V8 heap is read every this many readings (every 30 s): a report costs each process ~50 ms of its loop. */
const HEAP_EVERY = 6;
/** A worker's heap floor counts in a half when read this often there (five minutes): a floor needs a collection. */
const WORKER_HEAP_READINGS = 10;
const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

interface CheckResult {
  at: string;
  name: string;
  violations: string[];
  note?: string;
}

const config = readSoakConfig();
const began = Date.now();
const load0 = os.loadavg();
console.log(
  `soak: ${config.scale}, ${config.minutes} min, ${config.accounts} accounts, ${config.streams} streams (${config.slowReaders} slow), ${config.nodes > 1 ? `${config.nodes} web nodes behind nginx with Redis, ` : ''}WEB_CONCURRENCY=${config.webConcurrency}, faults at ${config.faults.map((f) => `${f.atMs / 1000}s ${f.kind}`).join(', ')}`,
);
const bin = ensureBuilt();
const temp = fs.mkdtempSync(path.join(os.tmpdir(), 'soak-'));
const upstream = new Upstream(bin, path.join(temp, 'upstream'), config.upstreamPort);
const burstUpstream = new Upstream(bin, path.join(temp, 'burst'), config.burstPort);
const bursts = new BurstKills(burstUpstream);
const record = new Recorder();
const results: CheckResult[] = [];
const readings: Reading[] = [];
const timers: NodeJS.Timeout[] = [];
let web: WebTier | null = null;
let streams: ReturnType<typeof startStreamClients> | null = null;

async function shutdown() {
  for (const t of timers) clearInterval(t);
  await streams?.stop().catch(() => {});
  await web?.stop().catch(() => {});
  await upstream.stop().catch(() => {});
  await burstUpstream.stop().catch(() => {});
  // A failed run keeps its databases for a closer look (SOAK_KEEP=1 keeps any run's).
  if (process.env.SOAK_KEEP || process.exitCode) console.log(`soak: data kept in ${temp}`);
  else fs.rmSync(temp, { recursive: true, force: true });
}
process.once('SIGINT', () => void shutdown().then(() => process.exit(130)));

try {
  await Promise.all([upstream.start(), burstUpstream.start()]);
  // All the soak's sign-ups ask for their codes from this machine's one address.
  await upstream.admin('POST', '/admin/setting', { key: 'codes_per_ip_per_hour', value: '1000000' });
  web = await startWebTier(bin, {
    nodes: config.nodes,
    workers: config.webConcurrency,
    port: config.webPort,
    nodePort: config.nodePort,
    redisPort: config.redisPort,
    upstreamUrl: upstream.url,
    temp,
  });
  const tier = web;
  const base = web.base;
  const heldTarget = config.streams - config.slowReaders;

  const runId = String(began);
  const traders: Trader[] = [];
  for (let i = 0; i < config.accounts; i += 5)
    traders.push(
      ...(await Promise.all(
        Array.from({ length: Math.min(5, config.accounts - i) }, (_, k) => makeTrader(i + k, base, upstream, record, runId)),
      )),
    );
  streams = startStreamClients(config.webPort, config.streams, config.slowReaders);
  const clients = streams;
  // The held population connects before the traders start, as a held population would have (decision 0046): opening
  // 1,000 streams a second stalls every page of this 2-core box for about 15 s, a cold start's storm, timed here.
  const opening = Date.now();
  for (let i = 0; i < 180 && ((await clients.report().catch(() => null))?.held ?? 0) < heldTarget; i++) await sleep(1_000);
  const connected = (await clients.report().catch(() => null))?.held ?? 0;
  console.log(
    `soak: ${traders.length} traders signed in; ${connected} of ${heldTarget} streams held after ${((Date.now() - opening) / 1000).toFixed(1)} s; set-up took ${((Date.now() - began) / 1000).toFixed(0)} s`,
  );

  timers.push(setInterval(() => clients.churn(config.churnCount), config.churnEveryMs));
  let readingNo = 0;
  timers.push(
    setInterval(() => {
      void (async () => {
        const withHeap = readingNo++ % HEAP_EVERY === 0;
        const at = Date.now();
        const processes = await Promise.all(
          [
            ...tier.nodes.flatMap((n) => [
              { name: 'web primary', pid: n.primary, reports: reportsOf(n.dataDir) },
              ...workerPids(n.primary).map((pid) => ({ name: 'web worker', pid, reports: reportsOf(n.dataDir) })),
            ]),
            { name: 'upstream', pid: upstream.pid ?? 0, reports: reportsOf(upstream.dataDir) },
            { name: 'stream clients', pid: clients.pid, reports: '' },
          ].map(async ({ reports, ...p }) => {
            const heap = withHeap && reports ? await heapOf(p.pid, reports) : HEAP_NOT_READ;
            return {
              ...p,
              rss: rssOf(p.pid),
              anonymous: anonymousOf(p.pid),
              heap: heap.used,
              committed: heap.committed,
              external: heap.external,
            };
          }),
        );
        const webProcesses = processes.filter((p) => p.name.startsWith('web'));
        const report = await clients.report().catch(() => null);
        readings.push({
          processes,
          at,
          webRss: webProcesses.reduce((a, p) => a + (Number.isNaN(p.rss) ? 0 : p.rss), 0),
          upstreamRss: rssOf(upstream.pid),
          clientsRss: rssOf(clients.pid),
          webHeap: withHeap ? webProcesses.reduce((a, p) => a + p.heap, 0) : NaN,
          held: report?.held ?? NaN,
        });
      })();
    }, 5_000),
  );

  // Warm-up before the measured minutes: the processes grow to their working size (RSS saws up to it over the
  // first minutes), so that "growth after warm-up" compares a process with itself at work.
  const reviews = { deposits: 0, withdrawals: 0 };
  const warmupEnds = Date.now() + config.preWarmupMs;
  await Promise.all(traders.map((t) => trade(t, upstream, record, warmupEnds, config.thinkMs, reviews)));
  const start = Date.now();
  const until = start + config.minutes * 60_000;
  console.log(`soak: warmed up for ${(config.preWarmupMs / 1000).toFixed(0)} s; the measured ${config.minutes} minutes begin`);

  // Faults, one after another at their times.
  const faultsDone = (async () => {
    for (const fault of config.faults) {
      const wait = start + fault.atMs - Date.now();
      if (wait > 0) await sleep(wait);
      if (Date.now() >= until) break;
      const w = await runFault(fault.kind, { upstream, web: tier, record, streams: clients });
      console.log(
        `soak: ${fault.kind} at ${((w.start - start) / 1000).toFixed(0)} s, back after ${((w.recovered - w.start) / 1000).toFixed(1)} s${w.detail ? ` (${w.detail})` : ''}`,
      );
      // Not back: what the web and the upstream said last tells why.
      if (Number.isNaN(w.recovered))
        console.log(
          `soak: web said last:\n${tier.output().slice(-3000)}\nupstream said last:\n${upstream.service?.output().slice(-1500) ?? ''}`,
        );
    }
  })();

  // kill -9 mid-burst, on the upstream of its own, spread over the run (the traders' upstream has its own faults).
  const burstsDone = (async () => {
    for (let i = 0; i < config.burstKills; i++) {
      const wait = start + (i + 0.5) * config.burstEveryMs - Date.now();
      if (wait > 0) await sleep(wait);
      const began = Date.now();
      try {
        await bursts.round(20 + Math.floor(Math.random() * 130));
      } catch (error) {
        bursts.violations.push(`round ${i + 1} could not run: ${String(error)}`);
      }
      console.log(
        `soak: kill -9 mid-burst ${bursts.rounds} of ${config.burstKills}: ${bursts.acknowledged} acknowledged and ${bursts.lost} answers lost so far, ${bursts.violations.length} violations (${((Date.now() - began) / 1000).toFixed(1)} s)`,
      );
    }
  })();

  /** Until no fault is under way (its window still open). */
  const settled = async () => {
    while (record.faults.some((f) => Number.isNaN(f.recovered)) && Date.now() < until + 120_000) await sleep(500);
  };

  async function check(label: string) {
    const at = label;
    const first = results.length;
    // Orders first, the database after: whatever the record says was answered had committed before it was read.
    const attempts = [...record.attempts.values()].map((a) => ({ ...a }));
    try {
      const ledger = readLedger(upstream.dataDir);
      results.push({
        at,
        name: 'ledger invariants',
        violations: ledgerViolations(ledger.accounts),
        note: `${ledger.accounts.length} accounts`,
      });
      results.push({
        at,
        name: 'history matches the account log',
        violations: historyViolations(ledger.ended),
        note: `${ledger.ended.length} closed or cancelled orders`,
      });
      const orders = orderViolations(attempts, ledger.rowsByKey);
      results.push({
        at,
        name: 'orders exactly once',
        violations: orders.violations,
        note: `${orders.acked} acknowledged, ${orders.refused} refused, ${orders.lostThenResolved} lost then resolved by a retry (${orders.shownAfterRetry} seen on /order), ${orders.lostOpen} lost (at most once), ${orders.postedMoreThanOnce} keys posted more than once; ${ledger.orders} order rows`,
      });
    } catch (error) {
      results.push({ at, name: 'database read', violations: [String(error)] });
    }
    await settled();
    // Streams: back to the held count, and each held client read a quote in the last few seconds.
    let report = await clients.report(Date.now() - 5_000);
    for (let i = 0; i < 60 && streamViolations(report, heldTarget).length; i++) {
      await sleep(500);
      report = await clients.report(Date.now() - 5_000);
    }
    results.push({
      at,
      name: 'streams held and fed',
      violations: streamViolations(report, heldTarget),
      note: `${report.held} held, ${report.slowHeld} slow readers in, ${report.opened} opened, ${report.churned} churned, ${report.endedByServer} ended by the server`,
    });
    results.push({ at, name: 'every fault recovered from within 60 s', violations: lateRecoveries(record.faults, Date.now()) });
    const outside = failuresOutsideFaults(record.requests, record.faults, GRACE_MS);
    results.push({
      at,
      name: 'no failed request outside fault windows',
      violations: outside
        .slice(0, 5)
        .map((r) => `${r.kind} ${r.path}: ${r.detail}`)
        .concat(outside.length > 5 ? [`… ${outside.length} in all`] : []),
    });
    const last = results.slice(first);
    console.log(
      `soak: ${label}: ${last.map((r) => `${r.name} ${r.violations.length ? `FAILED (${r.violations.length}: ${r.violations[0]})` : 'ok'}`).join(', ')}; the soak's own heap ${(process.memoryUsage().heapUsed / 2 ** 20).toFixed(0)} MB`,
    );
  }

  const minuteChecks = (async () => {
    for (let m = 1; m <= config.minutes; m++) {
      const wait = start + m * 60_000 - Date.now();
      if (wait > 0) await sleep(wait);
      if (m < config.minutes) await check(`minute ${m}`);
    }
  })();

  await Promise.all(traders.map((t) => trade(t, upstream, record, until, config.thinkMs, reviews)));
  await faultsDone;
  await burstsDone;
  await minuteChecks;
  // The end: every lost answer sent once more with its key, then the last check.
  await Promise.all(traders.map(settle));
  await check('end');
  results.push({
    at: 'end',
    name: 'kill -9 mid-burst loses no acknowledged order',
    violations: bursts.violations.slice(0, 5).concat(bursts.violations.length > 5 ? [`… ${bursts.violations.length} in all`] : []),
    note: `${bursts.rounds} kills, ${bursts.acknowledged} orders acknowledged before them, each found under its key; ${bursts.lost} answers lost, each resolved to one order by a retry`,
  });

  for (const t of timers) clearInterval(t);
  const outside = new Set(failuresOutsideFaults(record.requests, record.faults, GRACE_MS));
  const rows = minuteRows(start, config.minutes, record.requests, outside, readings, record.faults);

  // Growth after warm-up: the measured run's second half against its first, each process's size by its median RSS
  // and its heap floor (processGrowth says why). Halves, because a window must hold whole collection cycles: the
  // primary's heap runs a sawtooth of about 24 minutes (its old space is collected that rarely), so five minutes saw
  // only its rising side (decision 0046). The halves' sizes stand for their middles, half the run apart, so growth
  // over the run is twice the difference. The web is judged as the sum of its processes (RSS, and V8 heap from their
  // reports): when a worker dies, its streams and requests move to the others, so one worker's size follows the
  // faults while the sum follows the load. Their heaps are judged by the workers' mean floor (workersHeap says why).
  // The upstream and the primary are judged each (a restarted upstream is a new process, not compared).
  const judged = (r: Reading) => [
    ...r.processes.filter((p) => p.name !== 'web worker'),
    { name: 'web processes (Σ RSS)', pid: 0, rss: r.webRss },
  ];
  const heaps = (r: Reading, workers: boolean) =>
    r.processes
      .filter((p) => (p.name === 'web worker') === workers && !Number.isNaN(p.heap))
      .map((p) => ({ name: `${p.name} heap`, pid: p.pid, rss: p.heap }));
  const middle = start + (until - start) / 2;
  const firstHalf = readings.filter((r) => r.at >= start && r.at < middle);
  const secondHalf = readings.filter((r) => r.at >= middle);
  if (firstHalf.length && secondHalf.length) {
    const heapRead = (rs: Reading[], workers: boolean) => rs.filter((r) => !Number.isNaN(r.webHeap)).map((r) => heaps(r, workers));
    const workersBefore = workersHeap(heapRead(firstHalf, true), WORKER_HEAP_READINGS);
    const workersAfter = workersHeap(heapRead(secondHalf, true), WORKER_HEAP_READINGS);
    const grown = [
      ...processGrowth(firstHalf.map(judged), secondHalf.map(judged), 'median'),
      ...processGrowth(heapRead(firstHalf, false), heapRead(secondHalf, false), 'floor'),
      ...(workersBefore > 0 && workersAfter > 0
        ? [{ name: 'web workers heap (mean floor)', pid: 0, percent: growthPercent(workersBefore, workersAfter) }]
        : []),
    ].map((g) => ({ ...g, percent: 2 * g.percent }));
    const each = grown.map((g) => `${g.name}${g.pid ? ` ${g.pid}` : ''} ${g.percent >= 0 ? '+' : ''}${g.percent.toFixed(1)} %`).join(', ');
    // A run of a few minutes holds one or two of a worker's collection cycles and none of the primary's: there the
    // figures are shown, and judged only from JUDGE_GROWTH_MINUTES measured minutes on.
    const judgedHere = config.minutes >= JUDGE_GROWTH_MINUTES;
    const half = config.minutes / 2;
    results.push({
      at: 'end',
      name: `memory growth over the run ≤ ${MAX_GROWTH_PERCENT} %${judgedHere ? '' : ` (shown; judged in runs of ${JUDGE_GROWTH_MINUTES} minutes or more)`}`,
      violations: (judgedHere ? grown : [])
        .filter((g) => g.name !== 'stream clients' && g.percent > MAX_GROWTH_PERCENT)
        .map((g) => `${g.name}${g.pid ? ` ${g.pid}` : ''}: +${g.percent.toFixed(1)} %`),
      note: `median RSS, heap floor and the workers' mean heap floor, minutes ${half}–${config.minutes} against 0–${half}, twice their difference: ${each}; a restarted upstream is not compared`,
    });
  }

  const failed = results.filter((r) => r.violations.length > 0);
  const out = path.join('soak-results', new Date(began).toISOString().replace(/[:.]/g, '-'));
  fs.mkdirSync(out, { recursive: true });
  const text = [
    `soak ${config.scale}: ${config.minutes} min, ${config.accounts} accounts, ${config.streams} streams, ${config.nodes > 1 ? `${config.nodes} web nodes behind nginx with Redis, ` : ''}WEB_CONCURRENCY=${config.webConcurrency}, ${os.availableParallelism()} cores; load average ${load0.map((l) => l.toFixed(2)).join(' ')} at start, ${os
      .loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')} at the end; ${((Date.now() - began) / 1000).toFixed(0)} s end to end`,
    '',
    table(rows),
    '',
    ...record.faults.map(
      (f) =>
        `fault ${f.kind} at ${((f.start - start) / 1000).toFixed(0)} s, back after ${((f.recovered - f.start) / 1000).toFixed(1)} s${f.detail ? ` (${f.detail})` : ''}`,
    ),
    '',
    ...results
      .filter((r) => r.at === 'end' || r.violations.length)
      .map(
        (r) =>
          `${r.violations.length ? 'FAIL' : 'ok  '} ${r.at}: ${r.name}${r.note ? ` (${r.note})` : ''}${r.violations.map((v) => `\n       ${v}`).join('')}`,
      ),
    '',
    failed.length ? `soak FAILED: ${failed.length} checks` : `soak passed: ${results.length} checks`,
  ].join('\n');
  console.log(`\n${text}`);
  fs.writeFileSync(path.join(out, 'table.txt'), text + '\n');
  fs.writeFileSync(path.join(out, 'minutes.csv'), csv(rows));
  fs.writeFileSync(path.join(out, 'chart.svg'), svg(rows, record.faults, start));
  // Every failed request (inside fault windows too) and every memory reading, for a closer look.
  const failures = record.requests.filter((r) => r.failed);
  fs.writeFileSync(
    path.join(out, 'failures.txt'),
    failures
      .map(
        (r) =>
          `${new Date(r.started).toISOString()} +${r.ended - r.started} ms ${outside.has(r) ? 'OUTSIDE' : 'in fault'} ${r.kind} ${r.path}: ${r.detail}`,
      )
      .join('\n') + '\n',
  );
  fs.writeFileSync(
    path.join(out, 'memory.csv'),
    'seconds,process,pid,rss_mb,anonymous_mb,heap_mb,committed_mb,external_mb\n' +
      readings
        .flatMap((r) =>
          r.processes.map(
            (p) =>
              `${((r.at - start) / 1000).toFixed(0)},${p.name},${p.pid},${[p.rss, p.anonymous, p.heap, p.committed, p.external].map((b) => (b / 2 ** 20).toFixed(1)).join(',')}`,
          ),
        )
        .join('\n') +
      '\n',
  );
  console.log(`soak: figures in ${out}/`);
  process.exitCode = failed.length ? 1 : 0;
} catch (error) {
  console.error('soak: could not run:', error);
  if (web) console.error(web.output().slice(-3000));
  if (upstream.service) console.error(upstream.service.output().slice(-3000));
  process.exitCode = 2;
} finally {
  await shutdown();
}
