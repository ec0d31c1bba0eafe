/**
 * The compiled server (`node build/server-bin/index.js`) as production runs it, for the fan-out and order
 * benchmarks: a fresh DATA_DIR, the embedded upstream with its admin test hooks, `WEB_CONCURRENCY` as asked.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { buildDirectory } from '../server/build-directory';

export interface BenchServer {
  port: number;
  base: string;
  dataDir: string;
  pid: number;
  upstreamUrl: string;
  /** The embedded upstream's admin API (loopback, admin key from DATA_DIR). */
  admin(method: 'GET' | 'POST', urlPath: string, body?: Record<string, unknown>): Promise<unknown>;
  /** The web processes' pids: the cluster's workers, or the server itself with WEB_CONCURRENCY=1. */
  workerPids(): number[];
  stop(): Promise<void>;
}

/** A port in 3800–3899 (this machine's share), or BENCH_PORT. */
export function benchPort(offset: number): number {
  return Number(process.env.BENCH_PORT) + offset || 3840 + offset;
}

export async function startServer(port: number, concurrency: number): Promise<BenchServer> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-server-'));
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    NODE_ENV: 'production',
    PORT: String(port),
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    WEB_CONCURRENCY: String(concurrency),
    UPSTREAM_TEST_HOOKS: '1',
    // The same workload any day: forex, metals and indices tick on a weekend too.
    UPSTREAM_MARKET_HOURS: 'always',
  };
  // The embedded upstream, in its own process.
  delete env.UPSTREAM_URL;
  // BENCH_SERVER_NODE_ARGS: node options for the server, e.g. `--cpu-prof --cpu-prof-dir=/tmp/prof` (not allowed in NODE_OPTIONS).
  const nodeArgs = process.env.BENCH_SERVER_NODE_ARGS?.split(' ').filter(Boolean) ?? [];
  const child = spawn(process.execPath, [...nodeArgs, path.join(buildDirectory(process.env.BUILD_DIR), 'server-bin', 'index.js')], {
    env,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  await new Promise<void>((resolve, reject) => {
    child.stdout!.on('data', (b: Buffer) => b.toString().includes('ready') && resolve());
    child.once('exit', (code) => reject(new Error(`web server exited ${code}`)));
  });
  child.stdout!.resume();
  const upstreamUrl = fs.readFileSync(path.join(dataDir, 'upstream.url'), 'utf8').trim();
  const key = fs.readFileSync(path.join(dataDir, 'admin.key'), 'utf8').trim();
  return {
    port,
    base: `http://127.0.0.1:${port}`,
    dataDir,
    pid: child.pid!,
    upstreamUrl,
    async admin(method, urlPath, body) {
      const res = await fetch(new URL(urlPath, upstreamUrl), {
        method,
        headers: { 'x-admin-key': key, ...(body ? { 'content-type': 'application/json' } : {}) },
        body: body ? JSON.stringify(body) : undefined,
      });
      if (!res.ok) throw new Error(`admin ${urlPath}: HTTP ${res.status} ${await res.text()}`);
      return res.json();
    },
    workerPids() {
      if (concurrency === 1) return [child.pid!];
      // The primary's children: the web workers run index.js; the embedded upstream runs upstream-process.js.
      return childrenOf(child.pid!).filter((pid) => cmdline(pid).includes('index.js'));
    },
    async stop() {
      if (child.exitCode === null) {
        const exited = new Promise((r) => child.once('exit', r));
        child.kill('SIGTERM');
        const timer = setTimeout(() => child.kill('SIGKILL'), 20_000);
        await exited;
        clearTimeout(timer);
      }
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

function childrenOf(pid: number): number[] {
  const out: number[] = [];
  for (const task of fs.readdirSync(`/proc/${pid}/task`)) {
    const text = fs.readFileSync(`/proc/${pid}/task/${task}/children`, 'utf8').trim();
    if (text) out.push(...text.split(/\s+/).map(Number));
  }
  return out;
}

function cmdline(pid: number): string {
  try {
    return fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').replaceAll('\0', ' ');
  } catch {
    return '';
  }
}

/** Resident set size of a process, in bytes. */
export function rssOf(pid: number): number {
  const kb = /VmRSS:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
  return Number(kb) * 1024;
}

/** Open sockets of a process (its file descriptors that are sockets). */
export function socketsOf(pid: number): number {
  let n = 0;
  for (const fd of fs.readdirSync(`/proc/${pid}/fd`)) {
    try {
      if (fs.readlinkSync(`/proc/${pid}/fd/${fd}`).startsWith('socket:')) n++;
    } catch {
      // closed meanwhile
    }
  }
  return n;
}

export const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/** A signed-in demo account's cookies, opened the way a visitor does: the login page's CSRF token, then POST /demo. */
export async function demoSession(base: string): Promise<string> {
  const cookiesOf = (res: Response) => res.headers.getSetCookie().map((c) => c.split(';')[0]!);
  const login = await fetch(`${base}/login`);
  const token = /name="csrf" value="([^"]+)"/.exec(await login.text())?.[1];
  if (!token) throw new Error('no CSRF token on /login');
  let cookie = cookiesOf(login).join('; ');
  const demo = await fetch(`${base}/demo`, {
    method: 'POST',
    redirect: 'manual',
    headers: { cookie, origin: base, 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ csrf: token, from: '/' }),
  });
  cookie = [...cookie.split('; '), ...cookiesOf(demo)].join('; ');
  if (!cookie.includes('__Host-sid=')) throw new Error(`demo login failed (${demo.status})`);
  return cookie;
}

/** The order form's CSRF token on `/trade?code=EURUSD` for a signed-in session's cookies (the form must be there). */
export async function tradeFormToken(base: string, cookie: string): Promise<string> {
  const trade = await (await fetch(`${base}/trade?code=EURUSD`, { headers: { 'accept-language': 'en', cookie } })).text();
  const csrf = /name="csrf" value="([^"]+)"/.exec(trade)?.[1];
  if (!csrf || !trade.includes('name="idempotency_key"')) throw new Error('no order form on /trade');
  return csrf;
}
