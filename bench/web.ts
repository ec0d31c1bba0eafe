/**
 * Web benchmarks: server-rendering throughput and latency of `/` and `/trade` against the built app
 * with its embedded upstream (a separate process on loopback), and first-load JS per route.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { bundleReport } from './bundle';
import { fmt, summary } from './stats';

/** The built app with its embedded upstream on a fresh data folder (admin key and upstream address in it). */
export async function startWeb(port: number) {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-web-'));
  const child = spawn(process.execPath, ['--import', 'tsx', 'server/index.ts'], {
    env: { ...process.env, NODE_ENV: 'production', PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dataDir },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  await new Promise<void>((resolve, reject) => {
    child.stdout!.on('data', (b: Buffer) => b.toString().includes('ready') && resolve());
    child.once('exit', (code) => reject(new Error(`web server exited ${code}`)));
  });
  return {
    dataDir,
    async stop() {
      child.kill('SIGTERM');
      await new Promise((r) => child.once('exit', r));
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

async function load(url: string, ms: number, concurrency: number) {
  const latencies: number[] = [];
  let errors = 0;
  const end = performance.now() + ms;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (performance.now() < end) {
        const t0 = performance.now();
        const res = await fetch(url, { headers: { 'accept-encoding': 'gzip' } }).catch(() => null);
        if (!res || !res.ok) errors++;
        await res?.arrayBuffer();
        latencies.push(performance.now() - t0);
      }
    }),
  );
  return { perSecond: latencies.length / (ms / 1000), errors, ...summary(latencies) };
}

export async function webBenchmarks(): Promise<string[]> {
  const lines: string[] = [];
  const client = path.resolve('build/client');
  if (fs.existsSync(client)) lines.push(...bundleReport(client));
  else lines.push('first-load JS: no build/ (run npm run build first)');
  if (!fs.existsSync(path.resolve('build/server/index.js'))) return lines;
  const port = 43000 + Math.floor(Math.random() * 1000);
  const web = await startWeb(port);
  try {
    for (const page of ['/', '/trade?code=BTCUSD']) {
      await load(`http://127.0.0.1:${port}${page}`, 1000, 8); // warm-up
      const r = await load(`http://127.0.0.1:${port}${page}`, 5000, 8);
      lines.push(
        `server rendering ${page}: ${fmt(r.perSecond, 0)} pages/s, median ${fmt(r.median, 1)} ms, p99 ${fmt(r.p99, 1)} ms (8 concurrent, ${r.errors} errors)`,
      );
    }
  } finally {
    await web.stop();
  }
  return lines;
}
