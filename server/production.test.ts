/**
 * The production server as an operator runs it: the compiled bundle (`npm run build` first) with the
 * embedded upstream in its own process and two web processes (cluster). Caching rules, sessions and the
 * stream whichever process answers, /metrics access, and a graceful SIGTERM during traffic.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { buildDirectory } from './build-directory';
import { gcFlags } from './gc-flags';

const ENTRY = path.join(buildDirectory(process.env.BUILD_DIR), 'server-bin', 'index.js');
const TOKEN = 'metrics-token-for-the-test-0123456789';

interface Running {
  child: ChildProcess;
  base: string;
  dataDir: string;
  output: () => string;
  exited: Promise<number | null>;
}

async function startServer(env: Record<string, string> = {}): Promise<Running> {
  if (!fs.existsSync(ENTRY)) throw new Error(`${ENTRY} is missing: run \`npm run build\` first`);
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'production-test-'));
  const child = spawn(process.execPath, [ENTRY], {
    env: { ...process.env, NODE_ENV: 'production', PORT: '0', HOST: '127.0.0.1', DATA_DIR: dataDir, WEB_CONCURRENCY: '2', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout!.on('data', (d) => (out += d));
  child.stderr!.on('data', (d) => (out += d));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const base = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no ready line:\n${out}`)), 30_000);
    child.stdout!.on('data', () => {
      const port = /ready at http:\/\/localhost:(\d+)/.exec(out)?.[1];
      if (port) {
        clearTimeout(timer);
        resolve(`http://127.0.0.1:${port}`);
      }
    });
    void exited.then(() => reject(new Error(`exited:\n${out}`)));
  });
  return { child, base, dataDir, output: () => out, exited };
}

async function stopServer(s: Running) {
  if (s.child.exitCode === null) s.child.kill('SIGTERM');
  await s.exited;
  fs.rmSync(s.dataDir, { recursive: true, force: true });
}

/** GET on a fresh connection (so that the cluster may hand it to either worker). */
function get(
  url: string,
  headers: Record<string, string> = {},
): Promise<{ status: number; headers: http.IncomingHttpHeaders; body: string }> {
  return new Promise((resolve, reject) => {
    http
      .get(url, { headers, agent: false }, (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (d) => (body += d));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
      })
      .on('error', reject);
  });
}

/** The first events of a stream (raw text), read until `until` matches, then the connection is dropped. */
function streamHead(url: string, headers: Record<string, string>, until: RegExp): Promise<string> {
  return new Promise((resolve, reject) => {
    const req = http.get(url, { headers: { accept: 'text/event-stream', ...headers }, agent: false }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      const timer = setTimeout(() => {
        req.destroy();
        reject(new Error(`stream: no ${until} in:\n${text}`));
      }, 10_000);
      res.on('data', (d) => {
        text += d;
        if (until.test(text)) {
          clearTimeout(timer);
          req.destroy();
          resolve(text);
        }
      });
    });
    req.on('error', (e) => (e.message === 'socket hang up' ? undefined : reject(e)));
  });
}

const bootOf = (text: string) => /^id: ([0-9a-f]+)\.\d+$/m.exec(text)?.[1];

