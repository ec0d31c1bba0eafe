/**
 * The faults: the upstream killed with -9 and restarted at once, the upstream frozen (SIGSTOP) for 20 s, one web
 * worker killed with -9 (the cluster's primary forks another; a node of one process is killed whole and started
 * again, as its supervisor would), and with several nodes Redis restarted (stopped, so
 * it writes its snapshot, and started again). Each is noted as a window from its start until the system is back
 * (every node's feed says `up` again, every worker is there), so the checks can tell a failure the fault explains
 * from one it does not.
 */
import { RECOVERY_LIMIT_MS } from './checks';
import type { FaultKind } from './config';
import { workerPids, type Upstream, type WebTier } from './processes';
import type { FaultWindow, Recorder } from './record';
import type { StreamClients, StreamReport } from './streams';

const FREEZE_MS = 20_000;
/** A fault's window stays open until the system is back, however late (the checks judge a late recovery). */
const WATCH_LIMIT_MS = 10 * 60_000;
const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

async function feedUp(base: string): Promise<boolean> {
  try {
    const res = await fetch(`${base}/healthz`, { signal: AbortSignal.timeout(2_000) });
    const health = (await res.json()) as { feed: string | string[] };
    return [health.feed].flat().every((f) => f === 'up');
  } catch {
    return false;
  }
}

/** Waits until `ok()` holds (several answers in a row, as each /healthz may come from another worker). */
async function until(ok: () => Promise<boolean> | boolean): Promise<boolean> {
  const limit = Date.now() + WATCH_LIMIT_MS;
  let streak = 0;
  while (Date.now() < limit) {
    streak = (await ok()) ? streak + 1 : 0;
    if (streak >= 4) return true;
    await sleep(250);
  }
  return false;
}

/**
 * After a worker kill: how many steady streams the kill ended, and how long each took to be open again (from its loss
 * to its new stream's first bytes: the `retry:` it was told when it opened, a killed process says nothing more, plus
 * the wait for an answer), once every one of them is back or the recovery limit has passed.
 */
async function streamsBack(clients: FaultContext['streams'], killed: number): Promise<string> {
  let report: StreamReport | null = null;
  for (let quiet = 0; Date.now() < killed + RECOVERY_LIMIT_MS; await sleep(250)) {
    // A report that did not come (the clients' process is busy too) counts for nothing.
    report = (await clients.report(killed).catch(() => null)) ?? report;
    // Done once all are back, four looks in a row (the kill's streams end at once; none is lost later).
    quiet = report && report.lostSince > 0 && report.backSince.length >= report.lostSince ? quiet + 1 : 0;
    if (quiet >= 4) break;
  }
  if (!report || report.lostSince === 0) return 'streams: none ended';
  const ms = [...report.backSince].sort((a, b) => a - b);
  const at = (q: number) => ((ms[Math.min(ms.length - 1, Math.floor(q * ms.length))] ?? NaN) / 1000).toFixed(1);
  return `streams: ${report.lostSince} ended, ${ms.length} open again after p50 ${at(0.5)} s, p90 ${at(0.9)} s, max ${at(1)} s`;
}

interface FaultContext {
  upstream: Upstream;
  web: WebTier;
  record: Recorder;
  streams: Pick<StreamClients, 'report'>;
}

export async function runFault(kind: FaultKind, ctx: FaultContext) {
  const window: FaultWindow = { kind, start: Date.now(), recovered: NaN };
  ctx.record.faults.push(window);
  if (kind === 'upstream-kill') {
    await ctx.upstream.killAndRestart();
    window.detail = `upstream listening again after ${((Date.now() - window.start) / 1000).toFixed(1)} s`;
  } else if (kind === 'upstream-freeze') {
    ctx.upstream.signal('SIGSTOP');
    await sleep(FREEZE_MS);
    ctx.upstream.signal('SIGCONT');
  } else if (kind === 'redis-restart') {
    await ctx.web.restartRedis?.();
    window.detail = `redis accepting connections again after ${((Date.now() - window.start) / 1000).toFixed(1)} s`;
  }
  let streams: Promise<string> | null = null;
  if (kind === 'worker-kill') {
    const [victim] = workerPids(ctx.web.nodes[0]!.primary);
    const killed = Date.now();
    if (victim) process.kill(victim, 'SIGKILL');
    // Watched beside the recovery below, which alone closes the fault's window (as before this was measured).
    streams = streamsBack(ctx.streams, killed);
    await sleep(500);
  } else if (kind === 'node-kill') {
    streams = streamsBack(ctx.streams, Date.now());
    await ctx.web.nodes[0]!.killAndRestart();
    window.detail = `node listening again after ${((Date.now() - window.start) / 1000).toFixed(1)} s`;
  }
  const { nodes, workersPerNode } = ctx.web;
  // A node of one process has no workers.
  const workers = workersPerNode > 1 ? workersPerNode : 0;
  const back = await until(
    async () =>
      nodes.every((n) => workerPids(n.primary).length === workers) &&
      (await Promise.all(nodes.map((n) => feedUp(n.origin)))).every(Boolean),
  );
  window.recovered = back ? Date.now() : NaN;
  if (streams) window.detail = [window.detail, await streams].filter(Boolean).join('; ');
  return window;
}
