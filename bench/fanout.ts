/**
 * Stream fan-out across WEB_CONCURRENCY processes (issue 10, "Benchmarks"): the compiled server as production
 * runs it (`node build/server-bin/index.js`, NODE_ENV=production, a fresh DATA_DIR, the embedded upstream in its
 * own process with UPSTREAM_TEST_HOOKS=1), 20,000 SSE clients on `/stream`, then EURUSD ticked through the
 * upstream's admin price hook at a known time; every client notes when it reads that quote.
 *
 * - Clients: plain node processes with raw sockets (as bench/stream.ts), at the lowest CPU priority, at most
 *   PER_PROCESS sockets each (this machine allows 20,000 open files per process), each process from its own
 *   loopback address. Their own delay (reading 20,000 sockets on a shared 2-core machine) is in the figures.
 * - The simulator is silenced (every market forced closed, which stops its ticks; the admin hook still
 *   ticks), so each injected tick goes out after the relay's short gather, not behind a coalescing window.
 * - tick→receipt: from just before the admin price call is sent to the client's read of the frame with that
 *   price. The admin call's own round trip (HTTP into the upstream, applying the tick) is printed beside it.
 * - Probe: PROBE_CLIENTS more sockets at normal priority, opened after the others (so last in each web process's
 *   write loop), timed from the upstream's answer: tick→receipt with little of the clients' own delay.
 * - Spread: each worker's open sockets (/proc/<pid>/fd) and `lotfx_stream_clients` from `/metrics` (loopback).
 * - Memory per client: (Σ worker RSS after connecting − before) ÷ clients, and the same 15 s after the rounds,
 *   streams still open (what serving them for a while adds: a periodic cost that leaves garbage shows there;
 *   decision 0023). No GC can be forced in production.
 * - Baseline, same run: WEB_CONCURRENCY=1 with BASELINE_CLIENTS (20,000 sockets do not fit one process here).
 *
 * `npx tsx bench/fanout.ts [--clients=N] [--baseline=N]` runs it alone; bench/index.ts calls `fanoutBenchmarks()`.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { benchPort, rssOf, sleep, socketsOf, startServer, type BenchServer } from './server';
import { fmt, summary } from './stats';

const CLIENTS = 20_000;
const BASELINE_CLIENTS = 9_000;
/** Sockets per client process: below the 20,000 open files a process may have here, with room to spare. */
const PER_PROCESS = 7_000;
/** Normal-priority sockets opened after the others: tick→receipt with little of the clients' own delay. */
const PROBE_CLIENTS = 20;
const ROUND_MS = 500;
const WARMUP_ROUNDS = 3;
const ROUNDS = 20;
/** How long after the rounds the memory held is read. */
const SETTLE_MS = 15_000;
const SYMBOL = 'EURUSD';
const GOALS = { clients: 20_000, p99Ms: 50, bytesPerClient: 15 * 1024 };

interface PhaseResult {
  concurrency: number;
  clients: number;
  held: number;
  connectMs: number;
  socketsPerWorker: number[];
  metricsClients: number;
  bytesPerClient: number;
  heldBytesPerClient: number;
  latency: ReturnType<typeof summary>;
  /** From the upstream's answer to the admin call (the tick was applied and pushed before it answered). */
  afterAnswer: ReturnType<typeof summary>;
  /** The same from the answer, at the probe: PROBE_CLIENTS sockets at normal priority, opened after the rest. */
  probe: ReturnType<typeof summary>;
  missing: number;
  adminCall: ReturnType<typeof summary>;
  dropMs: number;
}

