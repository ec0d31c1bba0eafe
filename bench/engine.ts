/**
 * Engine benchmarks (issues 2 and 41): re-marking open positions on one tick, and order submissions per second
 * over HTTP against a separate upstream process with synchronous=FULL (64 clients), and their latency at 1,000/s.
 * Baselines from the same run: the raw SQLite commit rate with the same durability, and a bare HTTP POST that does
 * nothing.
 */
import Database from 'better-sqlite3';
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { EntryMode, Side } from '../contract/enums';
import { engineFixture } from '../upstream/tests/fixture';
import { Pool } from 'undici';
import { fmt, summary } from './stats';

export async function remarkBenchmark(positions = 10_000, ticks = 400) {
  const f = engineFixture();
  try {
    f.tick('EURUSD', 1.1);
    // Set up in one transaction (each order's own commit is a savepoint in it): 100,000 commits would take minutes.
    const users: number[] = [];
    f.up.db.transaction(() => {
      for (let i = 0; i < positions / 10; i++) users.push(f.demoUser());
      for (const u of users) {
        for (let i = 0; i < 10; i++) {
          f.up.engine.submit(u, {
            side: i % 2 ? Side.Buy : Side.Sell,
            lots: '0.1',
            instrumentId: f.id('EURUSD'),
            entryMode: EntryMode.Market,
            targetPrice: null,
            takeProfit: i % 2 ? '1.5' : '0.8',
            stopLoss: i % 2 ? '0.8' : '1.5',
            leverage: 100,
          });
        }
      }
    })();
    const id = f.id('EURUSD');
    const samples: number[] = [];
    for (let i = 0; i < ticks; i++) {
      const price = 110000 + ((i * 7) % 41) - 20; // ±2 pips: no trigger fires, every position re-marks
      const t0 = performance.now();
      f.up.market.applyTick(id, price);
      samples.push(performance.now() - t0);
    }
    // What stays per position (decision 0004 rounds each one): valuing them all, as the account push does once a
    // second for the signed-in; measured after a tick, so every figure is worked out anew.
    const valuing: number[] = [];
    for (let i = 0; i < 20; i++) {
      f.up.market.applyTick(id, 110000 + (i % 2 ? 3 : -3));
      const t0 = performance.now();
      for (const u of users) {
        f.up.engine.figures(u);
        f.up.engine.holdingOf(u);
      }
      valuing.push(performance.now() - t0);
    }
    return { positions, ...summary(samples.slice(20)), valuing: summary(valuing).median };
  } finally {
    f.close();
  }
}

function sqliteCommitsPerSecond(ms = 2000) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-sqlite-'));
  const db = new Database(path.join(dir, 'b.sqlite'));
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = FULL');
  db.exec('CREATE TABLE t (a INTEGER)');
  const insert = db.prepare('INSERT INTO t VALUES (?)');
  let n = 0;
  const end = performance.now() + ms;
  while (performance.now() < end) {
    db.transaction(() => insert.run(n)).immediate();
    n++;
  }
  db.close();
  fs.rmSync(dir, { recursive: true, force: true });
  return n / (ms / 1000);
}

