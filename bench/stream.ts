/**
 * Stream fan-out benchmark (quality.md "Performance"): 5,000 SSE clients on loopback held by the relay hub
 * fed by a REAL upstream (startTestUpstream, in the hub's process; ticks injected with setPrice), against
 * a bare Node SSE server (a plain http server writing the same quote frames to the same number of clients)
 * measured in the same run.
 *
 * Each side runs in a fresh child process (so the RSS of one does not flatter the other), and the clients
 * run in a third process (plain node, raw sockets) so their memory and CPU are not counted as the server's.
 * Figures:
 * - tick→write p99: from the tick to the write of that quote into each client socket. For the hub, from
 *   `setPrice` at the upstream (end to end through the upstream websocket) and from the hub's receipt of
 *   the push; for the bare server, from the tick to the write.
 * - memory per client: (heapUsed after − before) ÷ clients and (rss after − before) ÷ clients, after a GC.
 *
 * `npx tsx bench/stream.ts` runs it alone; bench/index.ts calls `streamBenchmarks()`.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import v8 from 'node:v8';
import vm from 'node:vm';
import { createRelay, type QuoteTick } from '../server/relay/hub';
import { startTestUpstream } from '../upstream/testing';
import { fmt, percentile } from './stats';

const CLIENTS = 5_000;
/** Rounds of ticks, like the upstream's simulator: every 300 ms a burst of ticks of several instruments. */
const ROUNDS = 40;
const ROUND_MS = 300;
const INSTRUMENTS_PER_ROUND = 10;
/** Then one instrument ticking every 10 ms for 2 s: quotes coalesce to the flush rate. */
const FAST_TICK_MS = 10;
const FAST_TICKS = 200;

const GOALS = { clients: 5_000, p99Ms: 100, bytesPerClient: 20 * 1024 };

interface PhaseResult {
  phase: 'hub' | 'bare';
  clients: number;
  connectMs: number;
  heapPerClient: number;
  rssPerClient: number;
  gc: boolean;
  /** tick→write samples: p50/p99/max in ms. */
  tickToWrite: { n: number; p50: number; p99: number; max: number };
  /** Hub only: from the hub's receipt of the push to the write. */
  receiveToWrite?: { n: number; p50: number; p99: number; max: number };
  /** Hub only: the burst of fast ticks of one instrument. */
  fast?: { ticks: number; quotesPerClient: number; p99: number };
  cpuPercent: number;
  delivered: number;
  expected: number;
  /** ms from dropping every client until the server counts zero. */
  dropToZeroMs: number;
  heapAfterDropDelta: number;
}

// ── the parent: runs both phases and prints ─────────────────────────────────────────────────────────