/** A client process: raw sockets on /stream; notes when each socket reads the round's needle. */
const CLIENT_SCRIPT = `
const net = require('node:net');
const [port, n, local] = [Number(process.argv[1]), Number(process.argv[2]), process.argv[3]];
const now = () => performance.timeOrigin + performance.now();
const sockets = [];
let closed = 0;
/** Every round's needle and receipt times; a late frame of an earlier round still counts for it. */
const rounds = [];
let longest = 0;
function open(i) {
  return new Promise((resolve, reject) => {
    const s = net.connect({ port, host: '127.0.0.1', localAddress: local });
    let head = false, tail = null;
    s.on('connect', () => s.write('GET /stream?v=3 HTTP/1.1\\r\\nHost: 127.0.0.1:' + port + '\\r\\nAccept: text/event-stream\\r\\n\\r\\n'));
    s.on('data', (b) => {
      if (!head) { head = true; resolve(); }
      if (rounds.length === 0) return;
      const t = now();
      const joined = tail ? Buffer.concat([tail, b.subarray(0, longest)]) : null;
      for (const r of rounds) {
        if (!Number.isNaN(r.times[i])) continue;
        if (b.indexOf(r.needle) >= 0 || (joined && joined.indexOf(r.needle) >= 0)) r.times[i] = t;
      }
      tail = Buffer.from(b.subarray(Math.max(0, b.length - longest)));
    });
    s.on('error', (e) => { if (!head) reject(e); });
    s.on('close', () => closed++);
    sockets.push(s);
  });
}
(async () => {
  for (let i = 0; i < n; i += 250) await Promise.all(Array.from({ length: Math.min(250, n - i) }, (_, k) => open(i + k)));
  process.send({ type: 'connected', n: sockets.length });
})().catch((e) => { console.error(e); process.exit(1); });
process.on('message', (m) => {
  if (m.type === 'expect') {
    const needle = Buffer.from(m.needle);
    longest = Math.max(longest, needle.length);
    rounds.push({ round: m.round, needle, times: new Float64Array(n).fill(NaN) });
    process.send({ type: 'expecting' });
  } else if (m.type === 'report') {
    const out = {};
    for (const r of rounds) out[r.round] = Array.from(r.times, (x) => (Number.isNaN(x) ? null : x));
    process.send({ type: 'report', rounds: out, closed });
  }
});
`;

