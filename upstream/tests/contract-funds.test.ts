/**
 * Contract tests of spec §7 "Deposit", "Withdraw" and the image upload against a real upstream: every call's
 * success, each refusal, code 999 without a token, the ledger entries a movement writes, and the uploads'
 * content checks (a disguised script, an oversized file, a truncated image, GPS metadata removed, owner only).
 */
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { funds, identity, market, trade } from '../../contract/index';
import { IMAGE_READ_PREFIX } from '../../contract/calls/identity';
import { DepositStatus, LedgerType, WithdrawStatus } from '../../contract/enums';
import { startTestUpstream, type Envelope, type TestUpstream } from '../testing';
import { expectError, expectOk, expectTokenRequired, extrasOf, freshEmail, registerByEmail, withGrants } from './contract-helpers';

const TRC20_ADDRESS = 'TQn9Y2khEsLJW1ChVWFMSMeRDow5KcbLSE';
const MY_TRC20 = 'TJRabPrwbZy45sbavfcjinPJC18kjpRTv8';
const MY_ERC20 = '0x8ba1f109551bD432803012645Ac136ddd64DBA72';
const BANK = {
  bank_name: 'Pacific Bank',
  bank_address: '2 Harbour Road',
  bank_swift: 'PACBHKHH',
  payee_name: 'Alice Chan',
  payee_account: '123-456-789',
};

let up: TestUpstream;
let alice: { token: string; id: number; email: string };
let bob: { token: string; id: number };

/** Each protected call with a step-up grant (contract-security.test.ts tests the grants themselves). */
let binding: ReturnType<typeof withGrants>;
let deleting: ReturnType<typeof withGrants>;
let withdrawing: ReturnType<typeof withGrants>;

beforeAll(async () => {
  // A new method's hold is contract-security.test.ts's; here a method is usable at once.
  up = await startTestUpstream({ withdrawMethodHoldMs: 0 });
  binding = withGrants(up, 'bind_method');
  deleting = withGrants(up, 'delete_method');
  withdrawing = withGrants(up, 'withdraw');
  const email = freshEmail('alice');
  const a = await registerByEmail(up, email);
  alice = { token: a.token, id: a.user.id, email };
  const b = await registerByEmail(up, freshEmail('bob'));
  bob = { token: b.token, id: b.user.id };
});
afterAll(() => up.close());

/** A phone photo: a JPEG with EXIF, including a GPS position. */
async function photoWithGps(): Promise<Buffer> {
  return sharp({ create: { width: 640, height: 480, channels: 3, background: { r: 30, g: 120, b: 200 } } })
    .withExif({
      IFD0: { Make: 'PhonePhone', Model: 'X1' },
      IFD3: { GPSLatitudeRef: 'N', GPSLatitude: '22/1 16/1 0/1', GPSLongitudeRef: 'E', GPSLongitude: '114/1 10/1 0/1' },
    })
    .jpeg()
    .toBuffer();
}

async function upload(
  bytes: Buffer | null,
  options: { token?: string; name?: string; type?: string; field?: string } = {},
): Promise<Envelope> {
  const form = new FormData();
  if (bytes)
    form.append(
      options.field ?? 'file',
      new Blob([new Uint8Array(bytes)], { type: options.type ?? 'image/jpeg' }),
      options.name ?? 'photo.jpg',
    );
  const headers: Record<string, string> = { lang: 'en' };
  if (options.token !== undefined) headers.authorization = options.token;
  const res = await fetch(new URL(identity.imageUpload.path, up.url), { method: 'POST', headers, body: form });
  expect(res.status).toBe(200);
  return (await res.json()) as Envelope;
}

async function proofOf(user: { token: string }): Promise<string> {
  return expectOk(identity.imageUpload, await upload(await photoWithGps(), { token: user.token })).url;
}

const detail = async (token: string) => expectOk(trade.forexDetail, await up.call(trade.forexDetail, {}, { token }));
const balance = async (token: string) => (await detail(token)).balance;

async function ledger(token: string) {
  return expectOk(trade.forexChange, await up.call(trade.forexChange, { page: 1 }, { token }));
}

