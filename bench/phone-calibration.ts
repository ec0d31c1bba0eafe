/**
 * The one place for how the phone bench turns this machine into a phone (issue 39). A fixed CPU slowdown (4×) is a
 * different phone on every machine, so the slowdown is calibrated to Lighthouse's benchmark index of the host, the
 * way Chrome DevTools calibrates its own: a mid-tier phone (index ≈ 1,000, Pixel 5 class) and a low-tier phone
 * (≈ 264, Moto G Power 2022 class). And a host busy with other work slows every figure: the bench waits for it to
 * quiet down first, and says when it did not.
 */
// Lighthouse's own choice of a representative run (the one its CLI and PageSpeed tooling use).
import { computeMedianRun } from 'lighthouse/core/lib/median-run.js';

export interface Device {
  name: string;
  /** Lighthouse's benchmark index of the phone. */
  benchmarkIndex: number;
  /** The goals on this phone (Lighthouse's median run of five). */
  goals: { score: number; tbtMs: number; lcpMs: number; cls: number };
}

export const MID_TIER: Device = { name: 'mid-tier phone', benchmarkIndex: 1000, goals: { score: 98, tbtMs: 50, lcpMs: 2500, cls: 0.02 } };
export const LOW_TIER: Device = { name: 'low-tier phone', benchmarkIndex: 264, goals: { score: 90, tbtMs: 300, lcpMs: 2500, cls: 0.02 } };
export const DEVICES = [MID_TIER, LOW_TIER] as const;

/**
 * The CPU slowdown that makes this host that phone: host index ÷ phone index. A host slower than the phone cannot
 * be sped up: 1, and the figures then flatter the phone.
 */
export function cpuMultiplier(hostIndex: number, device: Device): number {
  if (!Number.isFinite(hostIndex) || hostIndex <= 0) throw new Error(`no benchmark index of this host (${hostIndex})`);
  return Math.max(1, Math.round((hostIndex / device.benchmarkIndex) * 100) / 100);
}

/** Lighthouse's median run of several (the one nearest the median FCP and TTI), as its own tools pick it. */
export function medianRun<T extends { lhr: Parameters<typeof computeMedianRun>[0][number] }>(runs: readonly T[]): T {
  if (runs.length === 0) throw new Error('no runs');
  const median = computeMedianRun(runs.map((r) => r.lhr));
  return runs.find((r) => r.lhr === median) ?? runs[0]!;
}

/** The 1-minute load average below which the host counts as quiet, and how long the bench waits for it. */
export const QUIET_LOAD = 1.0;
export const QUIET_WAIT_MS = 120_000;
const QUIET_POLL_MS = 5_000;

export type LoadWait = { action: 'measure'; quiet: boolean } | { action: 'wait'; forMs: number };

/** Measure now (quiet, or waited long enough: then the figures are marked), or look again a little later. */
export function loadWaitDecision(load1: number, waitedMs: number, limitMs = QUIET_WAIT_MS): LoadWait {
  if (load1 < QUIET_LOAD) return { action: 'measure', quiet: true };
  if (waitedMs >= limitMs) return { action: 'measure', quiet: false };
  return { action: 'wait', forMs: Math.min(QUIET_POLL_MS, limitMs - waitedMs) };
}

export interface HostLoad {
  quiet: boolean;
  load1: number;
  waitedMs: number;
}

/** Waits (up to QUIET_WAIT_MS) for the host's 1-minute load average to fall below QUIET_LOAD. */
export async function waitForQuietHost(
  readLoad1: () => number,
  sleep: (ms: number) => Promise<void> = (ms) => new Promise((r) => setTimeout(r, ms)),
): Promise<HostLoad> {
  let waitedMs = 0;
  for (;;) {
    const load1 = readLoad1();
    const next = loadWaitDecision(load1, waitedMs);
    if (next.action === 'measure') return { quiet: next.quiet, load1, waitedMs };
    await sleep(next.forMs);
    waitedMs += next.forMs;
  }
}

/** The mark on every figure measured on a host that did not quiet down. */
export function loadMark(host: HostLoad): string {
  return host.quiet
    ? ''
    : ` [host busy: 1-min load ${host.load1.toFixed(2)} ≥ ${QUIET_LOAD} after ${host.waitedMs / 1000} s: figures inflated]`;
}
