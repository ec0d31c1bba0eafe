/**
 * The faults: the upstream killed with -9 and restarted at once, the upstream frozen (SIGSTOP) for 20 s, one web
 * worker killed with -9 (the cluster's primary forks another). Each is noted as a window from its start until the
 * system is back (the web's feed says `up` again, every worker is there), so the checks can tell a failure the
 * fault explains from one it does not.
 */
import type { FaultKind } from './config';
import { workerPids, type Upstream } from './processes';
import type { FaultWindow, Recorder } from './record';

const FREEZE_MS = 20_000;
const RECOVERY_LIMIT_MS = 60_000;
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
  const limit = Date.now() + RECOVERY_LIMIT_MS;
  let streak = 0;
  while (Date.now() < limit) {
    streak = (await ok()) ? streak + 1 : 0;
    if (streak >= 4) return true;
    await sleep(250);
  }
  return false;
}

/**
 * After a worker kill: how many held streams dropped, and how long until as many are held again (they come back
 * after the `retry:` each was told when it opened: a killed process says nothing more).
 */
async function streamsBack(held: () => Promise<number>, before: number, killed: number): Promise<string> {
  if (Number.isNaN(before)) return 'streams not counted (the clients did not report)';
  let fewest = before;
  while (Date.now() < killed + RECOVERY_LIMIT_MS) {
    // A report that did not come (the clients' process is busy too) counts for nothing.
    const n = await held().catch(() => null);
    if (n !== null) fewest = Math.min(fewest, n);
    if (n !== null && n >= before && fewest < before) break;
    await sleep(250);
  }
  const at = Date.now();
  return fewest >= before || at >= killed + RECOVERY_LIMIT_MS
    ? `streams: ${before - fewest} of ${before} dropped, not all back within ${RECOVERY_LIMIT_MS / 1000} s`
    : `streams: ${before - fewest} of ${before} dropped, all held again after ${((at - killed) / 1000).toFixed(1)} s`;
}

export async function runFault(
  kind: FaultKind,
  ctx: { upstream: Upstream; webPid: number; base: string; workers: number; record: Recorder; held: () => Promise<number> },
) {
  const window: FaultWindow = { kind, start: Date.now(), recovered: NaN };
  ctx.record.faults.push(window);
  if (kind === 'upstream-kill') {
    await ctx.upstream.killAndRestart();
    window.detail = `upstream listening again after ${((Date.now() - window.start) / 1000).toFixed(1)} s`;
  } else if (kind === 'upstream-freeze') {
    ctx.upstream.signal('SIGSTOP');
    await sleep(FREEZE_MS);
    ctx.upstream.signal('SIGCONT');
  }
  let streams: Promise<string> | null = null;
  if (kind === 'worker-kill') {
    const before = await ctx.held().catch(() => NaN);
    const [victim] = workerPids(ctx.webPid);
    if (victim) process.kill(victim, 'SIGKILL');
    // Watched beside the recovery below, which alone closes the fault's window (as before this was measured).
    streams = streamsBack(ctx.held, before, Date.now());
    await sleep(500);
  }
  const back = await until(async () => workerPids(ctx.webPid).length === ctx.workers && (await feedUp(ctx.base)));
  window.recovered = back ? Date.now() : NaN;
  if (streams) window.detail = await streams;
  return window;
}
