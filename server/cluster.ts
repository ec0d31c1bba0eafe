/**
 * Every core (WEB_CONCURRENCY > 1): the primary starts the embedded upstream once, forks the web workers
 * that share the port (node:cluster hands them connections in turn) and all use that upstream, starts a
 * worker again when one dies, and stops them all, then the upstream, on SIGTERM. It serves no requests.
 *
 * What must hold whichever worker answers: sessions live in SQLite (WAL) in DATA_DIR, shared by every
 * process; each worker holds its own relay sockets, and its stream event ids carry a per-process prefix.
 * A reconnect that lands on another worker asks, through the primary, the worker that issued its id to
 * replay what was missed (that worker keeps the user's feed for a while after their stream left); when
 * no worker knows the id (it stopped), the stream gets `resync` and the page reloads its data. `/metrics` on any worker answers for all: the worker asks the primary, which sums every
 * worker's registry.
 */
import cluster, { type Worker } from 'node:cluster';
import { AggregatorRegistry } from 'prom-client';
import type { Config } from './config';
import { startEmbeddedUpstream } from './embedded-upstream';
import { gcFlags } from './gc-flags';
import { lanAddresses, lanHttpsPort, lanLines } from './phone-https';
import { startWeb } from './web';

/** A worker's questions to the primary, and the primary's to the other workers (node's IPC, JSON). */
interface Message {
  type?: string;
  id?: number;
  userId?: number;
  lastEventId?: string;
  text?: string | null;
  error?: string;
}
const METRICS = 'lotfx:metrics';
const REPLAY = 'lotfx:replay';
const REPLAY_ASK = 'lotfx:replay-ask';
const ANSWER = 'lotfx:answer';
/** How the primary tells its workers where the embedded upstream is. */
const UPSTREAM_ENV = 'LOTFX_EMBEDDED_UPSTREAM_URL';
/** A worker gets this long to finish its requests; the primary kills it a little later. */
const WORKER_DEADLINE_MS = 10_000;
/** A stream waits at most this long for another worker's replay (then gets resync). */
const REPLAY_WAIT_MS = 1000;

/** SIGTERM (or Ctrl-C's SIGINT) runs `stop` once, then exits 0. */
export function stopOnSignal(stop: () => Promise<void>): void {
  let stopping = false;
  for (const signal of ['SIGINT', 'SIGTERM'] as const)
    process.on(signal, () => {
      if (stopping) return;
      stopping = true;
      stop().then(
        () => process.exit(0),
        (error: unknown) => {
          console.error(error);
          process.exit(1);
        },
      );
    });
}

export function giveUp(reason: string): never {
  console.error(`[web] ${reason}; stopping`);
  process.exit(1);
}

