/**
 * Stream fan-out benchmark (quality.md "Performance"): 5,000 SSE clients on 127.0.0.1 held by the relay
 * hub, fed by a REAL upstream (startTestUpstream, in a process of its own; ticks injected with setPrice
 * and travelling over the upstream websocket), against a bare Node SSE server (a plain http server
 * writing the same frames, a `quotes` event a round, to the same number of clients) measured in the same run.
 *
 * Each server runs in a fresh child process (so one side's RSS does not flatter the other), and the
 * clients run in another process (plain node, raw sockets, lowest CPU priority) so that their memory
 * and CPU are not counted as the server's. Figures:
 * - tick→write: to the write of that quote into each client socket (`res.write`), from the hub's
 *   receipt of the tick (the hub timestamps it), or for the bare server from the tick. The upstream
 *   hop (setPrice in the upstream process → the hub's receipt) is measured and printed separately.
 * - broadcast: from the first write of a round until node has handed every client's bytes to the kernel
 *   (node's http corks each response until the next tick, so `res.write` itself is only a buffer copy).
 * - memory per client: (heapUsed after − before) ÷ clients and (rss after − before) ÷ clients, after GC
 *   (`--expose-gc` is passed to the phase processes; without it the figures would include garbage).
 *
 * `npx tsx bench/stream.ts [--clients=N]` runs it alone; bench/index.ts calls `streamBenchmarks()`.
 */
import { spawn } from 'node:child_process';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import v8 from 'node:v8';
import vm from 'node:vm';
import { createRelay, type QuoteTick } from '../server/relay/hub';
import { startTestUpstream } from '../upstream/testing';
import { fmt, percentile } from './stats';

const CLIENTS = 5_000;
/** Rounds of ticks like the upstream's simulator: every 300 ms a burst of ticks of several instruments. */
const ROUND_MS = 300;
const WARMUP_ROUNDS = 3;
const ROUNDS = 40;
const INSTRUMENTS_PER_ROUND = 10;
/** Then one instrument ticking every 10 ms for 2 s: quotes coalesce to the flush rate. */
const FAST_TICK_MS = 10;
const FAST_MS = 2_000;

const GOALS = { clients: 5_000, p99Ms: 100, bytesPerClient: 20 * 1024 };

interface Summary {
  n: number;
  p50: number;
  p99: number;
  max: number;
}

interface PhaseResult {
  phase: 'hub' | 'bare';
  clients: number;
  connectMs: number;
  heapPerClient: number;
  rssPerClient: number;
  gc: boolean;
  /** Hub: from its receipt of the tick; bare: from the tick. To the write into each client socket. */
  tickToWrite: Summary;
  /** Hub only: from setPrice in the upstream's process to the hub's receipt of the push (not in tickToWrite). */
  upstreamHop?: Summary;
  /** Per round: first write → every client's bytes handed to the kernel (ms). */
  broadcast: Summary;
  /** Hub only: the fast ticks of one instrument. */
  fast?: { ticks: number; seconds: number; quotesPerClient: number; p99: number };
  cpuPercent: number;
  delivered: number;
  expected: number;
  /** ms from dropping every client until the server counts zero. */
  dropToZeroMs: number;
  heapAfterDropDelta: number;
}

// ── the parent: runs both phases and prints ─────────────────────────────────────────────────────────

