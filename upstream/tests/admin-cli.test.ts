/** `npm run admin` against a running upstream: the verbs a back-office person uses. */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { account, market, trade } from '../../contract/index';
import { startTestUpstream, type TestUpstream } from '../testing';

const run = promisify(execFile);
let up: TestUpstream;
beforeAll(async () => {
  up = await startTestUpstream({ withdrawMethodHoldMs: 0 });
});
afterAll(() => up.close());

async function admin(...args: string[]) {
  const { stdout } = await run(process.execPath, ['--import', 'tsx', 'upstream/admin.ts', ...args], {
    env: { ...process.env, DATA_DIR: up.dataDir },
  });
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

test('deposits and withdrawals: the back office lists, approves and rejects them; channels and currencies change', async () => {
  const { registerByEmail, freshEmail, grantFor } = await import('./contract-helpers');
  const sharp = (await import('sharp')).default;
  const { funds, identity } = await import('../../contract/index');
  const email = freshEmail('cli-funds');
  const { token } = await registerByEmail(up, email);
  const form = new FormData();
  const jpeg = await sharp({ create: { width: 20, height: 20, channels: 3, background: '#333' } })
    .jpeg()
    .toBuffer();
  form.append('file', new Blob([new Uint8Array(jpeg)], { type: 'image/jpeg' }), 'proof.jpg');
  const uploaded = (await (
    await fetch(new URL(identity.imageUpload.path, up.url), { method: 'POST', headers: { authorization: token }, body: form })
  ).json()) as {
    data: { url: string };
  };
  const deposit = (await up.call(funds.wireSubmit, { number: '1500', proofImg: uploaded.data.url, wire_id: 4 }, { token })).data as {
    id: number;
  };

  expect(await admin('deposits', 'pending')).toMatch(new RegExp(`#${deposit.id} .*${email}.*1500\\.00 USD.*USD wire.*pending review`));
  expect(await admin('deposit', 'approve', String(deposit.id))).toContain(`deposit #${deposit.id}: finished`);
  await expect(admin('deposit', 'approve', String(deposit.id))).rejects.toMatchObject({ stderr: expect.stringContaining('refused (409)') });
  expect(await admin('deposits', email)).toContain('finished');
  const name = uploaded.data.url.split('/').pop()!;
  const file = `${up.dataDir}/proof-copy.jpg`;
  expect(await admin('image', name, file)).toContain('saved');

  // Trade to the volume rule (16 lots of XAG/USD hold 800 USD), then withdraw to a bound address.
  up.forceMarket('XAGUSD', 'open');
  const xag = up.upstream.market.getByCode('XAGUSD')!;
  await up.call(trade.submit, { type: 1, cont: '22', forex_id: xag.id, status: 1, multiple: 20 }, { token });
  const bindGrant = await grantFor(up, token, 'bind_method');
  const method = (
    await up.call(
      funds.bindDrawMethod,
      { type: 1, draw_id: 1, dc_address: 'TJRabPrwbZy45sbavfcjinPJC18kjpRTv8', grant: bindGrant },
      { token },
    )
  ).data as { id: number };
  const grant = await grantFor(up, token, 'withdraw');
  const w = await up.call(funds.draw, { draw_currency_id: 1, number: '100', draw_method_id: method.id, grant }, { token });
  expect(w.code).toBe(1);
  const id = (w.data as { id: number }).id;
  expect(await admin('withdrawals', 'pending')).toMatch(
    new RegExp(`#${id} .*100\\.00 USD − fee 1\\.00 = 99\\.00 +USDT TRC20 → TJRab.*pending`),
  );
  expect(await admin('withdrawal', 'reject', String(id), 'address', 'flagged')).toContain(`withdrawal #${id}: rejected`);
  expect(await admin('withdrawals', email)).toContain('rejected  (address flagged)');

  expect(await admin('channels')).toMatch(/#1 coin USDT TRC20 TQn9Y2khEsLJW1ChVWFMSMeRDow5KcbLSE[\s\S]*#4 type 2 USD WIRE fee 1 %/);
  expect(await admin('channel', 'id=2', 'enabled=false')).toContain('"enabled":0');
  const info = (await up.call(funds.depositInfo, {}, { token })).data as { coin: { protocol_code: string }[] };
  expect(info.coin.map((c) => c.protocol_code)).toEqual(['TRC20', 'BTC']);
  expect(
    await admin('channel', 'kind=coin', 'currency=usdt', 'protocol=bep20', 'address=0x8ba1f109551bD432803012645Ac136ddd64DBA72'),
  ).toContain('"protocol_code":"BEP20"');
  expect(await admin('currency', 'id=1', 'rate=2.5')).toContain('"draw_rate":2500000');
  const coins = (await up.call(funds.drawSymbolList, { type: 1 }, { token })).data as { draw_rate: number }[];
  expect(coins[0]!.draw_rate).toBe(2.5);
}, 90_000); // about twenty CLI runs, each a new node process: slow on a busy machine

test('factors-reset: needs the operator and a reason; removes the authenticator, ends every session, holds withdrawals, tells the owner', async () => {
  const { registerByEmail, freshEmail, outbox } = await import('./contract-helpers');
  const { security } = await import('../../contract/index');
  const { totpCode } = await import('../accounts/totp');
  const email = freshEmail('cli-lost-phone');
  const { token } = await registerByEmail(up, email);
  const { secret } = security.totpSetup.response.parse((await up.call(security.totpSetup, {}, { token })).data);
  expect((await up.call(security.totpConfirm, { code: totpCode(secret, up.upstream.options.clock()) }, { token })).code).toBe(1);

  await expect(admin('factors-reset', email)).rejects.toMatchObject({ stderr: expect.stringContaining('usage: npm run admin') });
  await expect(admin('factors-reset', email, 'Olga')).rejects.toMatchObject({ stderr: expect.stringContaining('usage: npm run admin') });
  expect(await admin('factors-reset', email, 'Olga', 'passport', 'seen', 'on', 'video', 'call')).toMatch(
    new RegExp(`${email}: factors removed by Olga, every session ended, withdrawals held until \\d{4}-\\d\\d-\\d\\d`),
  );
  expect((await up.call(account.info, {}, { token })).code).toBe(999);
  const row = up.upstream.db.prepare('SELECT operator, reason FROM admin_actions ORDER BY id DESC LIMIT 1').get();
  expect(row).toEqual({ operator: 'Olga', reason: 'passport seen on video call' });
  const login = await up.call(account.loginForU, { account: email, password: 'secret123', login_type: 'email' });
  const session = login.data as { token: string };
  const status = security.securityStatus.response.parse((await up.call(security.securityStatus, {}, { token: session.token })).data);
  expect(status.totp).toBe(false);
  expect(status.withdrawals_held_until! - up.upstream.options.clock()).toBeGreaterThan(71 * 3600 * 1000);
  const [notice] = await outbox(up, email);
  expect(notice!.subject).toBe('Your second factors were removed');
  await expect(admin('factors-reset', 'nobody@example.com', 'Olga', 'no such user')).rejects.toMatchObject({
    stderr: expect.stringContaining('refused (404)'),
  });
}, 60_000);
