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

export async function runFault(
  kind: FaultKind,
  ctx: { upstream: Upstream; webPid: number; base: string; workers: number; record: Recorder },
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
  } else {
    const [victim] = workerPids(ctx.webPid);
    if (victim) process.kill(victim, 'SIGKILL');
    await sleep(500);
  }
  const back = await until(async () => workerPids(ctx.webPid).length === ctx.workers && (await feedUp(ctx.base)));
  window.recovered = back ? Date.now() : NaN;
  return window;
}