/** Opens a demo account the way the login page's button does; returns the session cookie. */
async function signInDemo(base: string): Promise<string> {
  const page = await get(`${base}/login`);
  const csrfCookie = String(page.headers['set-cookie']?.find((c) => c.startsWith('__Host-csrf='))?.split(';')[0]);
  const form = /<form method="post" action="\/demo"[^>]*>(.*?)<\/form>/s.exec(page.body)![1]!;
  const fields = new URLSearchParams([...form.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)"/g)].map((m) => [m[1]!, m[2]!]));
  const res = await fetch(`${base}/demo`, {
    method: 'POST',
    redirect: 'manual',
    headers: { cookie: csrfCookie, origin: base, 'content-type': 'application/x-www-form-urlencoded' },
    body: fields,
  });
  expect(res.status).toBe(302);
  const sid = res.headers.getSetCookie().find((c) => c.startsWith('__Host-sid='));
  expect(sid).toBeDefined();
  return sid!.split(';')[0]!;
}

describe('two web processes behind one port', () => {
  let server: Running;
  beforeAll(async () => {
    server = await startServer({ METRICS_TOKEN: TOKEN });
  }, 60_000);
  afterAll(() => stopServer(server));

  test('a shared page is public for a second; a visitor’s page may enter the back/forward cache; a signed-in one never; hashed assets are immutable and sent precompressed', async () => {
    const visitor = await get(`${server.base}/`);
    expect(visitor.status).toBe(200);
    expect(visitor.headers['cache-control']).toBe('public, max-age=0, s-maxage=1');
    expect(visitor.headers['set-cookie']).toBeUndefined();
    expect((await get(`${server.base}/login`)).headers['cache-control']).toBe('private, no-cache');
    // The default language is Chinese: React 18.3.1 pads some pieces' ends with NUL bytes (react#24985; app/entry.server.tsx).
    expect(visitor.body).toContain('市場');
    expect(visitor.body).not.toContain('\0');
    // A route's own Cache-Control replaces the pages' default (two would combine, and no-cache would win).
    const version = /data-i18n-version="([^"]+)"/.exec(visitor.body)![1];
    expect((await get(`${server.base}/locales/en.json?v=${version}`)).headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect((await get(`${server.base}/logos/eurusd.png`)).headers['cache-control']).toBe(
      'public, max-age=86400, stale-while-revalidate=604800',
    );
    // The build's other public files, by name; for an hour.
    for (const file of ['/manifest.json', '/sw.js', '/flags/en.svg', '/favicon.svg']) {
      const response = await get(`${server.base}${file}`);
      expect(response.status, file).toBe(200);
      expect(response.headers['cache-control'], file).toBe('public, max-age=3600');
    }
    expect((await get(`${server.base}/flags/nothing.svg`)).status).toBe(404);
    const sid = await signInDemo(server.base);
    const signedIn = await get(`${server.base}/`, { cookie: sid });
    expect(signedIn.status).toBe(200);
    expect(signedIn.headers['cache-control']).toBe('private, no-store');
    // A stale or forged session cookie counts as signed in too: the server does not read the store for this.
    expect((await get(`${server.base}/login`, { cookie: '__Host-sid=stale' })).headers['cache-control']).toBe('private, no-store');
    const asset = /\/assets\/[\w.-]+\.js/.exec(visitor.body)![0];
    expect((await get(`${server.base}${asset}`)).headers['cache-control']).toBe('public, max-age=31536000, immutable');
    // Sent as compressed at build time: brotli where the browser takes it, else gzip, else as is; never twice.
    const brotli = await get(`${server.base}${asset}`, { 'accept-encoding': 'gzip, deflate, br' });
    expect(brotli.headers['content-encoding']).toBe('br');
    expect(brotli.headers.vary).toMatch(/accept-encoding/i);
    const gzip = await get(`${server.base}${asset}`, { 'accept-encoding': 'gzip' });
    expect(gzip.headers['content-encoding']).toBe('gzip');
    const plain = await get(`${server.base}${asset}`, { 'accept-encoding': 'identity' });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(Number(brotli.headers['content-length'])).toBeLessThan(Number(gzip.headers['content-length']));
    expect(Number(gzip.headers['content-length'])).toBeLessThan(Number(plain.headers['content-length']));
    expect(Buffer.byteLength(plain.body)).toBe(Number(plain.headers['content-length']));
  });

  test('a page the server renders goes to a browser in brotli, whole and in few pieces', async () => {
    const sid = await signInDemo(server.base);
    const pieces: Buffer[] = [];
    const res = await new Promise<http.IncomingMessage>((resolve, reject) => {
      http
        .get(
          `${server.base}/trade?code=EURUSD`,
          { headers: { cookie: sid, 'accept-encoding': 'gzip, deflate, br, zstd' }, agent: false },
          (r) => {
            r.on('data', (d: Buffer) => pieces.push(d));
            r.on('end', () => resolve(r));
          },
        )
        .on('error', reject);
    });
    expect(res.headers['content-encoding']).toBe('br');
    const page = zlib.brotliDecompressSync(Buffer.concat(pieces)).toString('utf8');
    expect(page).toMatch(/^<!DOCTYPE html>/i);
    expect(page).toContain('name="idempotency_key"');
    // Whole: the document, then the route data Remix streams after it, to its end.
    expect(page).toContain('</html>');
    expect(page).toContain('window.__remixContext.streamController.close()');
    // React writes a page in dozens of pieces in one turn; they leave together (app/utils/page-stream.server.ts).
    expect(pieces.length).toBeLessThan(8);
  });

  test('the session and the stream work whichever process answers, and so does replay after a reconnect', async () => {
    const sid = await signInDemo(server.base);
    // Fresh connections go to the workers in turn: collect a stream head from each.
    const heads = new Map<string, string>();
    for (let i = 0; i < 8 && heads.size < 2; i++) {
      const text = await streamHead(`${server.base}/stream`, { cookie: sid }, /event: account/);
      heads.set(bootOf(text)!, text);
    }
    // Two processes, each of which read the session from the shared store and relayed this user's account.
    expect(heads.size).toBe(2);
    const [a] = [...heads.keys()];
    const lastFromA = [...heads.get(a!)!.matchAll(/^id: (\S+)$/gm)].at(-1)![1]!;
    // A reconnect naming A's id gets A's replay wherever it lands: never a resync, on either process.
    const landed = new Set<string>();
    for (let i = 0; i < 8 && landed.size < 2; i++) {
      const text = await streamHead(`${server.base}/stream?lastEventId=${lastFromA}`, { cookie: sid }, /event: status/);
      expect(text).not.toContain('event: resync');
      landed.add(bootOf(text.replace(/^id: .*\nevent: account\n.*\n\n/gm, ''))!);
    }
    expect(landed.size).toBe(2);
    // An id no running process issued (one that has stopped): resync, and the page reloads its data.
    const stale = await streamHead(`${server.base}/stream?lastEventId=0badf00d.5`, { cookie: sid }, /event: status/);
    expect(stale).toMatch(/event: resync\ndata: \{"reason":"unknown-id"\}/);
  });

  test('the processes it starts collect garbage as gc-flags.ts says for three processes on this machine', () => {
    const childrenOf = (pid: number) =>
      fs
        .readdirSync(`/proc/${pid}/task`)
        .flatMap((t) => fs.readFileSync(`/proc/${pid}/task/${t}/children`, 'utf8').trim().split(/\s+/).filter(Boolean).map(Number));
    const started = childrenOf(server.child.pid!).map((pid) => fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0'));
    // Two web workers and the embedded upstream.
    expect(started).toHaveLength(3);
    expect(started.filter((argv) => argv.some((a) => a.endsWith('upstream-process.js')))).toHaveLength(1);
    const expected = gcFlags(3);
    for (const argv of started) expect(argv.filter((a) => a.includes('-gc'))).toEqual(expected);
    // This machine has 2 cores, as CI has: the flag is there.
    if (os.availableParallelism() <= 3) expect(expected).toEqual(['--single-threaded-gc']);
  });

  test('a trader with no orders: /trade reads the account and not the (empty) order lists', async () => {
    const sid = await signInDemo(server.base);
    const count = async (call: string) => {
      const text = (await get(`${server.base}/metrics`)).body;
      return Number(
        new RegExp(`^lotfx_upstream_call_duration_seconds_count\\{call="${call}",outcome="ok"\\} (\\d+)$`, 'm').exec(text)?.[1] ?? 0,
      );
    };
    const [details, deals] = [await count('forexDetail'), await count('my_deal')];
    const page = await get(`${server.base}/trade?code=EURUSD`, { cookie: sid });
    expect(page.status).toBe(200);
    expect(page.body).toContain('name="idempotency_key"');
    // No margin held: nothing for the chart to draw, and two upstream calls fewer (app/routes/trade/chart-orders.server.ts).
    expect(await count('forexDetail')).toBe(details + 1);
    expect(await count('my_deal')).toBe(deals);
  });

  test('/metrics: every process summed, for this machine or the token only', async () => {
    await get(`${server.base}/trade`);
    const res = await get(`${server.base}/metrics`);
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toContain('text/plain');
    expect(res.body).toMatch(/lotfx_http_request_duration_seconds_count\{method="GET",route="\/trade",status="200"\} \d+/);
    expect(res.body).toMatch(/lotfx_upstream_call_duration_seconds_count\{call="trade_list",outcome="ok"\} \d+/);
    expect(res.body).toMatch(/^lotfx_stream_clients \d+$/m);
    // Both processes' public sockets are up.
    expect(res.body).toMatch(/^lotfx_relay_feed\{state="up"\} 2$/m);
    expect(res.body).toMatch(/^lotfx_relay_connects_total [2-9]\d*$/m);
    // Through a proxy on this host, a phone's request is not "loopback".
    const phone = { 'x-forwarded-for': '203.0.113.9' };
    expect((await get(`${server.base}/metrics`, phone)).status).toBe(404);
    expect((await get(`${server.base}/metrics`, { ...phone, authorization: 'Bearer wrong' })).status).toBe(404);
    expect((await get(`${server.base}/metrics`, { ...phone, authorization: `Bearer ${TOKEN}` })).status).toBe(200);
  });
});

test('SIGTERM during traffic: no request fails but refused new connections, the stream ends with retry, exit 0', async () => {
  const server = await startServer();
  const upstream = fs.readFileSync(path.join(server.dataDir, 'upstream.url'), 'utf8').trim();
  const agent = new http.Agent({ keepAlive: true, maxSockets: 4 });
  const failures: string[] = [];
  let refused = 0;
  let answered = 0;
  let stop = false;
  async function loop() {
    while (!stop) {
      let reused = false;
      try {
        const res = await new Promise<number>((resolve, reject) => {
          const req = http
            .get(`${server.base}/`, { agent }, (r) => {
              r.resume();
              r.on('end', () => resolve(r.statusCode ?? 0));
              r.on('error', reject);
            })
            .on('error', (error) => {
              reused = req.reusedSocket;
              reject(error);
            });
        });
        if (res !== 200) failures.push(`HTTP ${res}`);
        answered++;
      } catch (error) {
        const code = (error as NodeJS.ErrnoException).code;
        // A new connection reset before any answer was refused too: the cluster's primary can accept it just as
        // the workers stop and then drop it. Nothing was read from it. A reset on a kept-alive connection, where
        // a request may have been taken, stays a failure.
        if (code === 'ECONNREFUSED' || (code === 'ECONNRESET' && !reused)) {
          refused++;
          stop = true;
        } else failures.push(`${String(error)}${reused ? ' (on a kept-alive connection)' : ''}`);
      }
    }
  }
  const stream = new Promise<string>((resolve, reject) => {
    http.get(`${server.base}/stream`, { agent: false }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (d) => (text += d));
      res.on('end', () => resolve(text));
      res.on('error', reject);
    });
  });
  const loops = Promise.all([loop(), loop(), loop(), loop()]);
  // Traffic under way on both processes, then the signal a service manager sends.
  while (answered < 20) await new Promise((r) => setTimeout(r, 50));
  const before = answered;
  server.child.kill('SIGTERM');
  const [code] = await Promise.all([server.exited, loops]);
  const streamText = await stream;

  expect(failures).toEqual([]);
  // Requests kept being answered while it stopped.
  expect(answered).toBeGreaterThan(before);
  expect(refused).toBeGreaterThan(0);
  expect(code).toBe(0);
  // The stream ended normally, last telling the browser when to reconnect (elsewhere).
  expect(streamText).toMatch(/retry: \d+\n\n$/);
  // The upstream was stopped too.
  await expect(fetch(`${upstream}/healthz`)).rejects.toThrow();
  agent.destroy();
  fs.rmSync(server.dataDir, { recursive: true, force: true });
}, 60_000);

