/**
 * Order round trip through the web app against the upstream called directly (issue 10, "Benchmarks"): the
 * compiled server (WEB_CONCURRENCY = cores, embedded upstream, fresh DATA_DIR), one demo account opened the
 * way a visitor does (the login page's CSRF token, `POST /demo`), its upstream token read from the web's
 * session store for the direct path. Market orders of 0.01 lot EURUSD, buy and sell alternating (the
 * account is funded through the admin balance hook so margin never runs out), on an open-loop schedule of
 * RATE orders/s: each order is sent at its scheduled time whether or not earlier ones have answered, and its
 * latency counts from that scheduled time until the answer has arrived in full.
 * - web: the trade page's form post (`POST /trade?code=EURUSD`, its CSRF token and a fresh idempotency key,
 *   as the page without JavaScript sends it), until the redirect to `?placed=<id>` arrives;
 * - direct: the upstream's submit call (`POST /v1/api/forex/submit`) with the same fields and token.
 * The two alternate in blocks of BLOCK_MS so that the growing book and the machine's load fall on both alike.
 * Then the account's orders list (`my_deal`, holding) must count exactly the orders answered as placed.
 *
 * `npx tsx bench/orders.ts [--rate=N] [--seconds=N]` runs it alone; bench/index.ts calls `ordersBenchmarks()`.
 */
import Database from 'better-sqlite3';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { benchPort, demoSession, sleep, startServer, tradeFormToken, type BenchServer } from './server';
import { fmt, summary } from './stats';

const RATE = 200;
const SECONDS = 15;
const WARMUP_SECONDS = 2;
const BLOCK_MS = 3000;
const GOAL_ADDED_P99_MS = 10;

type Path = 'web' | 'direct';
interface Outcome {
  ok: boolean;
  id: number | null;
  ms: number;
  detail: string;
}

/** A signed-in demo account: its cookies, the trade form's CSRF token, and its upstream token and uid. */
async function demoAccount(server: BenchServer) {
  const cookie = await demoSession(server.base);
  const csrf = await tradeFormToken(server.base, cookie);
  // The session's upstream token, from the web's own session store (the only session in this DATA_DIR).
  const db = new Database(path.join(server.dataDir, 'web-sessions.sqlite'), { readonly: true });
  const rows = db.prepare('SELECT data FROM sessions').all() as { data: string }[];
  db.close();
  const session = rows.map((r) => JSON.parse(r.data) as { token?: string; user?: { uid: string } }).find((s) => s.token);
  if (!session?.token || !session.user) throw new Error('no signed-in session in web-sessions.sqlite');
  return { cookie, csrf, token: session.token, uid: session.user.uid };
}

/** Sums and counts of the web's histograms (every process summed), by metric name and labels. */
async function histograms(server: BenchServer): Promise<Map<string, { sum: number; count: number }>> {
  const text = await (await fetch(`${server.base}/metrics`)).text();
  const out = new Map<string, { sum: number; count: number }>();
  for (const m of text.matchAll(/^(lotfx_(?:http_request|upstream_call)_duration_seconds)_(sum|count)\{([^}]*)\} (\S+)$/gm)) {
    const key = `${m[1]}{${m[3]}}`;
    const entry = out.get(key) ?? { sum: 0, count: 0 };
    entry[m[2] as 'sum' | 'count'] = Number(m[4]);
    out.set(key, entry);
  }
  return out;
}

/** CPU seconds the web processes have used (their /metrics, summed over the processes). */
async function webCpuSeconds(server: BenchServer): Promise<number> {
  const text = await (await fetch(`${server.base}/metrics`)).text();
  return Number(/^lotfx_process_cpu_seconds_total (\S+)$/m.exec(text)?.[1] ?? NaN);
}

/** Mean milliseconds per call between two snapshots, for the series whose key matches. */
function meanBetween(
  before: Map<string, { sum: number; count: number }>,
  after: Map<string, { sum: number; count: number }>,
  match: RegExp,
) {
  const rows: string[] = [];
  for (const [key, a] of after) {
    if (!match.test(key)) continue;
    const b = before.get(key) ?? { sum: 0, count: 0 };
    const count = a.count - b.count;
    if (count > 0)
      rows.push(`${key.replace(/^lotfx_\w+_duration_seconds/, '')} mean ${fmt(((a.sum - b.sum) / count) * 1000, 1)} ms × ${count}`);
  }
  return rows.join(', ');
}

