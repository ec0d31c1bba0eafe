/**
 * kill -9 of the upstream during a burst of grouped orders (issue 41): every order the upstream acknowledged is in
 * the database under its key, the money adds up, and after a restart every key sent (answered or not) resolves to
 * exactly one order, the acknowledged ones to the order their answer named.
 */
import Database from 'better-sqlite3';
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, expect, test } from 'vitest';
import { startTestUpstream } from '../testing';

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'upstream-burst-'));
afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }));

async function startUpstream(): Promise<{ child: ChildProcess; base: string }> {
  // The real upstream in a process of its own, without the candle backfill (seconds of a busy machine's time).
  const script = `const { start } = await import('./upstream/index.ts');
    const up = await start({ dataDir: process.env.DATA_DIR, port: 0, backfill: false, simulate: false });
    console.log('listening on ' + up.url);`;
  const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
    env: { ...process.env, DATA_DIR: dataDir },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const base = await new Promise<string>((resolve, reject) => {
    child.stdout!.on('data', (b: Buffer) => {
      const url = /listening on (http:\/\/[\d.:]+)/.exec(b.toString())?.[1];
      if (url) resolve(url);
    });
    child.once('exit', (code) => reject(new Error(`upstream exited ${code}`)));
  });
  return { child, base };
}

async function submit(base: string, token: string, key: string): Promise<{ code: number; data: { Id: number } | null }> {
  const res = await fetch(`${base}/v1/api/forex/submit`, {
    method: 'POST',
    headers: { authorization: token, lang: 'en', 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ type: '1', cont: '0.01', forex_id: '1', status: '1', multiple: '100', idempotency_key: key }),
  });
  return (await res.json()) as { code: number; data: { Id: number } | null };
}

test('a kill -9 mid-burst loses no acknowledged order, and every key sent resolves to one order after the restart', async () => {
  const { child, base } = await startUpstream();
  const adminKey = fs.readFileSync(path.join(dataDir, 'admin.key'), 'utf8').trim();
  await fetch(`${base}/admin/market`, {
    method: 'POST',
    headers: { 'x-admin-key': adminKey, 'content-type': 'application/json' },
    body: JSON.stringify({ code: 'all', status: 'open' }),
  });
  const tokens: string[] = [];
  for (let i = 0; i < 8; i++) {
    const res = await fetch(`${base}/api/user/createAccountDemoForU?demo_id=${crypto.randomUUID()}`, {
      headers: { 'x-forwarded-for': `10.42.0.${i + 1}` },
    });
    tokens.push(((await res.json()) as { data: { token: string } }).data.token);
  }

  // 32 clients at once, so that orders share their commits; each key is sent once before the kill.
  const acknowledged = new Map<string, number>();
  const sent: { key: string; token: string }[] = [];
  let stop = false;
  const clients = Array.from({ length: 32 }, async (_, c) => {
    const token = tokens[c % tokens.length]!;
    for (let n = 0; !stop; n++) {
      const key = `burst-${c}-${n}`;
      sent.push({ key, token });
      try {
        const body = await submit(base, token, key);
        if (body.code === 1) acknowledged.set(key, body.data!.Id);
      } catch {
        return; // the process is gone: this order's answer is lost
      }
    }
  });
  for (const deadline = Date.now() + 20_000; acknowledged.size < 200 && Date.now() < deadline;) await new Promise((r) => setTimeout(r, 10));
  const exited = new Promise((r) => child.once('exit', r));
  child.kill('SIGKILL');
  stop = true;
  await Promise.all([exited, ...clients]);
  expect(acknowledged.size).toBeGreaterThanOrEqual(200);

  const db = new Database(path.join(dataDir, 'upstream.sqlite'));
  try {
    expect(db.pragma('integrity_check', { simple: true })).toBe('ok');
    const byKey = db.prepare('SELECT id FROM orders WHERE idempotency_key = ?');
    const lost = [...acknowledged].filter(([key, id]) => (byKey.get(key) as { id: number } | undefined)?.id !== id);
    expect(lost).toEqual([]);
    for (const a of db.prepare('SELECT user_id, balance, lock_balance FROM accounts').all() as {
      user_id: number;
      balance: number;
      lock_balance: number;
    }[]) {
      const sum = (db.prepare('SELECT COALESCE(SUM(value), 0) AS s FROM account_log WHERE user_id = ?').get(a.user_id) as { s: number }).s;
      const held = (
        db.prepare('SELECT COALESCE(SUM(margin), 0) AS s FROM orders WHERE user_id = ? AND status IN (0, 1)').get(a.user_id) as {
          s: number;
        }
      ).s;
      expect([a.balance, a.lock_balance]).toEqual([sum, held]);
    }
  } finally {
    db.close();
  }

  // The traders retry what they sent: an acknowledged key answers its order, a lost answer resolves to one order.
  // The restart is in this process (the same database file; a second spawn would only add seconds).
  const again = await startTestUpstream({ dataDir });
  try {
    again.forceMarket('EURUSD', 'open');
    const retried = await Promise.all(sent.map(({ key, token }) => submit(again.url, token, key).then((b) => ({ key, b }))));
    expect(retried.filter(({ b }) => b.code !== 1)).toEqual([]);
    expect(retried.filter(({ key, b }) => acknowledged.has(key) && acknowledged.get(key) !== b.data!.Id)).toEqual([]);
  } finally {
    await again.close();
  }
  const after = new Database(path.join(dataDir, 'upstream.sqlite'), { readonly: true });
  try {
    const keys = after.prepare('SELECT idempotency_key AS key, COUNT(*) AS n FROM orders GROUP BY idempotency_key').all() as {
      key: string;
      n: number;
    }[];
    expect(keys.filter((k) => k.n !== 1)).toEqual([]);
    expect(keys.length).toBe(new Set(sent.map((s) => s.key)).size);
  } finally {
    after.close();
  }
}, 60_000);
