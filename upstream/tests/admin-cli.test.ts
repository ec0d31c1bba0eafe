/** `npm run admin` against a running upstream: the verbs a back-office person uses. */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { account, market, trade } from '../../contract/index';
import { startTestUpstream, type TestUpstream } from '../testing';

const run = promisify(execFile);
let up: TestUpstream;
beforeAll(async () => {
  up = await startTestUpstream();
});
afterAll(() => up.close());

async function admin(...args: string[]) {
  const { stdout } = await run(process.execPath, ['--import', 'tsx', 'upstream/admin.ts', ...args], { env: { ...process.env, DATA_DIR: up.dataDir } });
  return stdout;
}

test('market: forces a market closed and open, and the trade list shows it', async () => {
  expect(await admin('market', 'BTCUSD', 'closed')).toContain('BTCUSD: closed');
  const closed = market.tradeList.response.parse((await up.call(market.tradeList, { searchCurrency: 'BTC' })).data);
  expect(closed.map((i) => [i.Code, i.MarketStatus])).toEqual([['BTCUSD', 0]]);
  expect(await admin('market', 'BTCUSD', 'open')).toContain('BTCUSD: open');
  const open = market.tradeList.response.parse((await up.call(market.tradeList, { searchCurrency: 'BTC' })).data);
  expect(open[0]!.MarketStatus).toBe(1);
});

test('outbox: shows the verification code that was sent', async () => {
  await up.call(account.sendEmail, { to: 'cli@example.com', type: 1 });
  expect(await admin('outbox', 'cli@example.com')).toMatch(/email → cli@example\.com[\s\S]*verification code is \d{6}/);
});

test('balance: adjusts with a memo that the account log shows', async () => {
  const { token } = await up.demo();
  const info = (await up.call(account.info, {}, { token })).data as { uid: string };
  expect(await admin('balance', info.uid, '-250.5', 'goodwill', 'correction')).toContain('new balance: 99749.5 USD');
  const log = trade.forexChange.response.parse((await up.call(trade.forexChange, { page: 1 }, { token })).data);
  expect(log[0]).toMatchObject({ Value: -250.5, Type: 10, Memo: 'goodwill correction', Balance: 99749.5 });
});

test('a bad verb prints the usage and fails', async () => {
  await expect(admin('explode')).rejects.toMatchObject({ stderr: expect.stringContaining('usage: npm run admin') });
});

test('leverage: an instrument without leverage values refuses orders with LeverageNotConfigured', async () => {
  const { token } = await up.demo();
  expect(await admin('leverage', 'BTCUSD')).toContain('BTCUSD: no leverage (orders disabled)');
  const refused = await up.call(trade.submit, { type: 1, cont: '0.01', forex_id: 11, status: 1, multiple: 5 }, { token });
  expect(refused.code).toBe(3003);
  expect(await admin('leverage', 'BTCUSD', '2,5,10,20')).toContain('BTCUSD: 2, 5, 10, 20');
  const list = market.tradeList.response.parse((await up.call(market.tradeList, { searchCurrency: 'BTC' })).data);
  expect(list[0]!.HasForexMultiple.map((l) => l.Value)).toEqual([2, 5, 10, 20]);
});