describe('image_upload', () => {
  test('needs a session', async () => {
    expectError(await upload(await photoWithGps()), 'TokenInvalid');
  });

  test('a phone photo is stored re-encoded without its metadata, readable by its owner only', async () => {
    const original = await photoWithGps();
    expect((await sharp(original).metadata()).exif).toBeDefined();
    const { url } = expectOk(identity.imageUpload, await upload(original, { token: alice.token }));
    expect(url.startsWith(IMAGE_READ_PREFIX)).toBe(true);

    const read = (token?: string) => fetch(new URL(url, up.url), { headers: token ? { authorization: token } : {} });
    const mine = await read(alice.token);
    expect(mine.status).toBe(200);
    expect(mine.headers.get('content-type')).toBe('image/jpeg');
    const stored = Buffer.from(await mine.arrayBuffer());
    const meta = await sharp(stored).metadata();
    expect(meta.exif).toBeUndefined();
    expect(stored.includes(Buffer.from('PhonePhone'))).toBe(false);
    expect([meta.width, meta.height]).toEqual([640, 480]);

    expect((await read(bob.token)).status).toBe(404);
    expect((await read()).status).toBe(404);
    const name = url.slice(IMAGE_READ_PREFIX.length);
    expect((await up.admin('GET', `/admin/image/${name}`)).status).toBe(200);
  });

  test('PNG and WebP are accepted; a big photo is scaled down', async () => {
    const png = await sharp({ create: { width: 50, height: 40, channels: 4, background: '#ff000080' } })
      .png()
      .toBuffer();
    expectOk(identity.imageUpload, await upload(png, { token: alice.token, name: 'shot.png', type: 'image/png' }));
    const webp = await sharp({ create: { width: 5000, height: 3000, channels: 3, background: '#00ff00' } })
      .webp()
      .toBuffer();
    const { url } = expectOk(identity.imageUpload, await upload(webp, { token: alice.token, name: 'x.webp', type: 'image/webp' }));
    const stored = Buffer.from(await (await fetch(new URL(url, up.url), { headers: { authorization: alice.token } })).arrayBuffer());
    const meta = await sharp(stored).metadata();
    expect(Math.max(meta.width!, meta.height!)).toBe(2048);
  });

  test('a script named .jpg, a truncated image, a wrong-content image are refused by content', async () => {
    const script = Buffer.from('#!/bin/sh\necho pwned\n<script>alert(1)</script>');
    expectError(await upload(script, { token: alice.token, name: 'photo.jpg', type: 'image/jpeg' }), 'UploadType');
    const full = await photoWithGps();
    expectError(await upload(full.subarray(0, 600), { token: alice.token }), 'UploadType');
    // JPEG magic followed by garbage.
    expectError(
      await upload(Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.alloc(2000, 7)]), { token: alice.token }),
      'UploadType',
    );
  });

  test('more than 8 MB is refused while it streams; no file, or a file under another name are refused', async () => {
    expectError(await upload(Buffer.alloc(9 * 1024 * 1024, 0xff), { token: alice.token }), 'UploadTooLarge');
    expectError(await upload(null, { token: alice.token }), 'UploadRequired');
    expectError(await upload(await photoWithGps(), { token: alice.token, field: 'picture' }), 'UploadRequired');
    const plain = await fetch(new URL(identity.imageUpload.path, up.url), {
      method: 'POST',
      headers: { authorization: alice.token, 'content-type': 'application/x-www-form-urlencoded' },
      body: 'file=abc',
    });
    expectError((await plain.json()) as Envelope, 'UploadRequired');
  });
});

