/**
 * The system under soak, started the way the many-nodes test starts it (tests/services.ts): the built upstream on
 * its own (`upstream.js`, UPSTREAM_URL for the web) so it can be killed and restarted, and the built web server with
 * WEB_CONCURRENCY workers: one node, or several behind nginx (deploy/nginx.conf) sharing sessions through Redis.
 * Also reads /proc for the processes' pids and memory.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { buildDirectory } from '../server/build-directory';
import { nginxSite, startNginx, startRedis, startService, type Service } from '../tests/services';

/** The build to run: BUILD_DIR's if already built, else built now (once). */
export function ensureBuilt(): string {
  const dir = buildDirectory(process.env.BUILD_DIR);
  const bin = path.join(dir, 'server-bin');
  if (!fs.existsSync(path.join(bin, 'upstream.js')) || !fs.existsSync(path.join(bin, 'index.js'))) {
    console.log(`soak: building into ${dir} …`);
    const built = spawnSync('npm', ['run', 'build'], { stdio: 'inherit', env: process.env });
    if (built.status !== 0) throw new Error('npm run build failed');
  }
  return bin;
}

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/**
 * NODE_OPTIONS of a process whose V8 heap the soak reads: node writes its diagnostic report into `dir` on SIGUSR2,
 * without the reverse DNS of each socket (with thousands open that took minutes; without it, ~50 ms for 5,000).
 */
function reportOptions(dir: string): string {
  fs.mkdirSync(dir, { recursive: true });
  return [process.env.NODE_OPTIONS, '--report-on-signal --report-compact --report-exclude-network', `--report-directory=${dir}`]
    .filter(Boolean)
    .join(' ');
}

/** The folder a started process writes its reports into. */
export const reportsOf = (dataDir: string) => path.join(dataDir, 'reports');

/** A heap not read (no report came, or none was asked for). */
export const HEAP_NOT_READ: Heap = { used: NaN, committed: NaN, external: NaN };

/** V8's heap of a process started with reportOptions, from the report it writes on SIGUSR2; NaNs if none came in 5 s. */
export async function heapOf(pid: number | null | undefined, dir: string): Promise<Heap> {
  if (!pid) return HEAP_NOT_READ;
  try {
    process.kill(pid, 'SIGUSR2');
  } catch {
    return HEAP_NOT_READ; // gone
  }
  for (let i = 0; i < 50; i++) {
    await sleep(100);
    const name = fs.readdirSync(dir).find((f) => f.includes(`.${pid}.`) && f.endsWith('.json'));
    if (!name) continue;
    try {
      const report = JSON.parse(fs.readFileSync(path.join(dir, name), 'utf8')) as {
        javascriptHeap: { usedMemory: number; totalCommittedMemory: number; externalMemory: number };
      };
      fs.rmSync(path.join(dir, name));
      const heap = report.javascriptHeap;
      return { used: heap.usedMemory, committed: heap.totalCommittedMemory, external: heap.externalMemory };
    } catch {
      // still being written
    }
  }
  return HEAP_NOT_READ;
}

/** V8's heap in use, the memory it holds from the system for it, and the memory outside it that V8 accounts for (buffers), in bytes. */
export type Heap = { used: number; committed: number; external: number };

export class Upstream {
  service: Service | null = null;

  constructor(
    private readonly bin: string,
    readonly dataDir: string,
    readonly port: number,
  ) {}

  get url() {
    return `http://127.0.0.1:${this.port}`;
  }

  get pid(): number | null {
    return this.service?.child.pid ?? null;
  }

  async start() {
    this.service = await startService(process.execPath, [path.join(this.bin, 'upstream.js')], {
      name: 'upstream',
      ready: /Upstream listening on/,
      timeoutMs: 60_000,
      env: {
        ...process.env,
        NODE_ENV: 'production',
        UPSTREAM_PORT: String(this.port),
        DATA_DIR: this.dataDir,
        UPSTREAM_TEST_HOOKS: '1',
        // Every instrument ticks and trades, any day of the week.
        UPSTREAM_MARKET_HOURS: 'always',
        // A new withdrawal method is held 5 s, not a day: the traders bind one and withdraw within the run.
        WITHDRAW_METHOD_HOLD: '5',
        NODE_OPTIONS: reportOptions(reportsOf(this.dataDir)),
      },
    });
  }

  /** kill -9, then a new process on the same port and database. */
  async killAndRestart() {
    await this.service?.stop('SIGKILL');
    await this.start();
  }

  signal(signal: 'SIGSTOP' | 'SIGCONT') {
    if (this.pid) process.kill(this.pid, signal);
  }

  async stop() {
    this.signal('SIGCONT');
    await this.service?.stop();
  }

  /** The back office (loopback, the key the upstream keeps in its data folder). */
  async admin(method: 'GET' | 'POST', urlPath: string, body?: Record<string, unknown>): Promise<unknown> {
    const key = fs.readFileSync(path.join(this.dataDir, 'admin.key'), 'utf8').trim();
    const res = await fetch(new URL(urlPath, this.url), {
      method,
      headers: { 'x-admin-key': key, ...(body ? { 'content-type': 'application/json' } : {}) },
      body: body ? JSON.stringify(body) : undefined,
      signal: AbortSignal.timeout(15_000),
    });
    if (!res.ok) throw new Error(`admin ${urlPath}: HTTP ${res.status} ${await res.text()}`);
    return res.json();
  }
}