export async function runPrimary(config: Config, workers: number): Promise<void> {
  // The workers and, when embedded, the upstream: one GC rule for all of them.
  const v8Flags = gcFlags(workers + (config.UPSTREAM_URL ? 0 : 1));
  const upstream = config.UPSTREAM_URL ? null : await startEmbeddedUpstream({ onGiveUp: giveUp, v8Flags });
  cluster.setupPrimary({ execArgv: [...process.execArgv, ...v8Flags] });
  const aggregator = new AggregatorRegistry();
  const listened = new WeakSet<Worker>();
  let stopping = false;

  function forkWorker() {
    const worker = cluster.fork(upstream ? { [UPSTREAM_ENV]: upstream.url } : {});
    worker.on('message', (m: Message) => {
      if (m?.type === METRICS)
        aggregator.clusterMetrics().then(
          (text) => worker.send({ type: ANSWER, id: m.id, text }),
          (error: Error) => worker.send({ type: ANSWER, id: m.id, error: error.message }),
        );
      else if (m?.type === REPLAY) void askOthers(worker, m).then((text) => worker.send({ type: ANSWER, id: m.id, text }));
      else if (m?.type === ANSWER) answers.get(m.id!)?.(m.text ?? null);
    });
  }

  // A stream's replay: only the worker that issued the id can answer; the others say null.
  const answers = new Map<number, (text: string | null) => void>();
  let nextAsk = 0;
  function askOthers(from: Worker, m: Message): Promise<string | null> {
    const others = Object.values(cluster.workers ?? {}).filter((w): w is Worker => !!w && w !== from && w.isConnected());
    return Promise.all(
      others.map(
        (w) =>
          new Promise<string | null>((resolve) => {
            const id = ++nextAsk;
            const timer = setTimeout(() => answers.get(id)?.(null), REPLAY_WAIT_MS);
            answers.set(id, (text) => {
              clearTimeout(timer);
              answers.delete(id);
              resolve(text);
            });
            w.send({ type: REPLAY_ASK, id, userId: m.userId, lastEventId: m.lastEventId });
          }),
      ),
    ).then((texts) => texts.find((t) => t !== null) ?? null);
  }

  let ready = 0;
  // Each worker listens on PORT, then with LAN_HTTPS=on on the HTTPS port (web.ts, in that order).
  const lanPort = lanHttpsPort(config);
  const listens = new Map<number, number>();
  const ports = { http: 0, https: 0 };
  cluster.on('listening', (worker, address) => {
    listened.add(worker);
    const nth = (listens.get(worker.id) ?? 0) + 1;
    listens.set(worker.id, nth);
    ports[nth === 1 ? 'http' : 'https'] = address.port;
    if (++ready !== workers * (lanPort === null ? 1 : 2)) return;
    console.log(
      `Web app ready at http://localhost:${ports.http} (${workers} processes${upstream ? `, embedded upstream at ${upstream.url}` : ''})`,
    );
    if (lanPort !== null) for (const line of lanLines(ports.https, lanAddresses())) console.log(line);
  });
  cluster.on('exit', (worker, code, signal) => {
    if (stopping) return;
    // One that never got as far as listening would fail the same way again (bad build, port taken).
    if (!listened.has(worker)) giveUp(`a web worker exited before it listened (${signal ?? `code ${code}`})`);
    console.error(`[web] worker ${worker.process.pid} exited (${signal ?? `code ${code}`}); starting another`);
    forkWorker();
  });
  for (let i = 0; i < workers; i++) forkWorker();

  stopOnSignal(async () => {
    stopping = true;
    // Workers first: each stops accepting, sends its streams elsewhere and finishes its requests.
    await Promise.all(
      Object.values(cluster.workers ?? {}).map(
        (worker) =>
          new Promise<void>((resolve) => {
            if (!worker || worker.isDead()) return resolve();
            const kill = setTimeout(() => worker.process.kill('SIGKILL'), WORKER_DEADLINE_MS + 5000);
            worker.once('exit', () => {
              clearTimeout(kill);
              resolve();
            });
            worker.process.kill('SIGTERM');
          }),
      ),
    );
    // The upstream last: requests in flight until now still reached it.
    await upstream?.stop();
  });
}

export async function runWorker(config: Config): Promise<void> {
  const pending = new Map<number, (m: Message) => void>();
  let nextId = 0;
  const askPrimary = (m: Message, timeoutMs: number) =>
    new Promise<Message>((resolve, reject) => {
      const id = ++nextId;
      const timer = setTimeout(() => pending.get(id)?.({ error: 'the primary did not answer' }), timeoutMs);
      pending.set(id, (reply) => {
        clearTimeout(timer);
        pending.delete(id);
        if (reply.error !== undefined) reject(new Error(reply.error));
        else resolve(reply);
      });
      process.send!({ ...m, id });
    });
  const web = await startWeb({
    config,
    embeddedUrl: process.env[UPSTREAM_ENV] || null,
    metricsText: () => askPrimary({ type: METRICS }, 10_000).then((m) => m.text ?? ''),
    replayElsewhere: (userId, lastEventId) =>
      askPrimary({ type: REPLAY, userId, lastEventId }, 2 * REPLAY_WAIT_MS).then(
        (m) => m.text ?? null,
        () => null,
      ),
  });
  process.on('message', (m: Message) => {
    if (m?.type === ANSWER) pending.get(m.id!)?.(m);
    else if (m?.type === REPLAY_ASK) process.send!({ type: ANSWER, id: m.id, text: web.replayFor(m.userId!, m.lastEventId!) });
  });
  // The primary's clusterMetrics() collects this registry from every worker; constructing an
  // AggregatorRegistry is what makes prom-client answer those requests in a worker.
  AggregatorRegistry.setRegistries([web.registry]);
  new AggregatorRegistry();
  stopOnSignal(() => web.shutdown(WORKER_DEADLINE_MS));
}