describe('deposit', () => {
  test('quickCharge/info lists the coin networks and the wire account', async () => {
    await expectTokenRequired(up, funds.depositInfo);
    const info = expectOk(funds.depositInfo, await up.call(funds.depositInfo, {}, { token: alice.token }));
    expect(info.coin.map((c) => `${c.currency_code}/${c.protocol_code}`)).toEqual(['USDT/TRC20', 'USDT/ERC20', 'BTC/BTC']);
    expect(info.coin[0]).toMatchObject({ address: TRC20_ADDRESS, currency: { code: 'USDT' } });
    expect(info.wire).toHaveLength(1);
    expect(info.wire[0]).toMatchObject({ currency_code: 'USD', bank_swift: 'FHBKHKHH' });
  });

  test('submit (coin): a pending record; each refusal; one record per idempotency key', async () => {
    await expectTokenRequired(up, funds.depositSubmit, {});
    const proofImg = await proofOf(alice);
    const base = { number: '250.5', proofImg, address: TRC20_ADDRESS, charge_id: 1 };
    const call = (input: Record<string, unknown>, token = alice.token) => up.call(funds.depositSubmit, input, { token });

    expectError(await call({ ...base, charge_id: 99 }), 'NetworkRequired');
    expectError(await call({ ...base, charge_id: 4 }), 'NetworkRequired'); // the wire channel is not a network
    expectError(await call({ ...base, address: '0x742d35Cc6634C0532925a3b844Bc454e4438f44e' }), 'AddressInvalid');
    expectError(await call({ ...base, number: '0' }), 'AmountInvalid');
    expectError(await call({ ...base, number: 'abc' }), 'InvalidRequest');
    expectError(await call({ ...base, number: '1.1234567' }), 'AmountInvalid');
    expectError(await call({ ...base, proofImg: `${IMAGE_READ_PREFIX}${'0'.repeat(32)}.jpg` }), 'ProofInvalid');
    expectError(await call({ ...base, proofImg: await proofOf(bob) }), 'ProofInvalid');
    expectError(await call({ ...base, proofImg: '' }), 'InvalidRequest');
    const demo = await up.demo();
    expectError(await call({ ...base, proofImg }, demo.token), 'DemoNotAllowed');

    const record = expectOk(funds.depositSubmit, await call({ ...base, idempotency_key: 'deposit-key-1' }));
    expect(record).toMatchObject({
      number: 250.5,
      type: 0,
      currency_code: 'USDT',
      protocol_code: 'TRC20',
      status: DepositStatus.Unchecked,
      remark: '',
    });
    const again = expectOk(funds.depositSubmit, await call({ ...base, idempotency_key: 'deposit-key-1' }));
    expect(again.id).toBe(record.id);
    expect((await detail(alice.token)).deposit_pending).toBe(250.5);
  });

  test('wire_submit: a pending bank record; an unknown account is "no payment channel"', async () => {
    const proofImg = await proofOf(alice);
    expectError(await up.call(funds.wireSubmit, { number: '100', proofImg, wire_id: 1 }, { token: alice.token }), 'NoPaymentChannel');
    const record = expectOk(
      funds.wireSubmit,
      await up.call(funds.wireSubmit, { number: '100', proofImg, wire_id: 4 }, { token: alice.token }),
    );
    expect(record).toMatchObject({ number: 100, type: 1, currency_code: 'USD', protocol_code: null, status: 0 });
  });

  test('quick_ist pages newest first; the back office approves once (credited once) and rejects with a remark', async () => {
    const user = await registerByEmail(up, freshEmail('carol'));
    const token = user.token;
    const proofImg = await proofOf({ token });
    const ids: number[] = [];
    for (let i = 1; i <= 12; i += 1) {
      const env = await up.call(funds.depositSubmit, { number: String(i * 10), proofImg, address: TRC20_ADDRESS, charge_id: 1 }, { token });
      ids.push(expectOk(funds.depositSubmit, env).id);
    }
    const page1 = await up.call(funds.depositRecords, { page: 1 }, { token });
    expect(expectOk(funds.depositRecords, page1).map((d) => d.id)).toEqual(ids.slice(2).reverse());
    expect(extrasOf(funds.depositRecords, page1).total).toBe(12);
    const page2 = expectOk(funds.depositRecords, await up.call(funds.depositRecords, { page: 2 }, { token }));
    expect(page2.map((d) => d.id)).toEqual([ids[1], ids[0]]);
    expect(expectOk(funds.depositRecords, await up.call(funds.depositRecords, { page: 1, type: 1 }, { token }))).toEqual([]);

    expect(await balance(token)).toBe(0);
    const approve = await up.admin('POST', '/admin/deposit', { id: ids[11], action: 'approve' });
    expect(approve.status).toBe(200);
    expect(await balance(token)).toBe(120);
    expect((await up.admin('POST', '/admin/deposit', { id: ids[11], action: 'approve' })).status).toBe(409);
    expect((await up.admin('POST', '/admin/deposit', { id: ids[11], action: 'reject' })).status).toBe(409);
    expect(await balance(token)).toBe(120);
    const log = await ledger(token);
    expect(log.filter((l) => l.Type === LedgerType.Deposit)).toHaveLength(1);
    expect(log[0]).toMatchObject({ Value: 120, Type: LedgerType.Deposit, MemoTran: 'Deposit' });

    await up.admin('POST', '/admin/deposit', { id: ids[10], action: 'reject', remark: 'The transfer was not found' });
    await up.admin('POST', '/admin/deposit', { id: ids[9], action: 'invalid', remark: 'Duplicate' });
    const list = expectOk(funds.depositRecords, await up.call(funds.depositRecords, { page: 1 }, { token }));
    expect(list.slice(0, 3).map((d) => [d.status, d.remark])).toEqual([
      [DepositStatus.Finished, ''],
      [DepositStatus.Rejected, 'The transfer was not found'],
      [DepositStatus.Invalid, 'Duplicate'],
    ]);
    expect(await balance(token)).toBe(120);
    expect((await detail(token)).deposit_pending).toBe(10 + 20 + 30 + 40 + 50 + 60 + 70 + 80 + 90);
    expect((await up.admin('POST', '/admin/deposit', { id: 999999, action: 'approve' })).status).toBe(404);
  });
});