async function startNode(bin: string, options: { port: number; workers: number; upstreamUrl: string; dataDir: string; redisUrl?: string }) {
  return startService(process.execPath, [path.join(bin, 'index.js')], {
    name: `web :${options.port}`,
    ready: /Web app ready at/,
    timeoutMs: 90_000,
    env: {
      ...process.env,
      NODE_ENV: 'production',
      HOST: '127.0.0.1',
      PORT: String(options.port),
      WEB_CONCURRENCY: String(options.workers),
      UPSTREAM_URL: options.upstreamUrl,
      DATA_DIR: options.dataDir,
      ...(options.redisUrl ? { REDIS_URL: options.redisUrl, SESSION_SECRET: 'the secret every node of the soak shares, 32+ chars' } : {}),
      // The cluster's workers inherit it.
      NODE_OPTIONS: reportOptions(reportsOf(options.dataDir)),
    },
  });
}

export interface WebNode {
  origin: string;
  /** The node's process: its cluster primary (its workers are its children), or the node itself with one worker. */
  readonly primary: number;
  dataDir: string;
  service: Service;
  /** kill -9 of the node's process, then the node started again on its port and folder (as its supervisor would). */
  killAndRestart(): Promise<void>;
}

/** The web as the traders and streams reach it: one node on `port`, or `nodes` nodes behind nginx on `port`. */
export interface WebTier {
  base: string;
  nodes: WebNode[];
  workersPerNode: number;
  /** Stops Redis (SIGTERM: it writes its snapshot) and starts it again on its port and folder; null with one node. */
  restartRedis: (() => Promise<void>) | null;
  output(): string;
  stop(): Promise<void>;
}

export async function startWebTier(
  bin: string,
  options: { nodes: number; workers: number; port: number; nodePort: number; redisPort: number; upstreamUrl: string; temp: string },
): Promise<WebTier> {
  const node = async (port: number, dataDir: string, redisUrl?: string): Promise<WebNode> => {
    const start = () => startNode(bin, { port, workers: options.workers, upstreamUrl: options.upstreamUrl, dataDir, redisUrl });
    const started: WebNode = {
      origin: `http://127.0.0.1:${port}`,
      dataDir,
      service: await start(),
      get primary() {
        return started.service.child.pid!;
      },
      async killAndRestart() {
        await started.service.stop('SIGKILL');
        started.service = await start();
      },
    };
    return started;
  };
  if (options.nodes <= 1) {
    const one = await node(options.port, path.join(options.temp, 'web'));
    return {
      base: one.origin,
      nodes: [one],
      workersPerNode: options.workers,
      restartRedis: null,
      output: () => one.service.output(),
      stop: () => one.service.stop(),
    };
  }
  const redisDir = path.join(options.temp, 'redis');
  fs.mkdirSync(redisDir, { recursive: true });
  let redis = await startRedis(options.redisPort, { dir: redisDir });
  const nodes = await Promise.all(
    Array.from({ length: options.nodes }, (_, i) => node(options.nodePort + i, path.join(options.temp, `web-${i + 1}`), redis.url)),
  );
  // nginx's own folder, outside the run's (mkdtemp's 0700): run as root, its workers are `nobody`.
  const nginxDir = fs.mkdtempSync(path.join(os.tmpdir(), 'soak-nginx-'));
  const nginx = await startNginx(
    nginxDir,
    nginxSite(
      nodes.map((_, i) => options.nodePort + i),
      options.port,
      nginxDir,
    ),
    options.port,
    // Each held stream is two connections (the phone's, the node's); 5,000 held and their churn.
    { connections: 16_000 },
  );
  return {
    base: `http://127.0.0.1:${options.port}`,
    nodes,
    workersPerNode: options.workers,
    async restartRedis() {
      await redis.stop();
      redis = await startRedis(options.redisPort, { dir: redisDir });
    },
    output: () => [nginx, redis, ...nodes.map((n) => n.service)].map((s) => `── ${s.name} ──\n${s.output().slice(-2000)}`).join('\n'),
    async stop() {
      await nginx.stop();
      await Promise.all(nodes.map((n) => n.service.stop()));
      await redis.stop();
      fs.rmSync(nginxDir, { recursive: true, force: true });
    },
  };
}

/** A process's children (from /proc). */
export function childrenOf(pid: number): number[] {
  const out: number[] = [];
  try {
    for (const task of fs.readdirSync(`/proc/${pid}/task`)) {
      const text = fs.readFileSync(`/proc/${pid}/task/${task}/children`, 'utf8').trim();
      if (text) out.push(...text.split(/\s+/).map(Number));
    }
  } catch {
    // gone
  }
  return out;
}

/** The web primary's workers: its children running index.js. */
export function workerPids(primary: number): number[] {
  return childrenOf(primary).filter((pid) => {
    try {
      return fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('index.js');
    } catch {
      return false;
    }
  });
}

/** Resident set size in bytes, or NaN when the process is gone. */
export function rssOf(pid: number | null | undefined): number {
  return statusOf(pid, 'VmRSS');
}

/** The anonymous part of the resident set (the process's own memory, not mapped files), in bytes. */
export function anonymousOf(pid: number | null | undefined): number {
  return statusOf(pid, 'RssAnon');
}

function statusOf(pid: number | null | undefined, field: string): number {
  if (!pid) return NaN;
  try {
    const kb = new RegExp(`${field}:\\s+(\\d+) kB`).exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
    return Number(kb) * 1024;
  } catch {
    return NaN;
  }
}