export async function streamBenchmarks(clients = CLIENTS): Promise<string[]> {
  // Fan-out to thousands of loopback sockets is kernel-bound: other load on the machine moves these figures.
  const load = os.loadavg()[0] ?? 0;
  const bare = await runPhase('bare', clients);
  const hub = await runPhase('hub', clients);
  const kb = (b: number) => `${fmt(b / 1024, 1)} KB`;
  const mark = (ok: boolean) => (ok ? 'meets' : 'MISSES');
  const lat = (s: Summary) => `p50 ${fmt(s.p50, 1)} ms, p99 ${fmt(s.p99, 1)} ms, max ${fmt(s.max, 1)} ms`;
  const signed = (b: number) => `${b >= 0 ? '+' : '−'}${kb(Math.abs(b))}`;
  const fast = hub.fast!;
  return [
    `stream fan-out: ${clients.toLocaleString('en')} SSE clients on 127.0.0.1; ${ROUNDS} rounds (after ${WARMUP_ROUNDS} warm-up) of ${INSTRUMENTS_PER_ROUND} ticks every ${ROUND_MS} ms; hub fed by a real upstream (own process) over its websocket; clients in a separate low-priority process; load average ${fmt(load, 1)} → ${fmt(os.loadavg()[0] ?? 0, 1)} on ${os.cpus().length} cores`,
    `  clients held:      hub ${hub.clients.toLocaleString('en')} (all connected in ${fmt(hub.connectMs / 1000, 1)} s)   bare ${bare.clients.toLocaleString('en')} (${fmt(bare.connectMs / 1000, 1)} s)   goal ${GOALS.clients.toLocaleString('en')}: ${mark(hub.clients >= GOALS.clients)}`,
    `  tick→write:        hub  ${lat(hub.tickToWrite)}   [hub's receipt of the tick → res.write, ${hub.tickToWrite.n.toLocaleString('en')} quote writes]`,
    `                     bare ${lat(bare.tickToWrite)}   [tick → res.write]`,
    `                     goal p99 ≤ ${GOALS.p99Ms} ms: hub ${mark(hub.tickToWrite.p99 <= GOALS.p99Ms)}, bare ${mark(bare.tickToWrite.p99 <= GOALS.p99Ms)}; hub p99 = ${fmt(hub.tickToWrite.p99 / bare.tickToWrite.p99, 2)}× bare`,
    `  upstream hop:      ${lat(hub.upstreamHop!)}   [setPrice in the upstream process → the hub's receipt over the websocket; add it for end to end]`,
    `  broadcast→kernel:  hub  ${lat(hub.broadcast)}   bare ${lat(bare.broadcast)}   [per round: first write until every socket's writev is done]`,
    `  memory per client: hub heap ${kb(hub.heapPerClient)}, rss ${kb(hub.rssPerClient)}   bare heap ${kb(bare.heapPerClient)}, rss ${kb(bare.rssPerClient)}   goal ≤ 20 KB: hub ${mark(Math.max(hub.heapPerClient, hub.rssPerClient) <= GOALS.bytesPerClient)} (${hub.gc && bare.gc ? 'after GC' : 'NO GC available: figures include garbage'}; the rss delta includes the heap's)`,
    `  CPU while ticking: hub ${fmt(hub.cpuPercent, 0)} %   bare ${fmt(bare.cpuPercent, 0)} % of one core (the client process not counted)`,
    `  delivered:         hub ${hub.delivered.toLocaleString('en')} of ${hub.expected.toLocaleString('en')} quotes   bare ${bare.delivered.toLocaleString('en')} of ${bare.expected.toLocaleString('en')}`,
    `  all dropped:       hub subscriber count back to 0 in ${fmt(hub.dropToZeroMs, 0)} ms, heap ${signed(hub.heapAfterDropDelta)} vs before connecting   bare ${fmt(bare.dropToZeroMs, 0)} ms, heap ${signed(bare.heapAfterDropDelta)}`,
    `  fast ticks (hub):  ${fast.ticks} ticks of one instrument in ${fmt(fast.seconds, 1)} s (every ${FAST_TICK_MS} ms) → ${fmt(fast.quotesPerClient, 1)} quotes per client (coalesced: at most one per 250 ms flush); receipt→write p99 of the quotes written ${fmt(fast.p99, 1)} ms`,
  ];
}

