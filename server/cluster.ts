/**
 * Every core (WEB_CONCURRENCY > 1): the primary starts the embedded upstream once, forks the web workers
 * that share the port (node:cluster hands them connections in turn) and all use that upstream, starts a
 * worker again when one dies, and stops them all, then the upstream, on SIGTERM. It serves no requests.
 *
 * What must hold whichever worker answers: sessions live in SQLite (WAL) in DATA_DIR, shared by every
 * process; each worker holds its own relay sockets, and its stream event ids carry a per-process prefix,
 * so a reconnect that lands on another worker gets `resync` (the page reloads its data) instead of a
 * wrong replay. `/metrics` on any worker answers for all: the worker asks the primary, which sums every
 * worker's registry.
 */
import cluster, { type Worker } from 'node:cluster';
import { AggregatorRegistry } from 'prom-client';
import type { Config } from './config';
import { startEmbeddedUpstream } from './embedded-upstream';
import { startWeb } from './web';

const METRICS_REQUEST = 'lotfx:metrics-request';
const METRICS_REPLY = 'lotfx:metrics-reply';
/** How the primary tells its workers where the embedded upstream is. */
const UPSTREAM_ENV = 'LOTFX_EMBEDDED_UPSTREAM_URL';
/** A worker gets this long to finish its requests; the primary kills it a little later. */
const WORKER_DEADLINE_MS = 10_000;

interface MetricsMessage {
  type?: string;
  id?: number;
  text?: string;
  error?: string;
}

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
  const upstream = config.UPSTREAM_URL ? null : await startEmbeddedUpstream({ onGiveUp: giveUp });
  const aggregator = new AggregatorRegistry();
  const listened = new WeakSet<Worker>();
  let stopping = false;

  function forkWorker() {
    const worker = cluster.fork(upstream ? { [UPSTREAM_ENV]: upstream.url } : {});
    worker.on('message', (m: MetricsMessage) => {
      if (m?.type !== METRICS_REQUEST) return;
      aggregator.clusterMetrics().then(
        (text) => worker.send({ type: METRICS_REPLY, id: m.id, text }),
        (error: Error) => worker.send({ type: METRICS_REPLY, id: m.id, error: error.message }),
      );
    });
  }

  let ready = 0;
  cluster.on('listening', (worker, address) => {
    listened.add(worker);
    if (++ready === workers)
      console.log(
        `Web app ready at http://localhost:${address.port} (${workers} processes${upstream ? `, embedded upstream at ${upstream.url}` : ''})`,
      );
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
  const pending = new Map<number, (m: MetricsMessage) => void>();
  let nextId = 0;
  process.on('message', (m: MetricsMessage) => {
    if (m?.type !== METRICS_REPLY || m.id === undefined) return;
    pending.get(m.id)?.(m);
    pending.delete(m.id);
  });
  const web = await startWeb({
    config,
    embeddedUrl: process.env[UPSTREAM_ENV] || null,
    metricsText: () =>
      new Promise((resolve, reject) => {
        const id = ++nextId;
        pending.set(id, (m) => (m.error !== undefined ? reject(new Error(m.error)) : resolve(m.text ?? '')));
        process.send!({ type: METRICS_REQUEST, id });
      }),
  });
  // The primary's clusterMetrics() collects this registry from every worker; constructing an
  // AggregatorRegistry is what makes prom-client answer those requests in a worker.
  AggregatorRegistry.setRegistries([web.registry]);
  new AggregatorRegistry();
  stopOnSignal(() => web.shutdown(WORKER_DEADLINE_MS));
}
