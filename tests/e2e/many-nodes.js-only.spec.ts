/**
 * Many web nodes behind nginx with Redis (issue 10): a real redis-server, the standalone upstream, two web
 * nodes with their own data folders, and a real nginx running deploy/nginx.conf in front of them.
 * Signed in on node A, the user is signed in on node B; through nginx the live stream survives the death
 * (SIGKILL) of the node that carries it: the browser reconnects to the other node, gets a clean resync
 * (event ids of one node mean nothing to another), and prices move again; an order sent during the switch
 * is placed exactly once. nginx answers a visitor's market list from its one-second cache, and never a
 * signed-in page. Skipped, saying so, only where redis-server or nginx is missing (`.ci/run`
 * installs both).
 */
import { expect, test } from '@playwright/test';
import Database from 'better-sqlite3';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { findProgram, freePort, nginxSite, startNginx, startRedis, startService, type Service } from '../services';
import { adminOf, REAL_PASSWORD, registerRealAccount } from './fixtures';

const missing = ['redis-server', 'nginx'].filter((p) => !findProgram(p));
test.skip(
  missing.length > 0,
  `SKIPPED: many nodes behind nginx — ${missing.join(' and ')} not installed (apt-get install redis-server nginx)`,
);

/** The compiled entries `npm run build` wrote, run as production runs them. */
const built = (entry: string) => [process.execPath, [`build/server-bin/${entry}`]] as const;

interface Node {
  name: 'A' | 'B';
  origin: string;
  service: Service;
}

let temp = '';
/** nginx's own folder, outside `temp`: run as root, its workers are `nobody` and must reach their cache. */
let nginxDir = '';
let services: Service[] = [];
let nodes: Node[] = [];
let front = '';
let upstreamDir = '';
const admin = adminOf(() => upstreamDir);

/** Every service is stopped after the tests, even when a later one failed to start. */
const track = <T extends Service>(starting: Promise<T>) => starting.then((s) => (services.push(s), s));

test.beforeAll(async () => {
  test.setTimeout(120_000);
  temp = fs.mkdtempSync(path.join(os.tmpdir(), 'many-nodes-'));
  nginxDir = fs.mkdtempSync(path.join(os.tmpdir(), 'many-nodes-nginx-'));
  upstreamDir = path.join(temp, 'upstream');
  // Ports just above the browser tests' own (parallel runs on one machine each have their own range).
  const taken: number[] = [];
  const port = async () => {
    const p = await freePort(Number(process.env.E2E_PORT ?? 3210) + 1, taken);
    taken.push(p);
    return p;
  };
  const [redisPort, upstreamPort, portA, portB, frontPort] = [await port(), await port(), await port(), await port(), await port()];

  const [redis] = await Promise.all([
    track(startRedis(redisPort)),
    track(
      startService(...built('upstream.js'), {
        name: 'upstream',
        ready: /Upstream listening on/,
        env: {
          ...process.env,
          UPSTREAM_PORT: String(upstreamPort),
          DATA_DIR: upstreamDir,
          UPSTREAM_TEST_HOOKS: '1',
          UPSTREAM_MARKET_HOURS: 'always',
        },
      }),
    ),
  ]);

  const web = (name: Node['name'], port: number) =>
    track(
      startService(...built('index.js'), {
        name: `web node ${name}`,
        ready: /Web app ready at/,
        timeoutMs: 60_000,
        env: {
          ...process.env,
          NODE_ENV: 'production',
          HOST: '127.0.0.1',
          PORT: String(port),
          WEB_CONCURRENCY: '1',
          UPSTREAM_URL: `http://127.0.0.1:${upstreamPort}`,
          REDIS_URL: redis.url,
          SESSION_SECRET: 'the secret every node of this test shares, 32+ chars',
          DATA_DIR: path.join(temp, `web-${name}`),
        },
      }),
    ).then((service) => ({ name, origin: `http://localhost:${port}`, service }));
  nodes = await Promise.all([web('A', portA), web('B', portB)]);

  // deploy/nginx.conf itself, with this test's node addresses, port and cache folders.
  const site = nginxSite([portA, portB], frontPort, nginxDir);
  expect(site).toContain(`server 127.0.0.1:${portB} max_fails`);
  await track(startNginx(nginxDir, site, frontPort));
  front = `http://localhost:${frontPort}`;
});

test.afterEach(() => {
  // What nginx and each node said, when something went wrong.
  const { status, expectedStatus } = test.info();
  if (status !== expectedStatus) for (const s of services) console.log(`── ${s.name} ──\n${s.output().slice(-4000)}`);
});

