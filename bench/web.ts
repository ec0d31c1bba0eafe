/**
 * Web benchmarks: server-rendering throughput and latency of `/`, `/trade` (signed in) and `/login` against
 * the built app with its embedded upstream, and first-load JS per route.
 */
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { findProgram, nginxSite, startNginx } from '../tests/services';
import { bundleReport } from './bundle';
import { demoSession, startServer, tradeFormToken } from './server';
import { fmt, summary } from './stats';

/** What a browser offers: brotli is what the server then uses for a page it renders (not gzip). */
const BROWSER_ENCODINGS = 'gzip, deflate, br, zstd';

/** One keep-alive connection per worker, as a load generator would hold them (fetch's pool costs the client more CPU than the server). */
function get(agent: http.Agent, url: URL, cookie: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = http.get(url, { agent, headers: { 'accept-encoding': BROWSER_ENCODINGS, cookie } }, (res) => {
      res.on('data', () => {});
      res.on('end', () => resolve(res.statusCode ?? 0));
      res.on('error', reject);
    });
    req.on('error', reject);
  });
}

/** `connections` workers, each asking for `url` again as soon as the last answer ended, for `ms`. */
async function load(url: string, ms: number, connections: number, cookie = '') {
  const agent = new http.Agent({ keepAlive: true, maxSockets: connections });
  const target = new URL(url);
  const latencies: number[] = [];
  let errors = 0;
  const end = performance.now() + ms;
  await Promise.all(
    Array.from({ length: connections }, async () => {
      while (performance.now() < end) {
        const t0 = performance.now();
        const status = await get(agent, target, cookie).catch(() => 0);
        if (status !== 200) errors++;
        latencies.push(performance.now() - t0);
      }
    }),
  );
  agent.destroy();
  return { perSecond: latencies.length / (ms / 1000), errors, ...summary(latencies) };
}

const verdict = (ok: boolean) => (ok ? 'met' : 'NOT met');
/** Issue 10's goals for this page rendering at 32 connections. */
const CONNECTIONS = 32;
const GOALS = { home: { perSecond: 400, p99: 100 }, trade: { perSecond: 250 }, homeShareOfLogin: 0.7, homeThroughNginx: 5000 };

/**
 * A demo trader holding two EURUSD positions and one pending order, placed through the trade form as the page
 * sends it without JavaScript: `/trade` then reads the order lists for the chart's lines (an account holding no
 * margin has none to read).
 */
async function traderWithOrders(base: string): Promise<string> {
  const cookie = await demoSession(base);
  const csrf = await tradeFormToken(base, cookie);
  const orders: Record<string, string>[] = [
    { side: '1', entry: '1' },
    { side: '2', entry: '1' },
    { side: '1', entry: '0', target_price: '0.50000' },
  ];
  for (const order of orders) {
    const body = new URLSearchParams({
      csrf,
      forex_id: '1',
      code: 'EURUSD',
      idempotency_key: crypto.randomUUID(),
      lots: '0.01',
      leverage: '100',
      confirmed: '1',
      ...order,
    });
    const res = await fetch(`${base}/trade?code=EURUSD`, {
      method: 'POST',
      redirect: 'manual',
      headers: { cookie, origin: base, 'content-type': 'application/x-www-form-urlencoded' },
      body,
    });
    if (!/[?&]placed=\d+/.test(res.headers.get('location') ?? '')) throw new Error(`order not placed (${res.status})`);
  }
  return cookie;
}

/** Server rendering of `/`, `/trade` signed in and `/login` at 32 connections, in one run on one server. */
export async function renderBenchmarks(base: string): Promise<string[]> {
  const cookie = await demoSession(base);
  const trader = await traderWithOrders(base);
  const pages = [
    { name: '/login', path: '/login', cookie: '' },
    { name: '/', path: '/', cookie: '' },
    { name: '/trade (signed in)', path: '/trade?code=EURUSD', cookie },
    { name: '/trade (signed in, 2 positions and 1 pending order)', path: '/trade?code=EURUSD', cookie: trader },
  ];
  const results = new Map<string, Awaited<ReturnType<typeof load>>>();
  for (const page of pages) {
    await load(`${base}${page.path}`, 1500, CONNECTIONS, page.cookie); // warm-up
    results.set(page.name, await load(`${base}${page.path}`, 5000, CONNECTIONS, page.cookie));
  }
  const cores = os.availableParallelism();
  const line = (name: string, goal: string) => {
    const r = results.get(name)!;
    return `server rendering ${name}: ${fmt(r.perSecond, 0)} requests/s, p50 ${fmt(r.median, 1)} ms, p99 ${fmt(r.p99, 1)} ms (${CONNECTIONS} connections, ${cores} cores, ${r.errors} errors)${goal}`;
  };
  const home = results.get('/')!;
  const trade = results.get('/trade (signed in)')!;
  const login = results.get('/login')!;
  const share = home.perSecond / login.perSecond;
  return [
    line('/login', ' (baseline)'),
    line(
      '/',
      ` — goal ≥ ${GOALS.home.perSecond}/s ${verdict(home.perSecond >= GOALS.home.perSecond)}, p99 ≤ ${GOALS.home.p99} ms ${verdict(home.p99 <= GOALS.home.p99)}`,
    ),
    line('/trade (signed in)', ` — goal ≥ ${GOALS.trade.perSecond}/s ${verdict(trade.perSecond >= GOALS.trade.perSecond)}`),
    line('/trade (signed in, 2 positions and 1 pending order)', ' (its chart draws their lines: two more upstream calls a page)'),
    `server rendering / at ${fmt(share * 100, 0)} % of /login's rate — goal ≥ ${GOALS.homeShareOfLogin * 100} % ${verdict(share >= GOALS.homeShareOfLogin)}`,
  ];
}

/**
 * A visitor's `/` through deploy/nginx.conf in front of the server: nginx answers from its one-second copy (issue 37),
 * as an edge deployment serves shared pages.
 */
async function throughNginx(webPort: number): Promise<string> {
  if (!findProgram('nginx')) return 'server rendering / through nginx: skipped (nginx is not installed)';
  const prefix = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-nginx-'));
  const port = webPort + 1;
  const nginx = await startNginx(prefix, nginxSite([webPort], port, prefix), port);
  try {
    const url = `http://127.0.0.1:${port}/`;
    await load(url, 1500, CONNECTIONS); // warm-up
    const r = await load(url, 5000, CONNECTIONS);
    const goal = GOALS.homeThroughNginx;
    return `server rendering / through nginx's cache: ${fmt(r.perSecond, 0)} requests/s, p50 ${fmt(r.median, 1)} ms, p99 ${fmt(r.p99, 1)} ms (${CONNECTIONS} connections, ${r.errors} errors) — goal ≥ ${goal}/s ${verdict(r.perSecond >= goal)}`;
  } finally {
    await nginx.stop();
    fs.rmSync(prefix, { recursive: true, force: true });
  }
}

export async function webBenchmarks(): Promise<string[]> {
  const lines: string[] = [];
  const client = path.resolve('build/client');
  if (fs.existsSync(client)) lines.push(...bundleReport(client));
  else lines.push('first-load JS: no build/ (run npm run build first)');
  if (!fs.existsSync(path.resolve('build/server-bin/index.js'))) return lines;
  const port = Number(process.env.BENCH_WEB_PORT) || 43000 + Math.floor(Math.random() * 1000);
  const web = await startServer(port, os.availableParallelism());
  try {
    lines.push(...(await renderBenchmarks(`http://127.0.0.1:${port}`)));
    lines.push(await throughNginx(port));
  } finally {
    await web.stop();
  }
  return lines;
}