function runPhase(phase: 'hub' | 'bare', clients: number): Promise<PhaseResult> {
  const self = fileURLToPath(import.meta.url);
  const child = spawn(process.execPath, ['--expose-gc', '--import', 'tsx', self, `--phase=${phase}`, `--clients=${clients}`], {
    cwd: path.resolve(path.dirname(self), '..'),
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`stream bench ${phase}: no result within 80 s`));
    }, 80_000);
    child.once('message', (m) => {
      clearTimeout(timer);
      resolve(m as PhaseResult);
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`stream bench ${phase}: exited with ${code} before reporting`));
    });
  });
}

// ── a phase: one server, its clients, its figures ───────────────────────────────────────────────────

function getGc(): (() => void) | null {
  if (typeof globalThis.gc === 'function') return globalThis.gc;
  try {
    v8.setFlagsFromString('--expose-gc');
    return vm.runInNewContext('gc') as () => void;
  } catch {
    return null;
  }
}

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/** The client process: plain node, raw sockets; counts the quotes it receives (each names its `instrumentId`) and reports over IPC. */
const CLIENT_SCRIPT = `
const net = require('node:net');
const [port, n] = [Number(process.argv[1]), Number(process.argv[2])];
const sockets = [];
let quotes = 0;
const needle = Buffer.from('"instrumentId":');
function count(b) { let i = 0, c = 0; while ((i = b.indexOf(needle, i)) >= 0) { c++; i += needle.length; } return c; }
function open() {
  return new Promise((resolve, reject) => {
    const s = net.connect(port, '127.0.0.1');
    let head = false;
    s.on('connect', () => s.write('GET /stream?v=3 HTTP/1.1\\r\\nHost: 127.0.0.1\\r\\nAccept: text/event-stream\\r\\n\\r\\n'));
    s.on('data', (b) => { quotes += count(b); if (!head) { head = true; resolve(); } });
    s.on('error', reject);
    sockets.push(s);
  });
}
(async () => {
  for (let i = 0; i < n; i += 250) await Promise.all(Array.from({ length: Math.min(250, n - i) }, open));
  process.send({ type: 'connected', n: sockets.length });
})().catch((e) => { console.error(e); process.exit(1); });
process.on('message', (m) => {
  if (m.type === 'report') process.send({ type: 'report', quotes });
  if (m.type === 'drop') { for (const s of sockets) s.destroy(); process.send({ type: 'dropped' }); }
});
`;