function startClients(port: number, n: number, local: string, lowPriority = true) {
  const child: ChildProcess = spawn(process.execPath, ['-e', CLIENT_SCRIPT, String(port), String(n), local], {
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  // The load generator shares the machine: at the lowest priority it takes the CPU the server leaves.
  if (child.pid && lowPriority) os.setPriority(child.pid, 19);
  const next = <T>(type: string) =>
    new Promise<T>((resolve, reject) => {
      const onMessage = (m: { type: string }) => {
        if (m.type !== type) return;
        child.off('message', onMessage);
        child.off('exit', onExit);
        resolve(m as T);
      };
      const onExit = (code: number | null) => reject(new Error(`client process exited with ${code}`));
      child.on('message', onMessage);
      child.once('exit', onExit);
    });
  return {
    connected: next<{ n: number }>('connected'),
    async expect(round: number, needle: string) {
      const r = next('expecting');
      child.send({ type: 'expect', round, needle });
      await r;
    },
    async report() {
      const r = next<{ rounds: Record<string, (number | null)[]>; closed: number }>('report');
      child.send({ type: 'report' });
      return r;
    },
    async kill() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGKILL');
      await exited;
    },
  };
}

async function streamClients(server: BenchServer): Promise<number> {
  const text = await (await fetch(`${server.base}/metrics`)).text();
  return Number(/^lotfx_stream_clients (\d+)/m.exec(text)?.[1] ?? NaN);
}

async function until(check: () => Promise<boolean>, ms: number): Promise<boolean> {
  const end = performance.now() + ms;
  while (performance.now() < end) {
    if (await check()) return true;
    await sleep(200);
  }
  return false;
}

const now = () => performance.timeOrigin + performance.now();
const debug = (...a: unknown[]) => process.env.BENCH_DEBUG && console.error('[fanout]', ...a);

async function runPhase(concurrency: number, clients: number, port: number): Promise<PhaseResult> {
  const server = await startServer(port, concurrency);
  const procs: ReturnType<typeof startClients>[] = [];
  try {
    // Silence the simulator: a closed market does not tick on its own; the admin hook still ticks it.
    await server.admin('POST', '/admin/market', { code: 'all', status: 'closed' });
    await sleep(1500);
    const pids = server.workerPids();
    if (pids.length !== concurrency) throw new Error(`found ${pids.length} web processes, expected ${concurrency}`);
    const rssBefore = pids.reduce((s, p) => s + rssOf(p), 0);
    debug('server up, web pids', pids);

    const t0 = performance.now();
    const count = Math.ceil(clients / PER_PROCESS);
    for (let k = 0; k < count; k++) {
      const n = Math.floor(clients / count) + (k < clients % count ? 1 : 0);
      procs.push(startClients(port, n, `127.0.0.${10 + k}`));
    }
    const connected = await Promise.race([
      Promise.all(procs.map((p) => p.connected)),
      new Promise<never>((_, reject) =>
        setTimeout(() => reject(new Error(`${clients} clients not connected within 240 s`)), 240_000).unref(),
      ),
    ]);
    debug('clients connected', connected);
    await until(async () => (await streamClients(server)) >= clients, 30_000);
    const connectMs = performance.now() - t0;
    // The probe: a few sockets at normal priority, opened last (so last in each web process's write loop).
    const probe = startClients(port, PROBE_CLIENTS, '127.0.0.9', false);
    procs.push(probe);
    await probe.connected;
    await until(async () => (await streamClients(server)) >= clients + PROBE_CLIENTS, 30_000);
    await sleep(2000);
    const socketsPerWorker = pids.map(socketsOf);
    const metricsClients = await streamClients(server);
    const rssAfter = pids.reduce((s, p) => s + rssOf(p), 0);
    debug('held', metricsClients, socketsPerWorker);

    const sentAt = new Map<number, number>();
    const answeredAt = new Map<number, number>();
    const adminMs: number[] = [];
    for (let r = 1; r <= WARMUP_ROUNDS + ROUNDS; r++) {
      // A new price each round; the frame carries it as JSON writes the number.
      const price = (1 + r / 10_000).toFixed(4);
      await Promise.all(procs.map((p) => p.expect(r, `"price":${Number(price)},`)));
      const at = now();
      await server.admin('POST', '/admin/price', { code: SYMBOL, price });
      if (r > WARMUP_ROUNDS) {
        const answered = now();
        sentAt.set(r, at);
        answeredAt.set(r, answered);
        adminMs.push(answered - at);
      }
      await sleep(ROUND_MS);
    }
    debug('rounds done');
    // Held a while, streams open and quiet but for heartbeats: the old generation's garbage from the rounds is
    // collected by then or not depending on when V8 last ran a full collection (12–19 KB a client 1 s after).
    await sleep(SETTLE_MS);
    const rssHeld = pids.reduce((s, p) => s + rssOf(p), 0);
    const reports = await Promise.all(procs.map((p) => p.report()));
    const probeReport = reports.pop()!;
    const probeLatencies: number[] = [];
    for (const [r, times] of Object.entries(probeReport.rounds)) {
      const at = answeredAt.get(Number(r));
      if (at !== undefined) for (const t of times) if (t !== null) probeLatencies.push(t - at);
    }
    debug('reports in');
    const latencies: number[] = [];
    const afterAnswer: number[] = [];
    let missing = 0;
    for (const report of reports)
      for (const [r, times] of Object.entries(report.rounds)) {
        const at = sentAt.get(Number(r));
        if (at === undefined) continue;
        for (const t of times) {
          if (t === null) missing++;
          else {
            latencies.push(t - at);
            afterAnswer.push(t - answeredAt.get(Number(r))!);
          }
        }
      }

    const d0 = performance.now();
    await Promise.all(procs.map((p) => p.kill()));
    await until(async () => (await streamClients(server)) === 0, 30_000);
    const dropMs = performance.now() - d0;
    debug('dropped', dropMs);
    return {
      concurrency,
      clients,
      held: connected.reduce((s, c) => s + c.n, 0) - reports.reduce((s, r) => s + r.closed, 0),
      connectMs,
      socketsPerWorker,
      metricsClients,
      bytesPerClient: (rssAfter - rssBefore) / clients,
      heldBytesPerClient: (rssHeld - rssBefore) / clients,
      latency: summary(latencies),
      afterAnswer: summary(afterAnswer),
      probe: summary(probeLatencies),
      missing,
      adminCall: summary(adminMs),
      dropMs,
    };
  } finally {
    await Promise.all(procs.map((p) => p.kill()));
    await server.stop();
  }
}

/**
 * This machine's floor for one write into one loopback socket: plain node, no HTTP, no relay, 4,000 connected
 * sockets written to in a loop (the kernel delivers to the reader inside the write on loopback). A web process
 * holding N streams cannot put a tick in its last stream sooner than N times this.
 */
async function socketWriteFloor(sockets = 4000, rounds = 5): Promise<number> {
  const server = net.createServer();
  const accepted: net.Socket[] = [];
  server.on('connection', (s) => accepted.push(s.setNoDelay(true)));
  await new Promise<void>((resolve) => server.listen({ port: 0, host: '127.0.0.1', backlog: 4096 }, resolve));
  const { port } = server.address() as net.AddressInfo;
  const clients: net.Socket[] = [];
  try {
    for (let i = 0; i < sockets; i++) {
      clients.push(net.connect(port, '127.0.0.1').on('data', () => undefined));
      if (i % 200 === 199) await sleep(20); // within the accept queue
    }
    while (accepted.length < sockets) await sleep(20);
    const frame = Buffer.alloc(180, 'a');
    const perWrite: number[] = [];
    for (let r = 0; r < rounds; r++) {
      const t = performance.now();
      for (const s of accepted) s.write(frame);
      perWrite.push((performance.now() - t) / sockets);
      await sleep(300);
    }
    return summary(perWrite).median;
  } finally {
    for (const c of clients) c.destroy();
    for (const s of accepted) s.destroy();
    server.close();
  }
}

/**
 * The same floor without node (bench/write-floor.c, built with the machine's C compiler): the kernel's own share of a
 * write on loopback, delivery into the reader's socket included. A number of ms, or why there is none.
 */
function kernelWriteFloorMs(sockets = 4000): number | string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'write-floor-'));
  try {
    const binary = path.join(dir, 'write-floor');
    const source = fileURLToPath(new URL('./write-floor.c', import.meta.url));
    const built = spawnSync('cc', ['-O2', '-o', binary, source], { encoding: 'utf8', timeout: 60_000 });
    if (built.status !== 0)
      return `not measured (no C compiler at \`cc\`, or it failed: ${built.error?.message ?? built.stderr.trim().slice(0, 120)})`;
    const run = spawnSync(binary, [String(sockets)], { encoding: 'utf8', timeout: 60_000 });
    const us = Number(run.stdout?.trim());
    return run.status === 0 && us > 0
      ? us / 1000
      : `not measured (write-floor exited ${run.status ?? run.signal}: ${run.stderr?.trim().slice(0, 120)})`;
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

export async function fanoutBenchmarks(clients = CLIENTS, baselineClients = BASELINE_CLIENTS): Promise<string[]> {
  const load0 = os.loadavg();
  const cores = os.availableParallelism();
  const base = await runPhase(1, baselineClients, benchPort(0));
  const load1 = os.loadavg();
  const main = await runPhase(cores, clients, benchPort(1));
  const load2 = os.loadavg();
  const floorMs = await socketWriteFloor();
  const kernelMs = kernelWriteFloorMs();
  const perProcess = Math.max(...main.socketsPerWorker);
  const kb = (b: number) => `${fmt(b / 1024, 1)} KB`;
  const verdict = (ok: boolean) => (ok ? 'met' : 'NOT met');
  const la = (l: number[]) => l.map((x) => fmt(x, 2)).join(' ');
  const lat = (r: PhaseResult) =>
    `p50 ${fmt(r.latency.median, 1)} ms, p99 ${fmt(r.latency.p99, 1)} ms, max ${fmt(r.latency.max, 1)} ms (${r.latency.n.toLocaleString('en')} receipts, ${r.missing} not received: a quote replaced by a later one before its flush, or lost)`;
  const lat2 = (s: PhaseResult['latency']) => `p50 ${fmt(s.median, 1)} ms, p99 ${fmt(s.p99, 1)} ms, max ${fmt(s.max, 1)} ms`;
  const held = (r: PhaseResult) =>
    `${r.held.toLocaleString('en')} of ${r.clients.toLocaleString('en')} clients held (connected in ${fmt(r.connectMs / 1000, 1)} s; sockets per web process ${r.socketsPerWorker.map((n) => n.toLocaleString('en')).join(' / ')}; /metrics lotfx_stream_clients ${r.metricsClients.toLocaleString('en')})`;
  const admin = (r: PhaseResult) => `admin price call p50 ${fmt(r.adminCall.median, 1)} ms, p99 ${fmt(r.adminCall.p99, 1)} ms`;
  return [
    `stream fan-out across WEB_CONCURRENCY processes: the compiled server (NODE_ENV=production, embedded upstream, simulator silenced), ${SYMBOL} ticked through the upstream's admin price hook every ${ROUND_MS} ms, ${ROUNDS} rounds after ${WARMUP_ROUNDS} warm-up; clients: plain node, raw sockets, nice 19, ≤ ${PER_PROCESS.toLocaleString('en')} per process; load average (1/5/15 min) ${la(load0)} at start, ${la(load1)} after the baseline, ${la(load2)} at the end, ${cores} cores`,
    `  WEB_CONCURRENCY=${main.concurrency}: ${held(main)} — goal ${GOALS.clients.toLocaleString('en')}: ${verdict(main.held >= GOALS.clients && main.missing === 0)}`,
    `    tick→receipt:      ${lat(main)} — goal p99 ≤ ${GOALS.p99Ms} ms: ${verdict(main.latency.p99 <= GOALS.p99Ms)}`,
    `                       [from sending the admin price call to the client's read of the frame: includes that call's hop into the upstream (${admin(main)}), the upstream's websocket push, the relay's gather, and the client processes' own delay]`,
    `    without the hop:   ${lat2(main.afterAnswer)} — goal p99 ≤ ${GOALS.p99Ms} ms: ${verdict(main.afterAnswer.p99 <= GOALS.p99Ms)}   [from the upstream's answer to that call (it pushes the tick before answering) to the client's read; the clients' own delay still included]`,
    `    probe clients:     ${lat2(main.probe)} — goal p99 ≤ ${GOALS.p99Ms} ms: ${verdict(main.probe.p99 <= GOALS.p99Ms)}   [${PROBE_CLIENTS} more sockets in a client process at normal priority, opened after the ${main.clients.toLocaleString('en')} (last in each web process's write loop), from the upstream's answer: little of the clients' own delay]`,
    `    write floor:       ${fmt(floorMs * 1000, 1)} µs per socket write on this machine (plain node, loopback, median of 5 loops over 4,000 sockets): ${perProcess.toLocaleString('en')} streams in one process take ≥ ${fmt(floorMs * perProcess, 0)} ms to reach the last, before any HTTP or relay work`,
    typeof kernelMs === 'string'
      ? `    kernel floor:      ${kernelMs}`
      : `    kernel floor:      ${fmt(kernelMs * 1000, 1)} µs per write in C (bench/write-floor.c: the same test without node): ${main.clients.toLocaleString('en')} streams' writes are ${fmt(kernelMs * main.clients, 0)} ms of CPU, so ≥ ${fmt((kernelMs * main.clients) / cores, 0)} ms before the last is written with all ${cores} cores writing and nothing else running — the p99 goal of ${GOALS.p99Ms} ms is ${(kernelMs * main.clients * 0.99) / cores > GOALS.p99Ms ? 'out of reach with these clients on this machine (decision 0036)' : 'within reach of this machine'}`,
    `    memory per client: ${kb(main.bytesPerClient)} after connecting, ${kb(main.heldBytesPerClient)} held ${SETTLE_MS / 1000} s after the rounds (Σ web processes' RSS then − before, ÷ clients; no forced GC) — goal ≤ ${kb(GOALS.bytesPerClient)}: ${verdict(Math.max(main.bytesPerClient, main.heldBytesPerClient) <= GOALS.bytesPerClient)}`,
    `    all dropped:       lotfx_stream_clients back to 0 in ${fmt(main.dropMs / 1000, 1)} s`,
    `  baseline WEB_CONCURRENCY=1 (one process: 20,000 sockets do not fit its 20,000 open files): ${held(base)}`,
    `    tick→receipt:      ${lat(base)}; ${admin(base)}`,
    `    without the hop:   ${lat2(base.afterAnswer)}; probe clients ${lat2(base.probe)}`,
    `    memory per client: ${kb(base.bytesPerClient)} after connecting, ${kb(base.heldBytesPerClient)} ${SETTLE_MS / 1000} s after the rounds; all dropped in ${fmt(base.dropMs / 1000, 1)} s`,
    `  WEB_CONCURRENCY=${main.concurrency} vs 1: ${fmt(main.clients / base.clients, 2)}× the clients at p99 ${fmt(main.latency.p99 / base.latency.p99, 2)}× (without the hop ${fmt(main.afterAnswer.p99 / base.afterAnswer.p99, 2)}×) and ${fmt(main.bytesPerClient / base.bytesPerClient, 2)}× the memory per client`,
  ];
}

const isMain = process.argv[1] !== undefined && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href;
if (isMain) {
  const arg = (name: string) => process.argv.find((a) => a.startsWith(`--${name}=`))?.split('=')[1];
  for (const line of await fanoutBenchmarks(Number(arg('clients') ?? CLIENTS), Number(arg('baseline') ?? BASELINE_CLIENTS)))
    console.log(line);
}