test.afterAll(async () => {
  await Promise.all(services.reverse().map((s) => s.stop()));
  services = [];
  for (const dir of [temp, nginxDir]) if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

/** Open streams on a node, as its /healthz counts them (null once it is gone). */
async function streamsOn(node: Node): Promise<number | null> {
  const res = await fetch(`${node.origin}/healthz`).catch(() => null);
  return res ? ((await res.json()) as { subscribers: number }).subscribers : null;
}

/** The orders this account has at the upstream, read from its database. */
function ordersOf(email: string): number {
  const db = new Database(path.join(upstreamDir, 'upstream.sqlite'), { readonly: true });
  try {
    return (
      db.prepare('SELECT COUNT(*) AS n FROM orders JOIN users ON users.id = orders.user_id WHERE users.email = ?').get(email) as {
        n: number;
      }
    ).n;
  } finally {
    db.close();
  }
}

test("nginx answers a second visitor's market list from its cache; a signed-in page never", async ({ page }) => {
  /** Two visitors in a row, in English: the second is answered by nginx, with the first one's bytes. */
  const visit = () => fetch(`${front}/`, { headers: { cookie: 'unrelated=1', 'accept-encoding': 'gzip' } });
  const [first, second] = [await visit(), await visit()];
  expect(first.headers.get('cache-control')).toBe('public, max-age=0, s-maxage=1');
  expect(first.headers.get('set-cookie')).toBeNull();
  expect(second.headers.get('x-cache-status')).toBe('HIT');
  const [a, b] = [await first.text(), await second.text()];
  expect(b).toBe(a);
  expect(a).toContain('data-testid="price"');

  // Signed in (through nginx), the same address is the trader's own: never read from the cache, never kept.
  const email = await registerRealAccount('nodes-cache', admin);
  await page.goto(`${front}/language?lng=en&redirectTo=/login`);
  await page.getByLabel('E-mail').fill(email);
  await page.getByLabel('Password').fill(REAL_PASSWORD);
  await page.getByRole('button', { name: 'Log in' }).click();
  await expect(page.getByText('Welcome back.')).toBeVisible();
  for (let i = 0; i < 2; i++) {
    const mine = await page.request.get(`${front}/`);
    expect(mine.headers()['x-cache-status']).toBe('BYPASS');
    expect(mine.headers()['cache-control']).toBe('private, no-store');
  }
  // A visitor's page that is not shared is not kept either.
  const login = await fetch(`${front}/login`);
  expect(login.headers.get('cache-control')).toBe('private, no-cache');
  expect((await fetch(`${front}/login`)).headers.get('x-cache-status')).toBe('MISS');
});

test('signed in on node A, signed in on node B; through nginx the stream outlives the node that carries it and an order sent meanwhile is placed once', async ({
  page,
}) => {
  test.setTimeout(60_000);
  const [nodeA, nodeB] = nodes as [Node, Node];
  const email = await registerRealAccount('nodes', admin);
  await admin('POST', '/admin/balance', { user: email, amount: '10000', memo: 'many-nodes test' });
  await admin('POST', '/admin/market', { code: 'EURUSD', status: 'closed' });
  await admin('POST', '/admin/price', { code: 'EURUSD', price: '1.10000' });

  // Sign in on node A (cookies belong to the host, not the port: the same cookie goes to B and to nginx).
  await page.goto(`${nodeA.origin}/language?lng=en&redirectTo=/login`);
  await page.getByLabel('E-mail').fill(email);
  await page.getByLabel('Password').fill(REAL_PASSWORD);
  await page.getByRole('button', { name: 'Log in' }).click();
  await expect(page.getByText('Welcome back.')).toBeVisible();

  // Node B knows the session: its own data folder holds none, Redis does.
  await page.goto(`${nodeB.origin}/mine`);
  await expect(page).toHaveURL(`${nodeB.origin}/mine`);
  await expect(page.getByRole('region', { name: 'Your account' }).getByText(email)).toBeVisible();

  // Through nginx: the trade screen follows the live feed.
  await page.goto(`${front}/trade?code=EURUSD`);
  await expect(page.locator('html')).toHaveAttribute('data-hydrated', 'true');
  const price = page.getByTestId('trade-price');
  await admin('POST', '/admin/price', { code: 'EURUSD', price: '1.10150' });
  await expect(price).toHaveText('1.10150', { timeout: 10_000 });

  // The node that carries this page's stream dies; the other stays.
  let counts: (number | null)[] = [];
  await expect(async () => {
    counts = await Promise.all(nodes.map(streamsOn));
    expect(counts.reduce((a, b) => (a ?? 0) + (b ?? 0), 0)).toBe(1);
  }).toPass({ timeout: 5000 });
  const [victim, survivor] = counts[0] === 1 ? [nodeA, nodeB] : [nodeB, nodeA];

  await admin('POST', '/admin/market', { code: 'EURUSD', status: 'open' });
  const ticket = page.getByRole('form', { name: 'Place an order' });
  await ticket.getByRole('radio', { name: 'Market price' }).check();
  await ticket.getByRole('spinbutton', { name: 'Lots', exact: true }).fill('0.01');
  await victim.service.stop('SIGKILL');
  // The order goes while nginx is still finding out that the node is gone.
  await ticket.getByRole('button', { name: 'Buy up' }).click();
  await page.getByRole('dialog', { name: 'Confirm your order' }).getByRole('button', { name: 'Place order' }).click();
  await expect(page.getByRole('dialog', { name: 'Your order has been confirmed' })).toBeVisible({ timeout: 15_000 });

  // The stream is back, on the survivor, and prices move again.
  await admin('POST', '/admin/market', { code: 'EURUSD', status: 'closed' });
  await admin('POST', '/admin/price', { code: 'EURUSD', price: '1.10300' });
  await expect(price).toHaveText('1.10300', { timeout: 15_000 });
  expect(await streamsOn(survivor)).toBe(1);

  // Placed exactly once: at the upstream, and in the holding list.
  expect(ordersOf(email)).toBe(1);
  await page.goto(`${front}/order?type=1`);
  await expect(page.getByRole('list', { name: 'Holding' }).getByRole('listitem')).toHaveCount(1);
});

test('through nginx, an event id from another node gets a clean resync rather than a replay', async () => {
  const aborted = new AbortController();
  const res = await fetch(`${front}/stream`, { headers: { 'Last-Event-ID': 'a1b2c3d4.42' }, signal: aborted.signal });
  expect(res.headers.get('content-type')).toContain('text/event-stream');
  const reader = res.body!.getReader();
  let text = '';
  // Up to the first quote: what comes before it is the answer to the id.
  while (!text.includes('event: quote')) {
    const { done, value } = await reader.read();
    if (done) break;
    text += new TextDecoder().decode(value);
  }
  aborted.abort();
  expect(text).toMatch(/event: resync\ndata: {"reason":"unknown-id"}/);
});