export async function streamBenchmarks(clients = CLIENTS): Promise<string[]> {
  const bare = await runPhase('bare', clients);
  const hub = await runPhase('hub', clients);
  const kb = (b: number) => `${fmt(b / 1024, 1)} KB`;
  const mark = (ok: boolean) => (ok ? 'meets' : 'MISSES');
  const lat = (s: PhaseResult['tickToWrite']) => `p50 ${fmt(s.p50, 1)} ms, p99 ${fmt(s.p99, 1)} ms, max ${fmt(s.max, 1)} ms (${s.n.toLocaleString('en')} writes)`;
  const lines = [
    `stream fan-out: ${clients.toLocaleString('en')} SSE clients on 127.0.0.1, ${ROUNDS} rounds of ${INSTRUMENTS_PER_ROUND} ticks every ${ROUND_MS} ms (hub fed by a real upstream in its process; clients in a separate process)`,
    `  clients held:        hub ${hub.clients.toLocaleString('en')} (connected in ${fmt(hub.connectMs / 1000, 1)} s)   bare ${bare.clients.toLocaleString('en')} (${fmt(bare.connectMs / 1000, 1)} s)   goal ${GOALS.clients.toLocaleString('en')}: ${mark(hub.clients >= GOALS.clients)}`,
    `  tick→write:          hub ${lat(hub.tickToWrite)} [upstream setPrice → write]`,
    `                       hub ${lat(hub.receiveToWrite!)} [hub receipt → write]`,
    `                       bare ${lat(bare.tickToWrite)}`,
    `                       goal p99 ≤ ${GOALS.p99Ms} ms: hub ${mark(hub.tickToWrite.p99 <= GOALS.p99Ms)} (${fmt(hub.tickToWrite.p99 / bare.tickToWrite.p99, 2)}× bare)`,
    `  memory per client:   hub heap ${kb(hub.heapPerClient)} + rss ${kb(hub.rssPerClient)}   bare heap ${kb(bare.heapPerClient)} + rss ${kb(bare.rssPerClient)}   goal ≤ 20 KB: hub ${mark(Math.max(hub.heapPerClient, hub.rssPerClient) <= GOALS.bytesPerClient)} (${hub.gc && bare.gc ? 'after GC' : 'NO GC available: figures include garbage'}; rss delta includes the heap)`,
    `  CPU while ticking:   hub ${fmt(hub.cpuPercent, 0)} %   bare ${fmt(bare.cpuPercent, 0)} % of one core`,
    `  delivered:           hub ${hub.delivered.toLocaleString('en')} of ${hub.expected.toLocaleString('en')} quote events   bare ${bare.delivered.toLocaleString('en')} of ${bare.expected.toLocaleString('en')}`,
    `  all dropped:         hub count back to 0 in ${fmt(hub.dropToZeroMs, 0)} ms, heap ${hub.heapAfterDropDelta >= 0 ? '+' : ''}${kb(hub.heapAfterDropDelta)} vs before connecting   bare ${fmt(bare.dropToZeroMs, 0)} ms, ${bare.heapAfterDropDelta >= 0 ? '+' : ''}${kb(bare.heapAfterDropDelta)}`,
    `  fast ticks:          ${hub.fast!.ticks} ticks of one instrument every ${FAST_TICK_MS} ms → ${fmt(hub.fast!.quotesPerClient, 1)} quotes per client (coalesced to the flush rate), tick→write p99 ${fmt(hub.fast!.p99, 1)} ms`,
  ];
  return lines;
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
      reject(new Error(`stream bench ${phase}: no result within 75 s`));
    }, 75_000);
    child.on('message', (m) => {
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

/** The client process: plain node, raw sockets, counts `event: quote` and reports over IPC. */
const CLIENT_SCRIPT = `
const net = require('node:net');
const [port, n] = [Number(process.argv[1]), Number(process.argv[2])];
const sockets = [];
let quotes = 0;
const needle = Buffer.from('event: quote');
function count(b) { let i = 0, c = 0; while ((i = b.indexOf(needle, i)) >= 0) { c++; i += needle.length; } return c; }
function open() {
  return new Promise((resolve, reject) => {
    const s = net.connect(port, '127.0.0.1');
    let head = false;
    s.on('connect', () => s.write('GET /stream HTTP/1.1\\r\\nHost: 127.0.0.1\\r\\nAccept: text/event-stream\\r\\n\\r\\n'));
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
  const child: ChildProcess = spawn(process.execPath, ['-e', CLIENT_SCRIPT, String(port), String(n)], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
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
    async report() {
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

function summarize(samples: Float64Array, n: number) {
  const s = samples.subarray(0, n).sort();
  return { n, p50: percentile(s as unknown as number[], 50), p99: percentile(s as unknown as number[], 99), max: s[n - 1] ?? NaN };
}

const SSE_HEADERS = { 'Content-Type': 'text/event-stream', 'Cache-Control': 'no-store', 'X-Accel-Buffering': 'no', Connection: 'keep-alive' };

async function listen(server: http.Server): Promise<number> {
  await new Promise<void>((r) => server.listen({ port: 0, host: '127.0.0.1', backlog: 2048 }, r));
  return (server.address() as AddressInfo).port;
}

async function hubPhase(clients: number): Promise<PhaseResult> {
  const gc = getGc();
  const up = await startTestUpstream();
  const capacity = clients * INSTRUMENTS_PER_ROUND * (ROUNDS + 2) + clients * 64;
  const e2e = new Float64Array(capacity);
  const hubLat = new Float64Array(capacity);
  let n = 0;
  let recording = false;
  /** When setPrice was last called for each symbol. */
  const setAt = new Map<string, number>();
  let cachedFor: readonly QuoteTick[] | null = null;
  let cachedSetAt: number[] = [];
  let fastSymbol = '';
  let fastQuotes = 0;
  const relay = createRelay({
    upstreamUrl: up.url,
    log: () => {},
    onQuoteWrite(quotes, writtenAt) {
      if (!recording) return;
      if (quotes !== cachedFor) {
        // The same array is shared by every client of one flush: look the tick times up once.
        cachedFor = quotes;
        cachedSetAt = quotes.map((q) => setAt.get(q.quote.symbol) ?? NaN);
      }
      for (let i = 0; i < quotes.length && n < capacity; i++) {
        e2e[n] = writtenAt - cachedSetAt[i]!;
        hubLat[n++] = writtenAt - quotes[i]!.tickAt;
        if (quotes[i]!.quote.symbol === fastSymbol) fastQuotes++;
      }
    },
  });
  const server = http.createServer((req, res) => relay.handleStream(req, res, null));
  server.maxConnections = clients + 100;
  const port = await listen(server);
  while (relay.stats().quotes === 0 || relay.stats().upstream !== 'up') await sleep(20);
  const instruments = relay.latestQuotes().slice(0, INSTRUMENTS_PER_ROUND);
  for (const q of instruments) up.forceMarket(q.symbol, 'open');

  gc?.();
  const before = process.memoryUsage();
  const t0 = performance.now();
  const c = startClients(port, clients);
  await c.connected;
  while (relay.stats().clients < clients) await sleep(10);
  const connectMs = performance.now() - t0;
  await sleep(500);
  gc?.();
  gc?.();
  const after = process.memoryUsage();

  recording = true;
  const cpu0 = process.cpuUsage();
  const wall0 = performance.now();
  for (let r = 1; r <= ROUNDS; r++) {
    for (const q of instruments) {
      setAt.set(q.symbol, performance.now());
      up.setPrice(q.symbol, q.close * (1 + r / 10_000));
    }
    await sleep(ROUND_MS);
  }
  const cpu = process.cpuUsage(cpu0);
  const cpuPercent = ((cpu.user + cpu.system) / 1000 / (performance.now() - wall0)) * 100;
  const steadyN = n;
  const tickToWrite = summarize(e2e, steadyN);
  const receiveToWrite = summarize(hubLat, steadyN);

  // Fast ticks of one instrument: coalescing caps what each client gets.
  n = 0;
  const fast = instruments[0]!;
  fastSymbol = fast.symbol;
  for (let i = 1; i <= FAST_TICKS; i++) {
    setAt.set(fast.symbol, performance.now());
    up.setPrice(fast.symbol, fast.close * (1 - i / 100_000));
    await sleep(FAST_TICK_MS);
  }
  await sleep(600);
  recording = false;
  const fastP99 = summarize(e2e, n).p99;

  const delivered = await c.report();
  const expected = clients * (instruments.length * ROUNDS + relay.stats().quotes) + fastQuotes;

  const d0 = performance.now();
  await c.drop();
  while (relay.stats().clients > 0) await sleep(5);
  const dropToZeroMs = performance.now() - d0;
  c.kill();
  await sleep(300);
  gc?.();
  gc?.();
  const dropped = process.memoryUsage();
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
    receiveToWrite,
    fast: { ticks: FAST_TICKS, quotesPerClient: fastQuotes / clients, p99: fastP99 },
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
    res.writeHead(200, SSE_HEADERS);
    res.write(': ok\n\n');
    open.add(res);
    res.on('close', () => open.delete(res));
  });
  server.maxConnections = clients + 100;
  const port = await listen(server);
  gc?.();
  const before = process.memoryUsage();
  const t0 = performance.now();
  const c = startClients(port, clients);
  await c.connected;
  while (open.size < clients) await sleep(10);
  const connectMs = performance.now() - t0;
  await sleep(500);
  gc?.();
  gc?.();
  const after = process.memoryUsage();

  const samples = new Float64Array(clients * INSTRUMENTS_PER_ROUND * ROUNDS);
  let n = 0;
  let seq = 0;
  const cpu0 = process.cpuUsage();
  const wall0 = performance.now();
  for (let r = 1; r <= ROUNDS; r++) {
    // The same frames the hub writes: one quote event per instrument of the round, in one write.
    const tickAt = performance.now();
    let text = '';
    for (let i = 0; i < INSTRUMENTS_PER_ROUND; i++) {
      const close = 1.1 * (1 + r / 10_000) + i;
      const data = JSON.stringify({ forex_id: i + 1, symbol: `SYM${i}`, close, change: 0.01, high: close, low: close, open: close, volume: 100 + r, market_status: 1 });
      text += `id: bench.${++seq}\nevent: quote\ndata: ${data}\n\n`;
    }
    for (const res of open) {
      res.write(text);
      const latency = performance.now() - tickAt;
      for (let i = 0; i < INSTRUMENTS_PER_ROUND; i++) samples[n++] = latency;
    }
    await sleep(ROUND_MS);
  }
  const cpu = process.cpuUsage(cpu0);
  const cpuPercent = ((cpu.user + cpu.system) / 1000 / (performance.now() - wall0)) * 100;
  await sleep(300);
  const delivered = await c.report();
  const d0 = performance.now();
  await c.drop();
  while (open.size > 0) await sleep(5);
  const dropToZeroMs = performance.now() - d0;
  c.kill();
  await sleep(300);
  gc?.();
  gc?.();
  const dropped = process.memoryUsage();
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
    cpuPercent,
    delivered,
    expected: clients * INSTRUMENTS_PER_ROUND * ROUNDS,
    dropToZeroMs,
    heapAfterDropDelta: dropped.heapUsed - before.heapUsed,
  };
}

// ── entry points ────────────────────────────────────────────────────────────────────────────────────

const isMain = process.argv[1] !== undefined && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href;
if (isMain) {
  const arg = (name: string) => process.argv.find((a) => a.startsWith(`--${name}=`))?.split('=')[1];
  const phase = arg('phase');
  const clients = Number(arg('clients') ?? CLIENTS);
  if (phase === 'hub' || phase === 'bare') {
    const result = await (phase === 'hub' ? hubPhase(clients) : barePhase(clients));
    process.send?.(result);
    process.disconnect?.();
    setTimeout(() => process.exit(0), 100).unref();
  } else {
    for (const line of await streamBenchmarks(clients)) console.log(line);
  }
}
