/**
 * The soak's size and schedule: `SOAK_MINUTES` (default 60) and `SOAK_SCALE=smoke` (3 minutes, 20 accounts, 500
 * streams, one fault of each kind), as issue 41 asks. Everything else follows from these two.
 */
export type FaultKind = 'upstream-kill' | 'upstream-freeze' | 'worker-kill';

export interface SoakConfig {
  scale: 'full' | 'smoke';
  minutes: number;
  accounts: number;
  /** SSE clients held open all run. */
  streams: number;
  /** Of them, clients that stop reading (the relay must end them; they come back). */
  slowReaders: number;
  /** Every `churnEveryMs`, this many held clients drop and new ones open. */
  churnEveryMs: number;
  churnCount: number;
  webConcurrency: number;
  /** Faults and when they start, in ms from the start of the run. */
  faults: { atMs: number; kind: FaultKind }[];
  /** Traders and streams at work before the measured minutes begin (no faults, no checks). */
  preWarmupMs: number;
  /** The measured minute whose figures are the baseline of "growth after warm-up". */
  warmupMinutes: number;
  /** Pause between a trader's actions (a person reading the screen). */
  thinkMs: [number, number];
  /** kill -9 of an upstream of its own during a burst of orders (soak/burst-kills.ts): how many, and how far apart. */
  burstKills: number;
  burstEveryMs: number;
  webPort: number;
  upstreamPort: number;
  burstPort: number;
}

const KINDS: readonly FaultKind[] = ['upstream-kill', 'upstream-freeze', 'worker-kill'];

/** Faults every `everyMs` from `firstMs`, taking turns, none in the last two minutes (the run ends settled). */
export function faultSchedule(minutes: number, firstMs: number, everyMs: number): SoakConfig['faults'] {
  const out: SoakConfig['faults'] = [];
  for (let at = firstMs, i = 0; at <= (minutes - 2) * 60_000 + 1; at += everyMs, i++)
    out.push({ atMs: at, kind: KINDS[i % KINDS.length]! });
  return out;
}

export function readSoakConfig(env: NodeJS.ProcessEnv = process.env): SoakConfig {
  const smoke = env.SOAK_SCALE === 'smoke';
  const minutes = Number(env.SOAK_MINUTES) || (smoke ? 3 : 60);
  const base = Number(env.SOAK_PORT) || 3400;
  return {
    scale: smoke ? 'smoke' : 'full',
    minutes,
    accounts: smoke ? 20 : 200,
    streams: smoke ? 500 : 5_000,
    slowReaders: smoke ? 5 : 50,
    churnEveryMs: 10_000,
    // 10,000 opened and dropped over an hour (issue 41): about 28 every 10 s.
    churnCount: smoke ? 10 : 28,
    webConcurrency: Number(env.WEB_CONCURRENCY) || 2,
    // The smoke: one of each kind after its baseline minute, each over before the next begins.
    faults: smoke
      ? [
          { atMs: 70_000, kind: 'upstream-kill' },
          { atMs: 100_000, kind: 'upstream-freeze' },
          { atMs: 150_000, kind: 'worker-kill' },
        ]
      : faultSchedule(minutes, 5 * 60_000, 4 * 60_000),
    preWarmupMs: (Number(env.SOAK_WARMUP_SECONDS) || (smoke ? 60 : 120)) * 1000,
    warmupMinutes: smoke ? 1 : 5,
    thinkMs: smoke ? [300, 1_500] : [1_000, 4_000],
    burstKills: smoke ? 3 : 100,
    // Spread over the measured minutes but the last (the run ends settled).
    burstEveryMs: ((minutes - 1) * 60_000) / (smoke ? 3 : 100),
    webPort: base,
    upstreamPort: base + 1,
    burstPort: base + 2,
  };
}