describe('UPSTREAM_URL=auto: each allowed page host reaches its own upstream', () => {
  let server: Running;
  beforeAll(async () => {
    server = await startServer({ UPSTREAM_URL: 'auto', ALLOWED_HOSTS: 'm.one.test,m.two.test', WEB_CONCURRENCY: '1' });
  }, 60_000);
  afterAll(() => stopServer(server));

  /** One feed state per relay (with one relay, /healthz gives it alone). */
  const feeds = async () => [(JSON.parse((await get(`${server.base}/healthz`)).body) as { feed: string | string[] }).feed].flat();
  /** A stream's first answer: its status, and nothing more is waited for. */
  const streamStatus = (host: string) =>
    new Promise<number>((resolve, reject) => {
      const req = http.get(`${server.base}/stream`, { headers: { host, accept: 'text/event-stream' }, agent: false }, (res) => {
        resolve(res.statusCode ?? 0);
        req.destroy();
      });
      req.on('error', (e) => (e.message === 'socket hang up' ? undefined : reject(e)));
    });

  test('a host that is not allowed gets 421 for pages and the stream, and makes no relay', async () => {
    // A load balancer's health check by address is answered.
    expect(await feeds()).toEqual([]);
    expect((await get(`${server.base}/login`, { host: 'evil.example' })).status).toBe(421);
    expect(await streamStatus('evil.example')).toBe(421);
    expect(await streamStatus('api.one.test')).toBe(421);
    expect(await feeds()).toEqual([]);
  });

  test("each allowed host's stream opens a relay of its own (to api.<domain>), made once", async () => {
    expect(await streamStatus('m.one.test')).toBe(200);
    expect(await feeds()).toHaveLength(1);
    expect(await streamStatus('m.one.test')).toBe(200);
    expect(await feeds()).toHaveLength(1);
    expect(await streamStatus('m.two.test')).toBe(200);
    expect(await feeds()).toHaveLength(2);
  });
});
