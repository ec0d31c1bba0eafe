/**
 * The soak's size and schedule: `SOAK_MINUTES` (default 60) and `SOAK_SCALE=smoke` (3 minutes, 20 accounts, 500
 * streams, one fault of each kind), as issue 41 asks, and the shape: `--nodes=2` (or SOAK_NODES) runs that many web
 * nodes behind nginx, sharing sessions through Redis, which is then restarted among the faults. Everything else
 * follows from these.
 */
export type FaultKind = 'upstream-kill' | 'upstream-freeze' | 'worker-kill' | 'node-kill' | 'redis-restart';

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
  /** Web nodes: 1, or several behind nginx with Redis. */
  nodes: number;
  /** Workers of each web node. */
  webConcurrency: number;
  /** Faults and when they start, in ms from the start of the run. */
  faults: { atMs: number; kind: FaultKind }[];
  /** Traders and streams at work before the measured minutes begin (no faults, no checks). */
  preWarmupMs: number;
  /** Pause between a trader's actions (a person reading the screen). */
  thinkMs: [number, number];
  /** kill -9 of an upstream of its own during a burst of orders (soak/burst-kills.ts): how many, and how far apart. */
  burstKills: number;
  burstEveryMs: number;
  /** Where the traders and streams go: the web (one node) or nginx (several). */
  webPort: number;
  upstreamPort: number;
  burstPort: number;
  redisPort: number;
  /** The first web node's port when there are several (the next ones follow). */
  nodePort: number;
}

/** Faults every `everyMs` from `firstMs`, taking turns, none in the last two minutes (the run ends settled). */
export function faultSchedule(minutes: number, firstMs: number, everyMs: number, kinds: readonly FaultKind[]): SoakConfig['faults'] {
  const out: SoakConfig['faults'] = [];
  for (let at = firstMs, i = 0; at <= (minutes - 2) * 60_000 + 1; at += everyMs, i++)
    out.push({ atMs: at, kind: kinds[i % kinds.length]! });
  return out;
}

export function readSoakConfig(
  env: Readonly<Record<string, string | undefined>> = process.env,
  argv: readonly string[] = process.argv,
): SoakConfig {
  const smoke = env.SOAK_SCALE === 'smoke';
  const minutes = Number(env.SOAK_MINUTES) || (smoke ? 3 : 60);
  const base = Number(env.SOAK_PORT) || 3400;
  const nodes = Number(/^--nodes=(\d+)$/.exec(argv.find((a) => a.startsWith('--nodes=')) ?? '')?.[1] ?? env.SOAK_NODES) || 1;
  const bursts = smoke ? 3 : Math.max(3, Math.round((100 * minutes) / 60));
  const webConcurrency = Number(env.WEB_CONCURRENCY) || Math.max(1, Math.floor(2 / nodes));
  // A node of one process has no workers: it is killed whole, and started again as its supervisor would.
  const processKill: FaultKind = webConcurrency > 1 ? 'worker-kill' : 'node-kill';
  const kinds: FaultKind[] = ['upstream-kill', 'upstream-freeze', processKill, ...(nodes > 1 ? (['redis-restart'] as const) : [])];
  return {
    scale: smoke ? 'smoke' : 'full',
    minutes,
    accounts: smoke ? 20 : 200,
    streams: smoke ? 500 : 5_000,
    slowReaders: smoke ? 5 : 50,
    churnEveryMs: 10_000,
    // 10,000 opened and dropped over an hour (issue 41): about 28 every 10 s.
    churnCount: smoke ? 10 : 28,
    nodes,
    // The machine's two cores: two workers on one node, one on each of two.
    webConcurrency,
    // The smoke: one of each kind after its baseline minute, each over before the next begins.
    faults: smoke
      ? [
          { atMs: 70_000, kind: 'upstream-kill' },
          { atMs: 100_000, kind: 'upstream-freeze' },
          ...(nodes > 1 ? [{ atMs: 130_000, kind: 'redis-restart' as const }] : []),
          { atMs: 150_000, kind: processKill },
        ]
      : faultSchedule(minutes, 5 * 60_000, 4 * 60_000, kinds),
    preWarmupMs: (Number(env.SOAK_WARMUP_SECONDS) || (smoke ? 60 : 120)) * 1000,
    // At full scale a person's pace between taps: 1–4 s made 200 traders ask ~80 pages a second, more than this 2-core
    // box serves beside 5,000 streams and the load generators, so the run measured a queue, not the system (decision 0046).
    thinkMs: smoke ? [300, 1_500] : [3_000, 8_000],
    // 100 in the hour (issue 41), as many for a shorter run, spread over the measured minutes but the last.
    burstKills: bursts,
    burstEveryMs: ((minutes - 1) * 60_000) / bursts,
    webPort: base,
    upstreamPort: base + 1,
    burstPort: base + 2,
    redisPort: base + 3,
    nodePort: base + 4,
  };
}