async function startUpstreamProcess(dataDir: string, port: number) {
  const child = spawn(process.execPath, ['--import', 'tsx', 'upstream/main.ts'], {
    env: { ...process.env, DATA_DIR: dataDir, UPSTREAM_PORT: String(port), UPSTREAM_TEST_HOOKS: '1' },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  await new Promise<void>((resolve, reject) => {
    child.stdout!.on('data', (b: Buffer) => b.toString().includes('listening') && resolve());
    child.once('exit', (code) => reject(new Error(`upstream exited ${code}`)));
  });
  return child;
}

async function drive(concurrency: number, ms: number, once: (worker: number) => Promise<boolean>) {
  let ok = 0;
  let failed = 0;
  const end = performance.now() + ms;
  await Promise.all(
    Array.from({ length: concurrency }, async (_, w) => {
      while (performance.now() < end) {
        if (await once(w)) ok++;
        else failed++;
      }
    }),
  );
  return { ok, failed, perSecond: ok / (ms / 1000) };
}

/**
 * An open loop at `rate` requests per second for `ms`: each request is due at its own time and its latency counts
 * from then (a late send counts as waiting), so a stalled server shows in the figure instead of slowing the load.
 */
async function openLoop(rate: number, ms: number, once: (n: number) => Promise<boolean>) {
  const latencies: number[] = [];
  let failed = 0;
  const started = performance.now();
  const total = Math.round((rate * ms) / 1000);
  const inFlight: Promise<void>[] = [];
  let sent = 0;
  // A server far behind (a machine busy with other work) ends the loop at twice its time: what was sent is measured.
  while (sent < total && performance.now() - started < 2 * ms) {
    const due = Math.min(total, Math.floor(((performance.now() - started) * rate) / 1000) + 1);
    for (; sent < due; sent++) {
      const at = started + (sent * 1000) / rate;
      const n = sent;
      inFlight.push(
        once(n).then((ok) => {
          if (ok) latencies.push(performance.now() - at);
          else failed++;
        }),
      );
    }
    await new Promise((r) => setTimeout(r, 1));
  }
  await Promise.all(inFlight);
  return { ...summary(latencies), failed, perSecond: latencies.length / ((performance.now() - started) / 1000) };
}

/** Order submissions over HTTP against a separate upstream process: closed loop at `concurrency`, then an open loop. */
export async function submitBenchmark(ms = 5000, concurrency = 64, rate = 1000) {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-upstream-'));
  const port = 41000 + Math.floor(Math.random() * 1000);
  const child = await startUpstreamProcess(dataDir, port);
  const base = `http://127.0.0.1:${port}`;
  // undici's pool rather than fetch: the client shares this machine's two cores with the upstream, and fetch's own
  // cost per request would cap the figure below what the upstream can do.
  const pool = new Pool(base, { connections: concurrency, pipelining: 1 });
  const call = async (method: 'GET' | 'POST', url: string, headers: Record<string, string>, body?: string) => {
    const r = await pool.request({ method, path: url, headers, body });
    return (await r.body.json()) as { code: number; data: { token: string } };
  };
  try {
    const adminKey = fs.readFileSync(path.join(dataDir, 'admin.key'), 'utf8').trim();
    await call(
      'POST',
      '/admin/market',
      { 'x-admin-key': adminKey, 'content-type': 'application/json' },
      '{"code":"EURUSD","status":"open"}',
    );
    const tokens: string[] = [];
    for (let i = 0; i < concurrency; i++) {
      // One address per account: demo accounts are limited per address (the upstream trusts loopback's X-Forwarded-For).
      const from = { 'x-forwarded-for': `10.41.${i >> 8}.${i & 255}` };
      tokens.push((await call('GET', `/api/user/createAccountDemoForU?demo_id=${crypto.randomUUID()}`, from)).data.token);
    }
    const body = 'type=1&cont=0.01&forex_id=1&status=1&multiple=100';
    const submit = async (w: number) =>
      (
        await call(
          'POST',
          '/v1/api/forex/submit',
          { authorization: tokens[w % tokens.length]!, lang: 'en', 'content-type': 'application/x-www-form-urlencoded' },
          body,
        )
      ).code === 1;
    // Warm up the JIT and the connection pool.
    await drive(concurrency, 500, submit);
    const submits = await drive(concurrency, ms, submit);
    const paced = await openLoop(rate, ms, submit);
    // Baseline: the same server answering a POST that touches nothing (a bad request refused before any work).
    const refused = async () => {
      const r = await call('POST', '/api/user/loginForU', { lang: 'en', 'content-type': 'application/x-www-form-urlencoded' }, '');
      return r.code === 1001;
    };
    const bare = await drive(concurrency, 2000, refused);
    // The latency floor of this box at the same rate: the client, HTTP and the event loop, without an order.
    const pacedBare = await openLoop(rate, ms, refused);
    return { submits, paced, bare, pacedBare, concurrency, rate };
  } finally {
    await pool.close();
    child.kill('SIGTERM');
    await new Promise((r) => child.once('exit', r));
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

export async function engineBenchmarks(): Promise<string[]> {
  const lines: string[] = [];
  for (const [positions, goal] of [
    [10_000, 1],
    [100_000, 5],
  ] as const) {
    const remark = await remarkBenchmark(positions);
    lines.push(
      `engine re-mark: ${remark.positions} open positions on one tick — median ${fmt(remark.median, 3)} ms, p99 ${fmt(remark.p99, 3)} ms, max ${fmt(remark.max, 3)} ms (${remark.n} ticks; goal p99 ≤ ${goal} ms); valuing every position ${fmt(remark.valuing, 1)} ms`,
    );
  }
  const commits = sqliteCommitsPerSecond();
  const { submits, paced, bare, pacedBare, concurrency, rate } = await submitBenchmark();
  lines.push(
    `order submissions over HTTP (synchronous=FULL, ${concurrency} clients): ${fmt(submits.perSecond, 0)}/s, ${submits.failed} refused (goal ≥ 80 % of the commit ceiling)`,
    `  baselines in this run: bare refused POST ${fmt(bare.perSecond, 0)}/s; raw SQLite FULL commits ${fmt(commits, 0)}/s → submit = ${fmt((submits.perSecond / bare.perSecond) * 100, 0)} % of bare HTTP, ${fmt((submits.perSecond / commits) * 100, 0)} % of the commit ceiling`,
    `order latency at ${rate} orders/s (open loop): median ${fmt(paced.median, 2)} ms, p99 ${fmt(paced.p99, 2)} ms, max ${fmt(paced.max, 2)} ms (${paced.n} orders, ${paced.failed} refused, ${fmt(paced.perSecond, 0)}/s; goal p99 ≤ 10 ms)`,
    `  floor in this run: a bare refused POST at ${rate}/s (open loop): median ${fmt(pacedBare.median, 2)} ms, p99 ${fmt(pacedBare.p99, 2)} ms, max ${fmt(pacedBare.max, 2)} ms`,
  );
  return lines;
}