describe('withdraw', () => {
  test('draw_symbol_list: coin currencies and the bank currency with their fee rules and limits', async () => {
    await expectTokenRequired(up, funds.drawSymbolList, { type: 1 });
    const coins = expectOk(funds.drawSymbolList, await up.call(funds.drawSymbolList, { type: 1 }, { token: alice.token }));
    expect(coins.map((c) => [c.code, c.protocol, c.fee_type, c.draw_rate, c.min_number])).toEqual([
      ['USDT', 'TRC20', 1, 1, 10],
      ['USDT', 'ERC20', 1, 5, 20],
      ['BTC', 'BTC', 2, 0.5, 50],
    ]);
    const banks = expectOk(funds.drawSymbolList, await up.call(funds.drawSymbolList, { type: 2 }, { token: alice.token }));
    expect(banks).toEqual([
      { id: 4, code: 'USD', protocol: 'WIRE', fee_type: 2, draw_rate: 1, usd_price: 1, min_number: 50, max_number: 100000 },
    ]);
    expectError(await up.call(funds.drawSymbolList, { type: 3 }, { token: alice.token }), 'InvalidRequest');
  });

  test('bind_draw_method / get_draw_method / del_draw_method: coin address per network, bank fields, owner only', async () => {
    const user = await registerByEmail(up, freshEmail('dan'));
    const token = user.token;
    const bind = (input: Record<string, unknown>, t = token) => binding(funds.bindDrawMethod, input, t);
    await expectTokenRequired(up, funds.bindDrawMethod, { type: 1, draw_id: 1, dc_address: MY_TRC20 });

    expectError(await bind({ type: 1, draw_id: 1, dc_address: MY_ERC20 }), 'AddressInvalid');
    expectError(await bind({ type: 1, draw_id: 2, dc_address: MY_TRC20 }), 'AddressInvalid');
    expectError(await bind({ type: 1, draw_id: 1 }), 'AddressInvalid');
    expectError(await bind({ type: 1, draw_id: 4, dc_address: MY_TRC20 }), 'CurrencyNotFound');
    const coin = expectOk(funds.bindDrawMethod, await bind({ type: 1, draw_id: 1, dc_address: MY_TRC20 }));
    expect(coin).toMatchObject({ type: 1, dc_address: MY_TRC20, draw_currency: { code: 'USDT', protocol: 'TRC20' }, bank_name: null });
    expect(expectOk(funds.bindDrawMethod, await bind({ type: 1, draw_id: 1, dc_address: MY_TRC20 })).id).toBe(coin.id);
    expectOk(funds.bindDrawMethod, await bind({ type: 1, draw_id: 2, dc_address: MY_ERC20 }));

    expectError(await bind({ type: 2, draw_id: 4, ...BANK, payee_account: '' }), 'BankFieldsRequired');
    expectError(await bind({ type: 2, draw_id: 4, ...BANK, bank_swift: 'PAC' }), 'SwiftInvalid');
    const bank = expectOk(
      funds.bindDrawMethod,
      await bind({ type: 2, draw_id: 4, ...BANK, bank_swift: 'pacbhkhhxxx', branch_name: 'Central', remark: 'salary' }),
    );
    expect(bank).toMatchObject({
      type: 2,
      bank_name: 'Pacific Bank',
      bank_swift: 'PACBHKHHXXX',
      payee_name: 'Alice Chan',
      branch_name: 'Central',
      remark: 'salary',
      draw_currency: { code: 'USD' },
    });

    const coins = expectOk(funds.getDrawMethod, await up.call(funds.getDrawMethod, { draw_type: 1 }, { token }));
    expect(coins.map((m) => m.dc_address)).toEqual([MY_ERC20, MY_TRC20]);
    expect(
      expectOk(funds.getDrawMethod, await up.call(funds.getDrawMethod, { draw_type: 1, draw_id: 1 }, { token })).map((m) => m.id),
    ).toEqual([coin.id]);
    expect(expectOk(funds.getDrawMethod, await up.call(funds.getDrawMethod, { draw_type: 2 }, { token })).map((m) => m.id)).toEqual([
      bank.id,
    ]);
    expect(expectOk(funds.getDrawMethod, await up.call(funds.getDrawMethod, { draw_type: 1 }, { token: bob.token }))).toEqual([]);

    expectError(await deleting(funds.delDrawMethod, { id: bank.id }, bob.token), 'WithdrawMethodNotFound');
    expectOk(funds.delDrawMethod, await deleting(funds.delDrawMethod, { id: bank.id }, token));
    expectError(await deleting(funds.delDrawMethod, { id: bank.id }, token), 'WithdrawMethodNotFound');
    expect(expectOk(funds.getDrawMethod, await up.call(funds.getDrawMethod, { draw_type: 2 }, { token }))).toEqual([]);

    for (let i = 0; i < 10; i += 1)
      expectOk(funds.bindDrawMethod, await bind({ type: 2, draw_id: 4, ...BANK, payee_account: `acct-${i}` }));
    expectError(await bind({ type: 2, draw_id: 4, ...BANK, payee_account: 'one-too-many' }), 'TooManyMethods');
    const demo = await up.demo();
    expectError(
      await up.call(funds.bindDrawMethod, { type: 1, draw_id: 1, dc_address: MY_TRC20 }, { token: demo.token }),
      'DemoNotAllowed',
    );
  });

  test('draw: each refusal, then the amount leaves the balance at once; reject gives it back, approve pays', async () => {
    const user = await registerByEmail(up, freshEmail('erin'));
    const token = user.token;
    const draw = (input: Record<string, unknown>, t = token) => withdrawing(funds.draw, input, t);
    await expectTokenRequired(up, funds.draw, { draw_currency_id: 1, number: '10', draw_method_id: 1 });

    expectError(await draw({ draw_currency_id: 1, number: '50', draw_method_id: 1 }), 'BindAccountFirst');
    const method = expectOk(
      funds.bindDrawMethod,
      await binding(funds.bindDrawMethod, { type: 1, draw_id: 1, dc_address: MY_TRC20 }, token),
    );
    const ok = { draw_currency_id: 1, number: '50', draw_method_id: method.id };
    expectError(await draw({ ...ok, draw_currency_id: 99 }), 'CurrencyNotFound');
    expectError(await draw({ ...ok, draw_method_id: 99999 }), 'WithdrawMethodNotFound');
    expectError(await draw({ ...ok, draw_currency_id: 2 }), 'AddressInvalid'); // a TRC20 address for ERC20
    expectError(await draw({ ...ok, draw_currency_id: 4 }), 'BindAccountFirst'); // no bank bound
    expectError(await draw({ ...ok, number: '9.99' }), 'AmountBelowMinimum');
    expectError(await draw({ ...ok, number: '50000.01' }), 'AmountAboveMaximum');
    expectError(await draw({ ...ok, number: '0' }), 'AmountInvalid');
    expectError(await draw(ok), 'InsufficientBalance');

    // 1,000 USD in; no trading yet: the 24-hour volume rule refuses.
    await up.admin('POST', '/admin/balance', { user: String(user.user.id), amount: '1000', memo: 'funding' });
    expectError(await draw(ok), 'TradingVolumeTooLow');
    // XAG/USD has a fixed margin of 50 USD a lot: 16 lots hold 800 USD, 80 % of the 1,000 deposited.
    const xag = expectOk(market.tradeList, await up.call(market.tradeList, { searchCurrency: 'XAG' }))[0]!;
    up.forceMarket('XAGUSD', 'open');
    const order = expectOk(
      trade.submit,
      await up.call(trade.submit, { type: 1, cont: '16', forex_id: xag.Id, status: 1, multiple: 20 }, { token }),
    );
    expectOk(trade.close, await up.call(trade.close, { id: order.Id }, { token }));
    const before = await balance(token);
    expectError(await draw({ ...ok, number: String(before + 1) }), 'InsufficientBalance');

    const record = expectOk(funds.draw, await draw({ ...ok, number: '100', memo: 'rent', idempotency_key: 'withdraw-key-1' }));
    expect(record).toMatchObject({
      number: 100,
      fee: 1,
      real_number: 99,
      draw_currency: { code: 'USDT', protocol: 'TRC20' },
      status: WithdrawStatus.Pending,
      status_name: 'Under review',
      type: 1,
      address: MY_TRC20,
      memo: 'rent',
      notes: '',
    });
    expect(await balance(token)).toBe(Number((before - 100).toFixed(6)));
    expect(expectOk(funds.draw, await draw({ ...ok, number: '100', idempotency_key: 'withdraw-key-1' })).id).toBe(record.id);
    expect(await balance(token)).toBe(Number((before - 100).toFixed(6)));
    expect((await detail(token)).withdraw_pending).toBe(100);
    expect((await ledger(token))[0]).toMatchObject({ Value: -100, Type: LedgerType.Withdrawal });

    // The method can be deleted: the record keeps its snapshot.
    expectOk(funds.delDrawMethod, await deleting(funds.delDrawMethod, { id: method.id }, token));
    expect((await up.admin('POST', '/admin/withdrawal', { id: record.id, action: 'reject', remark: 'Address flagged' })).status).toBe(200);
    expect((await up.admin('POST', '/admin/withdrawal', { id: record.id, action: 'reject' })).status).toBe(409);
    expect(await balance(token)).toBe(before);
    expect((await ledger(token))[0]).toMatchObject({ Value: 100, Type: LedgerType.WithdrawalRefund });
    const list = await up.call(funds.drawList, { page: 1 }, { token: token, lang: 'fr' });
    expect(expectOk(funds.drawList, list)[0]).toMatchObject({
      id: record.id,
      status: WithdrawStatus.Rejected,
      notes: 'Address flagged',
      address: MY_TRC20,
    });
    expect(expectOk(funds.drawList, list)[0]!.status_name).not.toBe('Rejected');
    expect(extrasOf(funds.drawList, list).total).toBe(1);

    // A percent fee (BTC 0.5 %) and a paid withdrawal: nothing more moves.
    const btc = expectOk(
      funds.bindDrawMethod,
      await binding(funds.bindDrawMethod, { type: 1, draw_id: 3, dc_address: 'bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq' }, token),
    );
    const paid = expectOk(funds.draw, await draw({ draw_currency_id: 3, number: '200', draw_method_id: btc.id }));
    expect([paid.fee, paid.real_number]).toEqual([1, 199]);
    await up.admin('POST', '/admin/withdrawal', { id: paid.id, action: 'approve' });
    expect(await balance(token)).toBe(Number((before - 200).toFixed(6)));
    expect(expectOk(funds.drawList, await up.call(funds.drawList, { page: 1 }, { token }))[0]).toMatchObject({
      status: WithdrawStatus.Paid,
      status_name: 'Paid',
    });
    expect((await detail(token)).withdraw_pending).toBe(0);

    const demo = await up.demo();
    expectError(await up.call(funds.draw, ok, { token: demo.token }), 'DemoNotAllowed');
  });
});