/**
 * One POST; a kept-alive socket the server closed meanwhile (ECONNRESET on reuse) is tried once more with the
 * same body, idempotency key included, as a browser would: the exactly-once count checks that it is safe.
 */
async function send(agent: http.Agent, url: URL, headers: Record<string, string>, body: string) {
  try {
    return await sendOnce(agent, url, headers, body);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ECONNRESET') throw error;
    retried++;
    return sendOnce(agent, url, headers, body);
  }
}
let retried = 0;

function sendOnce(agent: http.Agent, url: URL, headers: Record<string, string>, body: string) {
  return new Promise<{ status: number; location: string; text: string }>((resolve, reject) => {
    const req = http.request(
      url,
      {
        method: 'POST',
        agent,
        headers: { ...headers, 'content-type': 'application/x-www-form-urlencoded', 'content-length': String(Buffer.byteLength(body)) },
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (c: string) => (text += c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, location: String(res.headers.location ?? ''), text }));
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

export async function ordersBenchmarks(rate = RATE, seconds = SECONDS): Promise<string[]> {
  const load0 = os.loadavg();
  const cores = os.availableParallelism();
  const server = await startServer(benchPort(2), cores);
  try {
    // Only EURUSD ticks (the simulator skips closed markets): its re-marks are the book's only extra work.
    await server.admin('POST', '/admin/market', { code: 'all', status: 'closed' });
    await server.admin('POST', '/admin/market', { code: 'EURUSD', status: 'open' });
    const account = await demoAccount(server);
    await server.admin('POST', '/admin/balance', { user: account.uid, amount: '100000000', memo: 'order bench' });

    const agent = new http.Agent({ keepAlive: true, maxSockets: 256 });
    const webUrl = new URL(`${server.base}/trade?code=EURUSD`);
    const directUrl = new URL('/v1/api/forex/submit', server.upstreamUrl);
    let seq = 0;
    async function order(way: Path): Promise<Omit<Outcome, 'ms'>> {
      const side = ++seq % 2 ? '1' : '2';
      const key = crypto.randomUUID();
      try {
        if (way === 'web') {
          const body = new URLSearchParams({
            csrf: account.csrf,
            forex_id: '1',
            code: 'EURUSD',
            idempotency_key: key,
            entry: '1',
            lots: '0.01',
            leverage: '100',
            side,
            // As the ticket's confirmation sends it (one-tap trading off, the default).
            confirmed: '1',
          }).toString();
          const r = await send(agent, webUrl, { cookie: account.cookie, origin: server.base, 'accept-language': 'en' }, body);
          const placed = /[?&]placed=(\d+)/.exec(r.location)?.[1];
          return {
            ok: r.status >= 300 && r.status < 400 && !!placed,
            id: placed ? Number(placed) : null,
            detail: `${r.status} ${r.location || r.text.slice(0, 120)}`,
          };
        }
        const body = new URLSearchParams({
          type: side,
          cont: '0.01',
          forex_id: '1',
          status: '1',
          multiple: '100',
          idempotency_key: key,
        }).toString();
        const r = await send(agent, directUrl, { authorization: account.token, lang: 'en' }, body);
        const json = JSON.parse(r.text) as { code: number; msg?: string; data?: { Id: number } };
        return { ok: json.code === 1 && !!json.data, id: json.data?.Id ?? null, detail: `${r.status} ${r.text.slice(0, 120)}` };
      } catch (error) {
        return { ok: false, id: null, detail: String(error) };
      }
    }

    /** Orders of one path every 1000/rate ms for `ms`, each at its scheduled time (open loop). */
    async function schedule(way: Path, ms: number): Promise<Outcome[]> {
      const interval = 1000 / rate;
      const count = Math.round(ms / interval);
      const start = performance.now() + 5;
      const inflight: Promise<Outcome>[] = [];
      for (let i = 0; i < count; i++) {
        const at = start + i * interval;
        const wait = at - performance.now();
        if (wait > 1) await sleep(wait);
        inflight.push(order(way).then((o) => ({ ...o, ms: performance.now() - at })));
      }
      return Promise.all(inflight);
    }

    const all: Outcome[] = [];
    for (const way of ['web', 'direct'] as const) all.push(...(await schedule(way, WARMUP_SECONDS * 1000)));
    const measured: Record<Path, Outcome[]> = { web: [], direct: [] };
    const load1 = os.loadavg();
    const before = await histograms(server);
    const cpu: Record<Path, number> = { web: 0, direct: 0 };
    for (let t = 0; t < seconds * 1000; t += BLOCK_MS)
      for (const way of ['direct', 'web'] as const) {
        const cpu0 = await webCpuSeconds(server);
        const block = await schedule(way, Math.min(BLOCK_MS, seconds * 1000 - t));
        cpu[way] += (await webCpuSeconds(server)) - cpu0;
        measured[way].push(...block);
        all.push(...block);
      }
    const load2 = os.loadavg();
    const after = await histograms(server);
    agent.destroy();
    await sleep(500);

    // Exactly once: the holding list counts every order answered as placed, and their ids are distinct.
    const deal = (await (
      await fetch(new URL('/v1/api/forex/my_deal?status=1&page=1', server.upstreamUrl), {
        headers: { authorization: account.token, lang: 'en' },
      })
    ).json()) as { code: number; total?: number };
    const placedIds = all.filter((o) => o.ok).map((o) => o.id);
    const distinct = new Set(placedIds).size;
    const failures = all.filter((o) => !o.ok);

    const web = summary(measured.web.map((o) => o.ms));
    const direct = summary(measured.direct.map((o) => o.ms));
    const added = { p50: web.median - direct.median, p99: web.p99 - direct.p99 };
    const la = (l: number[]) => l.map((x) => fmt(x, 2)).join(' ');
    const line = (name: string, s: typeof web, outcomes: Outcome[]) =>
      `  ${name}p50 ${fmt(s.median, 1)} ms, p99 ${fmt(s.p99, 1)} ms, max ${fmt(s.max, 1)} ms (${s.n.toLocaleString('en')} orders, ${outcomes.filter((o) => !o.ok).length} failed)`;
    const exactlyOnce = deal.total === placedIds.length && distinct === placedIds.length;
    return [
      `order round trip at ${rate} orders/s, open loop (latency from each order's scheduled time to its answer), market orders of 0.01 lot EURUSD, buy/sell alternating, ${seconds} s per path in ${BLOCK_MS / 1000} s blocks taking turns after ${WARMUP_SECONDS} s warm-up each; the compiled server, WEB_CONCURRENCY=${cores}, embedded upstream; load average (1/5/15 min) ${la(load0)} at start, ${la(load1)} when measuring began, ${la(load2)} at the end, ${cores} cores`,
      line('through the web (POST /trade form, until its redirect): ', web, measured.web),
      line('upstream directly (POST /v1/api/forex/submit):        ', direct, measured.direct),
      `  the web adds p50 ${fmt(added.p50, 1)} ms, p99 ${fmt(added.p99, 1)} ms — goal ≤ ${GOAL_ADDED_P99_MS} ms p99 at ${rate}/s: ${added.p99 <= GOAL_ADDED_P99_MS ? 'met' : 'NOT met'}`,
      `  inside the web while measuring (its /metrics): ${meanBetween(before, after, /http_request.*method="POST",route="\/trade"/)}; its upstream calls: ${meanBetween(before, after, /upstream_call/)}`,
      `  web processes' CPU per order (Σ over the ${cores} processes, blocks of each path): ${fmt((cpu.web / measured.web.length) * 1000, 1)} ms while the web placed them, ${fmt((cpu.direct / measured.direct.length) * 1000, 1)} ms while the upstream was called directly (the stream relay and idle work): the web's own ≈ ${fmt(((cpu.web - cpu.direct) / measured.web.length) * 1000, 1)} ms, i.e. at most ≈ ${fmt(cores / ((cpu.web - cpu.direct) / measured.web.length), 0)} orders/s on ${cores} otherwise idle cores`,
      `  exactly once: ${placedIds.length.toLocaleString('en')} orders answered as placed (warm-up included), ${distinct.toLocaleString('en')} distinct ids, the account's orders list counts ${deal.total?.toLocaleString('en') ?? `nothing (code ${deal.code})`}: ${exactlyOnce ? 'every order placed exactly once' : 'MISMATCH'} (${retried} sent again, same key, after a kept-alive socket was reset)${failures.length ? `; ${failures.length} failed, e.g. ${failures[0]!.detail}` : ''}`,
    ];
  } finally {
    await server.stop();
  }
}

const isMain = process.argv[1] !== undefined && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href;
if (isMain) {
  const arg = (name: string) => process.argv.find((a) => a.startsWith(`--${name}=`))?.split('=')[1];
  for (const line of await ordersBenchmarks(Number(arg('rate') ?? RATE), Number(arg('seconds') ?? SECONDS))) console.log(line);
}