function startClients(port: number, n: number) {
  const child = spawn(process.execPath, ['-e', CLIENT_SCRIPT, String(port), String(n)], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  // The load generator shares the machine: at the lowest priority it takes the CPU the server leaves.
  if (child.pid) os.setPriority(child.pid, 19);
  const next = (type: string) =>
    new Promise<Record<string, unknown>>((resolve, reject) => {
      const onMessage = (m: Record<string, unknown>) => {
        if (m.type !== type) return;
        child.off('message', onMessage);
        resolve(m);
      };
      child.on('message', onMessage);
      child.once('exit', (code) => reject(new Error(`clients exited with ${code}`)));
    });
  return {
    connected: next('connected'),
    async delivered() {
      const r = next('report');
      child.send({ type: 'report' });
      return (await r).quotes as number;
    },
    async drop() {
      const r = next('dropped');
      child.send({ type: 'drop' });
      await r;
    },
    kill: () => child.kill('SIGKILL'),
  };
}

function summarize(samples: Float64Array | number[], n = samples.length): Summary {
  // A typed array sorts numerically, and fast (two million samples).
  const s = Float64Array.from(samples.slice(0, n)).sort() as unknown as number[];
  return { n, p50: percentile(s, 50), p99: percentile(s, 99), max: s[n - 1] ?? NaN };
}

function cpuMeter() {
  const cpu0 = process.cpuUsage();
  const wall0 = performance.now();
  return () => {
    const cpu = process.cpuUsage(cpu0);
    return ((cpu.user + cpu.system) / 1000 / (performance.now() - wall0)) * 100;
  };
}

async function listen(server: http.Server): Promise<number> {
  await new Promise<void>((r) => server.listen({ port: 0, host: '127.0.0.1', backlog: 2048 }, r));
  return (server.address() as AddressInfo).port;
}

async function settleAndMeasure(gc: (() => void) | null) {
  await sleep(500);
  gc?.();
  gc?.();
  return process.memoryUsage();
}

/** The real upstream in a process of its own (so its database and engine do not share the hub's event loop). */
async function startUpstreamProcess() {
  const self = fileURLToPath(import.meta.url);
  const child = spawn(process.execPath, ['--import', 'tsx', self, '--role=upstream'], {
    cwd: path.resolve(path.dirname(self), '..'),
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const next = <T>(type: string) =>
    new Promise<T>((resolve) => {
      const onMessage = (m: { type: string }) => {
        if (m.type !== type) return;
        child.off('message', onMessage);
        resolve(m as T);
      };
      child.on('message', onMessage);
    });
  const { url } = await next<{ url: string }>('ready');
  return {
    url,
    async open(codes: string[]) {
      const done = next('opened');
      child.send({ type: 'open', codes });
      await done;
    },
    /** Sets the prices now; resolves with the epoch (ms) at which the upstream applied them. */
    async tick(prices: [string, number][]) {
      const done = next<{ at: number }>('ticked');
      child.send({ type: 'tick', prices });
      return (await done).at;
    },
    /** The upstream ticks one instrument on its own timer; resolves with how many ticks. */
    async fast(code: string, from: number, everyMs: number, forMs: number) {
      const done = next<{ ticks: number }>('fasted');
      child.send({ type: 'fast', code, from, everyMs, forMs });
      return (await done).ticks;
    },
    async close() {
      const exited = new Promise((r) => child.once('exit', r));
      child.send({ type: 'close' });
      await exited;
    },
  };
}

async function upstreamRole() {
  const up = await startTestUpstream();
  process.on(
    'message',
    (m: {
      type: string;
      codes?: string[];
      prices?: [string, number][];
      code?: string;
      from?: number;
      everyMs?: number;
      forMs?: number;
    }) => {
      if (m.type === 'open') {
        for (const code of m.codes!) up.forceMarket(code, 'open');
        process.send!({ type: 'opened' });
      } else if (m.type === 'tick') {
        const at = performance.timeOrigin + performance.now();
        for (const [code, price] of m.prices!) up.setPrice(code, price);
        process.send!({ type: 'ticked', at });
      } else if (m.type === 'fast') {
        let ticks = 0;
        const start = performance.now();
        const timer = setInterval(() => {
          if (performance.now() - start >= m.forMs!) {
            clearInterval(timer);
            process.send!({ type: 'fasted', ticks });
            return;
          }
          up.setPrice(m.code!, m.from! * (1 - ++ticks / 100_000));
        }, m.everyMs!);
      } else if (m.type === 'close') {
        void up.close().then(() => process.exit(0));
      }
    },
  );
  process.send!({ type: 'ready', url: up.url });
}

async function hubPhase(clients: number): Promise<PhaseResult> {
  const gc = getGc();
  const up = await startUpstreamProcess();
  const capacity = clients * INSTRUMENTS_PER_ROUND * ROUNDS + clients * 64;
  const latency = new Float64Array(capacity);
  const broadcasts: number[] = [];
  /** Epochs at which the hub received each recorded tick (one per quote per flush). */
  const receipts: number[] = [];
  let n = 0;
  let recording = false;
  let flushQuotes: readonly QuoteTick[] | null = null;
  let fastSymbol = '';
  let fastQuotes = 0;
  /** Quotes the hub wrote after the connect snapshots, by the probe's count. */
  let written = 0;
  const relay = createRelay({
    upstreamUrl: up.url,
    log: () => {},
    onQuoteWrite(quotes, writtenAt) {
      written += quotes.length;
      if (!recording) return;
      if (quotes !== flushQuotes) {
        // One array is shared by every client of a flush.
        flushQuotes = quotes;
        for (const q of quotes) receipts.push(performance.timeOrigin + q.tickAt);
        // setImmediate runs after node's per-socket uncork ticks, i.e. once every writev of this flush is done.
        if (quotes.length > 1) setImmediate(() => broadcasts.push(performance.now() - writtenAt));
      }
      for (let i = 0; i < quotes.length && n < capacity; i++) {
        latency[n++] = writtenAt - quotes[i]!.tickAt;
        if (quotes[i]!.quote.code === fastSymbol) fastQuotes++;
      }
    },
  });
  const server = http.createServer((req, res) => relay.handleStream(req, res, null));
  server.maxConnections = clients + 100;
  const port = await listen(server);
  while (relay.stats().quotes === 0 || relay.stats().upstream !== 'up') await sleep(20);
  const instruments = relay.latestQuotes().slice(0, INSTRUMENTS_PER_ROUND);
  await up.open(instruments.map((q) => q.code));
  await sleep(200);

  const before = await settleAndMeasure(gc);
  const t0 = performance.now();
  written = 0;
  const snapshot = relay.stats().quotes;
  const c = startClients(port, clients);
  await c.connected;
  while (relay.stats().clients < clients) await sleep(10);
  const connectMs = performance.now() - t0;
  const after = await settleAndMeasure(gc);

  const cpu = cpuMeter();
  const tickedAt: number[] = [];
  for (let r = 1; r <= WARMUP_ROUNDS + ROUNDS; r++) {
    recording = r > WARMUP_ROUNDS;
    const at = await up.tick(instruments.map((q) => [q.code, q.price * (1 + r / 10_000)]));
    if (recording) tickedAt.push(at);
    await sleep(ROUND_MS);
  }
  const cpuPercent = cpu();
  recording = false;
  const tickToWrite = summarize(latency, n);
  // The upstream hop: from setPrice in the upstream's process to the hub's receipt of the push.
  const hops = receipts.map((t) => t - (tickedAt.findLast((at) => at <= t + 1) ?? NaN)).filter((d) => d >= 0 && d < ROUND_MS);

  // Fast ticks of one instrument: coalescing caps what each client gets.
  n = 0;
  const fast = instruments[0]!;
  fastSymbol = fast.code;
  recording = true;
  const fastTicks = await up.fast(fast.code, fast.price, FAST_TICK_MS, FAST_MS);
  await sleep(600);
  recording = false;
  const fastP99 = summarize(latency, n).p99;

  await sleep(300);
  const delivered = await c.delivered();
  // Each client got the snapshot on connect, then whatever the hub wrote (ticks, market-status changes).
  const expected = clients * snapshot + written;

  const d0 = performance.now();
  await c.drop();
  while (relay.stats().clients > 0) await sleep(5);
  const dropToZeroMs = performance.now() - d0;
  c.kill();
  const dropped = await settleAndMeasure(gc);
  relay.close();
  server.closeAllConnections();
  server.close();
  await up.close();
  return {
    phase: 'hub',
    clients,
    connectMs,
    heapPerClient: (after.heapUsed - before.heapUsed) / clients,
    rssPerClient: (after.rss - before.rss) / clients,
    gc: gc !== null,
    tickToWrite,
    upstreamHop: summarize(hops),
    broadcast: summarize(broadcasts),
    fast: { ticks: fastTicks, seconds: FAST_MS / 1000, quotesPerClient: fastQuotes / clients, p99: fastP99 },
    cpuPercent,
    delivered,
    expected,
    dropToZeroMs,
    heapAfterDropDelta: dropped.heapUsed - before.heapUsed,
  };
}

async function barePhase(clients: number): Promise<PhaseResult> {
  const gc = getGc();
  const open = new Set<http.ServerResponse>();
  const server = http.createServer((_req, res) => {
    res.writeHead(200, {
      'Content-Type': 'text/event-stream',
      'Cache-Control': 'no-store',
      'X-Accel-Buffering': 'no',
      Connection: 'keep-alive',
    });
    res.write(': ok\n\n');
    open.add(res);
    res.on('close', () => open.delete(res));
  });
  server.maxConnections = clients + 100;
  const port = await listen(server);

  const before = await settleAndMeasure(gc);
  const t0 = performance.now();
  const c = startClients(port, clients);
  await c.connected;
  while (open.size < clients) await sleep(10);
  const connectMs = performance.now() - t0;
  const after = await settleAndMeasure(gc);

  const samples = new Float64Array(clients * INSTRUMENTS_PER_ROUND * ROUNDS);
  const broadcasts: number[] = [];
  let n = 0;
  let seq = 0;
  let sent = 0;
  const cpu = cpuMeter();
  for (let r = 1; r <= WARMUP_ROUNDS + ROUNDS; r++) {
    const recording = r > WARMUP_ROUNDS;
    // The frame the hub writes: one quotes event with a quote per instrument of the round, in one write per client.
    const tickAt = performance.now();
    const quotes: string[] = [];
    for (let i = 0; i < INSTRUMENTS_PER_ROUND; i++) {
      const close = 1.1 * (1 + r / 10_000) + i;
      const data = JSON.stringify({
        forex_id: i + 1,
        symbol: `SYM${i}`,
        close,
        change: 0.01,
        high: close,
        low: close,
        open: close,
        volume: 100 + r,
        market_status: 1,
      });
      quotes.push(data);
    }
    const text = `id: bench.${++seq}\nevent: quotes\ndata: [${quotes.join(',')}]\n\n`;
    let first = 0;
    for (const res of open) {
      res.write(text);
      const now = performance.now();
      first ||= now;
      if (recording) for (let i = 0; i < INSTRUMENTS_PER_ROUND; i++) samples[n++] = now - tickAt;
    }
    sent += open.size * INSTRUMENTS_PER_ROUND;
    if (recording) setImmediate(() => broadcasts.push(performance.now() - first));
    await sleep(ROUND_MS);
  }
  const cpuPercent = cpu();
  await sleep(600);
  const delivered = await c.delivered();
  const d0 = performance.now();
  await c.drop();
  while (open.size > 0) await sleep(5);
  const dropToZeroMs = performance.now() - d0;
  c.kill();
  const dropped = await settleAndMeasure(gc);
  server.closeAllConnections();
  server.close();
  return {
    phase: 'bare',
    clients,
    connectMs,
    heapPerClient: (after.heapUsed - before.heapUsed) / clients,
    rssPerClient: (after.rss - before.rss) / clients,
    gc: gc !== null,
    tickToWrite: summarize(samples, n),
    broadcast: summarize(broadcasts),
    cpuPercent,
    delivered,
    expected: sent,
    dropToZeroMs,
    heapAfterDropDelta: dropped.heapUsed - before.heapUsed,
  };
}

// ── entry points ────────────────────────────────────────────────────────────────────────────────────

const isMain = process.argv[1] !== undefined && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href;
if (isMain) {
  const arg = (name: string) => process.argv.find((a) => a.startsWith(`--${name}=`))?.split('=')[1];
  const phase = arg('phase');
  if (arg('role') === 'upstream') await upstreamRole();
  const clients = Number(arg('clients') ?? CLIENTS);
  if (phase === 'hub' || phase === 'bare') {
    const result = await (phase === 'hub' ? hubPhase(clients) : barePhase(clients));
    process.send?.(result);
    process.disconnect?.();
    setTimeout(() => process.exit(0), 100).unref();
  } else if (arg('role') === undefined) {
    for (const line of await streamBenchmarks(clients)) console.log(line);
  }
}
