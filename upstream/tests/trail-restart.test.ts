/**
 * A trailing stop survives a kill -9 of the upstream: the stop it had moved to and its distance are there after
 * the restart, the trail goes on from there and never back, and crossing it closes the position as a stop loss.
 * The real upstream runs in its own process (as in crash.test.ts), with the test hooks that set prices.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, expect, test } from 'vitest';

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'upstream-trail-'));
let child: ChildProcess | null = null;
afterAll(() => {
  child?.kill('SIGKILL');
  fs.rmSync(dataDir, { recursive: true, force: true });
});

async function startUpstream(): Promise<string> {
  const proc = spawn(process.execPath, ['--import', 'tsx', 'upstream/main.ts'], {
    env: { ...process.env, DATA_DIR: dataDir, UPSTREAM_PORT: '0', UPSTREAM_TEST_HOOKS: '1' },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  child = proc;
  return new Promise<string>((resolve, reject) => {
    proc.stdout!.on('data', (b: Buffer) => {
      const url = /listening on (http:\/\/[\d.:]+)/.exec(b.toString())?.[1];
      if (url) resolve(url);
    });
    proc.once('exit', (code) => reject(new Error(`upstream exited ${code}`)));
  });
}

interface Row {
  Id: number;
  Status: number;
  CloseReason: number | null;
  TargetLossPrice: number;
  TrailDistance: number;
  UpdatePrice: number;
}

test('the moved stop and its distance survive a kill -9; the trail goes on and fires after the restart', async () => {
  let base = await startUpstream();
  const adminKey = () => fs.readFileSync(path.join(dataDir, 'admin.key'), 'utf8').trim();
  const admin = async (urlPath: string, body: Record<string, unknown>) => {
    const res = await fetch(`${base}${urlPath}`, {
      method: 'POST',
      headers: { 'x-admin-key': adminKey(), 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    expect(res.status, `${urlPath} ${await res.clone().text()}`).toBe(200);
  };
  const demo = (await (await fetch(`${base}/api/user/createAccountDemoForU?demo_id=${crypto.randomUUID()}`)).json()) as {
    data: { token: string };
  };
  const token = demo.data.token;
  const call = async (urlPath: string, params: Record<string, string>) => {
    const init = { headers: { authorization: token, lang: 'en' } as Record<string, string> };
    const res = urlPath.endsWith('my_deal')
      ? await fetch(`${base}${urlPath}?${new URLSearchParams(params)}`, init)
      : await fetch(`${base}${urlPath}`, {
          method: 'POST',
          headers: { ...init.headers, 'content-type': 'application/x-www-form-urlencoded' },
          body: new URLSearchParams(params),
        });
    return (await res.json()) as { code: number; msg: string; data: unknown };
  };
  const holding = async () => ((await call('/v1/api/forex/my_deal', { status: '1' })).data as Row[])[0];

  // Prices move only when the test says so: the market is open for the order, then frozen (no simulated ticks).
  await admin('/admin/market', { code: 'EURUSD', status: 'open' });
  await admin('/admin/price', { code: 'EURUSD', price: '1.10000' });
  const placed = await call('/v1/api/forex/submit', { type: '1', cont: '0.1', forex_id: '1', status: '1', multiple: '100' });
  expect(placed.code, placed.msg).toBe(1);
  const id = (placed.data as Row).Id;
  await admin('/admin/market', { code: 'EURUSD', status: 'closed' });
  const set = await call('/v1/api/forex/set_stop_price', { id: String(id), trail_distance: '0.0020' });
  expect(set.code, set.msg).toBe(1);
  const fill = (set.data as Row).UpdatePrice;
  expect(set.data).toMatchObject({ TrailDistance: 0.002, TargetLossPrice: Number((fill - 0.002).toFixed(5)) });

  await admin('/admin/price', { code: 'EURUSD', price: '1.20000' });
  expect(await holding()).toMatchObject({ Id: id, TargetLossPrice: 1.198, TrailDistance: 0.002 });

  const exited = new Promise((r) => child!.once('exit', r));
  child!.kill('SIGKILL');
  await exited;
  base = await startUpstream();

  expect(await holding()).toMatchObject({ Id: id, Status: 1, TargetLossPrice: 1.198, TrailDistance: 0.002 });
  await admin('/admin/price', { code: 'EURUSD', price: '1.19900' });
  expect(await holding()).toMatchObject({ Id: id, TargetLossPrice: 1.198 });
  await admin('/admin/price', { code: 'EURUSD', price: '1.20100' });
  expect(await holding()).toMatchObject({ Id: id, TargetLossPrice: 1.199 });
  await admin('/admin/price', { code: 'EURUSD', price: '1.19850' });
  const history = (await call('/v1/api/forex/my_deal', { status: '3' })).data as Row[];
  expect(history.find((o) => o.Id === id)).toMatchObject({ Status: 3, CloseReason: 4, UpdatePrice: 1.1985, TargetLossPrice: 1.199 });
  expect(await holding()).toBeUndefined();
}, 60_000);
