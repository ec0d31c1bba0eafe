/**
 * kill -9 of the upstream during order traffic: the database passes its integrity check, every order the
 * upstream acknowledged is there, and the money invariants hold. The real upstream runs in its own process.
 */
import Database from 'better-sqlite3';
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, expect, test } from 'vitest';

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'upstream-crash-'));
afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }));

test('acknowledged orders survive a kill -9, and the ledger still adds up', async () => {
  const child = spawn(process.execPath, ['--import', 'tsx', 'upstream/main.ts'], {
    env: { ...process.env, DATA_DIR: dataDir, UPSTREAM_PORT: '0' },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const base = await new Promise<string>((resolve, reject) => {
    child.stdout!.on('data', (b: Buffer) => {
      const url = /listening on (http:\/\/[\d.:]+)/.exec(b.toString())?.[1];
      if (url) resolve(url);
    });
    child.once('exit', (code) => reject(new Error(`upstream exited ${code}`)));
  });
  const adminKey = fs.readFileSync(path.join(dataDir, 'admin.key'), 'utf8').trim();
  await fetch(`${base}/admin/market`, {
    method: 'POST',
    headers: { 'x-admin-key': adminKey, 'content-type': 'application/json' },
    body: JSON.stringify({ code: 'all', status: 'open' }),
  });
  const tokens = await Promise.all(
    Array.from(
      { length: 4 },
      async () =>
        (
          (await (await fetch(`${base}/api/user/createAccountDemoForU?demo_id=${crypto.randomUUID()}`)).json()) as {
            data: { token: string };
          }
        ).data.token,
    ),
  );

  const acknowledged: number[] = [];
  let stop = false;
  const traffic = tokens.map(async (token, i) => {
    for (let n = 0; !stop; n++) {
      try {
        const res = await fetch(`${base}/v1/api/forex/submit`, {
          method: 'POST',
          headers: { authorization: token, lang: 'en', 'content-type': 'application/x-www-form-urlencoded' },
          body: new URLSearchParams({
            type: String(1 + (n % 2)),
            cont: '0.01',
            forex_id: String(1 + (i % 3)),
            status: '1',
            multiple: '100',
            idempotency_key: `k${i}-${n}`,
          }),
        });
        const body = (await res.json()) as { code: number; data: { Id: number } };
        if (body.code === 1) acknowledged.push(body.data.Id);
      } catch {
        return; // the process is gone
      }
    }
  });
  // Kill it mid-traffic once orders are flowing (a busy machine gets there later, not with fewer orders).
  for (const deadline = Date.now() + 20_000; acknowledged.length <= 20 && Date.now() < deadline;)
    await new Promise((r) => setTimeout(r, 50));
  const exited = new Promise((r) => child.once('exit', r));
  child.kill('SIGKILL');
  stop = true;
  await Promise.all([exited, ...traffic]);
  expect(acknowledged.length).toBeGreaterThan(20);

  const db = new Database(path.join(dataDir, 'upstream.sqlite'));
  try {
    expect(db.pragma('integrity_check', { simple: true })).toBe('ok');
    const stored = new Set((db.prepare('SELECT id FROM orders').all() as { id: number }[]).map((r) => r.id));
    expect(acknowledged.filter((id) => !stored.has(id))).toEqual([]);
    const accounts = db.prepare('SELECT user_id, balance, lock_balance FROM accounts').all() as {
      user_id: number;
      balance: number;
      lock_balance: number;
    }[];
    expect(accounts.length).toBe(4);
    for (const a of accounts) {
      const ledger = (db.prepare('SELECT COALESCE(SUM(value), 0) AS s FROM account_log WHERE user_id = ?').get(a.user_id) as { s: number })
        .s;
      const held = (
        db.prepare('SELECT COALESCE(SUM(margin), 0) AS s FROM orders WHERE user_id = ? AND status IN (0, 1)').get(a.user_id) as {
          s: number;
        }
      ).s;
      expect(a.balance).toBe(ledger);
      expect(a.lock_balance).toBe(held);
      expect(a.balance).toBeGreaterThanOrEqual(0);
    }
  } finally {
    db.close();
  }
}, 60_000);
