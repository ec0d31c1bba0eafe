/**
 * Contract tests of the trading and account calls: submit, my_deal, close, cancel_trade, set_stop_price,
 * getBalance, forexDetail, forexChange and resetForexDemoAccount. Markets are forced open (or closed) and
 * prices set by the test, so every figure is exact: margin = lots × ForexContNum × price ÷ leverage
 * (fixed mode: lots × ForexContNum), fee = lots × ForexFeeRate (trade_fee_type 1, the default),
 * profit = (exit − entry) × lots × ForexContNum, converted to USD for a non-USD quote.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { trade, market, type Order } from '../../contract/index';
import { startTestUpstream, type TestUpstream } from '../testing';
import { expectError, expectMoney, expectOk, expectTokenRequired, extrasOf, freshEmail, registerByEmail } from './contract-helpers';

const locales = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'locales');
const ledgerNames = (lang: string) =>
  (JSON.parse(fs.readFileSync(path.join(locales, `${lang}.json`), 'utf8')) as { ledger: Record<string, string> }).ledger;

let up: TestUpstream;
let id: Record<string, number>;
/** A real (non-demo) account, registered in beforeAll: starts with a balance of 0. */
let real: { token: string; userId: number };

beforeAll(async () => {
  up = await startTestUpstream();
  for (const code of ['EURUSD', 'USDJPY', 'XAGUSD']) up.forceMarket(code, 'open');
  up.forceMarket('GBPUSD', 'closed');
  const list = expectOk(market.tradeList, await up.call(market.tradeList));
  id = Object.fromEntries(list.map((i) => [i.Code, i.Id]));
  const session = await registerByEmail(up, freshEmail('trader'));
  real = { token: session.token, userId: session.user.id };
});
afterAll(() => up.close());

// ---- helpers ---------------------------------------------------------------------------------------

type SubmitInput = Record<string, unknown>;
const buy = (cont: string, multiple = 100, extra: SubmitInput = {}): SubmitInput => ({
  type: 1,
  cont,
  forex_id: id.EURUSD,
  status: 1,
  multiple,
  ...extra,
});
const sell = (cont: string, multiple = 100, extra: SubmitInput = {}): SubmitInput => ({
  type: 2,
  cont,
  forex_id: id.EURUSD,
  status: 1,
  multiple,
  ...extra,
});
const buyLimit = (cont: string, target: string, extra: SubmitInput = {}): SubmitInput => ({
  ...buy(cont, 100, extra),
  status: 0,
  target_price: target,
});

function checkOrderMoney(o: Order) {
  for (const v of [o.FactProfits, o.CautionMoney, o.TradeFee]) expectMoney(v);
}

async function submit(token: string, input: SubmitInput): Promise<Order> {
  const o = expectOk(trade.submit, await up.call(trade.submit, input, { token }));
  checkOrderMoney(o);
  return o;
}

async function balanceOf(token: string): Promise<number> {
  const { balance } = expectOk(trade.getBalance, await up.call(trade.getBalance, {}, { token }));
  expectMoney(balance);
  return balance;
}

async function deals(token: string, status: 0 | 1 | 3, page = 1) {
  const env = await up.call(trade.myDeal, { status, page }, { token });
  const data = expectOk(trade.myDeal, env);
  data.forEach(checkOrderMoney);
  const extras = extrasOf(trade.myDeal, env);
  expectMoney(extras.all_fact_profits);
  expectMoney(extras.balance);
  return { data, ...extras };
}

async function detail(token: string) {
  const d = expectOk(trade.forexDetail, await up.call(trade.forexDetail, {}, { token }));
  for (const v of [d.balance, d.lock_balance, d.equity, d.free_margin, d.margin, d.floating_profit]) expectMoney(v);
  return d;
}

async function ledger(token: string, page = 1, lang = 'en') {
  const env = await up.call(trade.forexChange, { page }, { token, lang });
  const data = expectOk(trade.forexChange, env);
  for (const e of data) {
    expectMoney(e.Value);
    expectMoney(e.Balance);
  }
  return { data, total: extrasOf(trade.forexChange, env).total };
}

test('every call of this file is served and needs a token', () => {
  for (const call of [
    trade.submit,
    trade.myDeal,
    trade.close,
    trade.cancelTrade,
    trade.setStopPrice,
    trade.getBalance,
    trade.forexDetail,
    trade.forexChange,
    trade.resetForexDemoAccount,
  ]) {
    expect(up.app.hasRoute({ method: call.method, url: call.path }), call.name).toBe(true);
    expect(call.auth, call.name).toBe('required');
  }
});

// ---- submit ----------------------------------------------------------------------------------------

describe('submit', () => {
  test('a market buy fills at the current price and takes margin and fee from the balance', async () => {
    up.setPrice('EURUSD', 1.1);
    const { token } = await up.demo();
    const o = await submit(token, buy('0.5'));
    // 0.5 × 100,000 × 1.1 ÷ 100 = 550 margin; 0.5 × 5 = 2.5 fee.
    expect(o).toMatchObject({
      ForexId: id.EURUSD,
      OrderType: 1,
      Quantity: 0.5,
      Price: 1.1,
      OriginPrice: 1.1,
      UpdatePrice: 1.1,
      FactProfits: 0,
      CautionMoney: 550,
      TradeFee: 2.5,
      TargetLossPrice: 0,
      TargetProfitPrice: 0,
      Multiple: 100,
      Status: 1,
      CloseReason: null,
      CompleteTimeHandler: '',
      ForexTradeLists: { ShowCode: 'EUR/USD', Code: 'EURUSD', PricePrecision: 5 },
    });
    expect(Number.isNaN(Date.parse(o.CreateTimeHandler))).toBe(false);
    expect(await balanceOf(token)).toBe(99447.5);
  });

  test('a market sell with take-profit below and stop-loss above the price', async () => {
    up.setPrice('EURUSD', 1.1);
    const { token } = await up.demo();
    const o = await submit(token, sell('0.3', 50, { target_profit_price: '1.09', stop_loss_price: '1.11' }));
    // 0.3 × 100,000 × 1.1 ÷ 50 = 660; 0.3 × 5 = 1.5.
    expect(o).toMatchObject({
      OrderType: 2,
      Quantity: 0.3,
      Multiple: 50,
      CautionMoney: 660,
      TradeFee: 1.5,
      TargetProfitPrice: 1.09,
      TargetLossPrice: 1.11,
    });
    const b = await submit(token, buy('0.01', 200, { target_profit_price: '1.2', stop_loss_price: '1.05' }));
    // 0.01 × 100,000 × 1.1 ÷ 200 = 5.5; 0.01 × 5 = 0.05.
    expect(b).toMatchObject({ CautionMoney: 5.5, TradeFee: 0.05, TargetProfitPrice: 1.2, TargetLossPrice: 1.05 });
    expect(await balanceOf(token)).toBe(99332.95); // 100,000 − 661.5 − 5.55
  });

  test('a pending order holds margin at its target price and fills at the tick that reaches it', async () => {
    up.setPrice('EURUSD', 1.1);
    const { token } = await up.demo();
    // Take-profit 1.095 is above the target (1.09) though below the current price: stops refer to the target.
    const o = await submit(token, buyLimit('0.5', '1.09', { target_profit_price: '1.095' }));
    // 0.5 × 100,000 × 1.09 ÷ 100 = 545.
    expect(o).toMatchObject({
      Status: 0,
      Price: 1.09,
      OriginPrice: 1.1,
      CautionMoney: 545,
      TradeFee: 2.5,
      FactProfits: 0,
      TargetProfitPrice: 1.095,
    });
    expect(await balanceOf(token)).toBe(99452.5); // 100,000 − 547.5
    expect((await deals(token, 0)).data.map((x) => x.Id)).toEqual([o.Id]);
    expect((await deals(token, 1)).data).toEqual([]);

    up.setPrice('EURUSD', 1.0905);
    expect((await deals(token, 0)).data.map((x) => x.Id)).toEqual([o.Id]);
    up.setPrice('EURUSD', 1.0895);
    expect((await deals(token, 0)).data).toEqual([]);
    const [filled] = (await deals(token, 1)).data;
    expect(filled).toMatchObject({ Id: o.Id, Status: 1, Price: 1.0895, CautionMoney: 545, TargetProfitPrice: 1.095 });
  });

  test('USDJPY: margin and profit are converted to USD at the current price', async () => {
    up.setPrice('USDJPY', 150);
    const { token } = await up.demo();
    const o = await submit(token, { type: 1, cont: '1', forex_id: id.USDJPY, status: 1, multiple: 100 });
    // 1 × 100,000 × 150 ÷ 100 JPY = 150,000 JPY = 1,000 USD at 150; fee 1 × 5.
    expect(o).toMatchObject({ Price: 150, CautionMoney: 1000, TradeFee: 5 });
    up.setPrice('USDJPY', 151.5);
    // 1.5 JPY × 100,000 = 150,000 JPY ÷ 151.5 = 990.0990099… USD, 6 decimals half away from zero.
    expect((await deals(token, 1)).data[0]!.FactProfits).toBe(990.09901);
    const closed = expectOk(trade.close, await up.call(trade.close, { id: o.Id }, { token }));
    expect(closed).toMatchObject({ Status: 3, FactProfits: 990.09901, UpdatePrice: 151.5 });
    expect(await balanceOf(token)).toBe(100985.09901);
  });

  test('fixed margin mode (XAGUSD): margin is lots × ForexContNum whatever the price and leverage', async () => {
    up.setPrice('XAGUSD', 30);
    const { token } = await up.demo();
    const a = await submit(token, { type: 1, cont: '2', forex_id: id.XAGUSD, status: 1, multiple: 20 });
    const b = await submit(token, { type: 2, cont: '2', forex_id: id.XAGUSD, status: 1, multiple: 50 });
    // 2 × 50 = 100 USD; fee 2 × 6 = 12.
    expect(a).toMatchObject({ CautionMoney: 100, TradeFee: 12 });
    expect(b).toMatchObject({ CautionMoney: 100, TradeFee: 12 });
  });

  test('an idempotency key returns the first order; a different order under the same key is refused', async () => {
    up.setPrice('EURUSD', 1.1);
    const { token } = await up.demo();
    const key = 'form-7f3a';
    const first = await submit(token, buy('0.1', 100, { idempotency_key: key }));
    const again = await submit(token, buy('0.1', 100, { idempotency_key: key }));
    expect(again).toEqual(first);
    // Charged once: 110 margin + 0.5 fee.
    expect(await balanceOf(token)).toBe(99889.5);
    expect((await deals(token, 1)).total).toBe(1);

    expectError(await up.call(trade.submit, buy('0.2', 100, { idempotency_key: key }), { token }), 'IdempotencyKeyReused');
    expectError(await up.call(trade.submit, sell('0.1', 100, { idempotency_key: key }), { token }), 'IdempotencyKeyReused');
    expectError(await up.call(trade.submit, buyLimit('0.1', '1.09', { idempotency_key: key }), { token }), 'IdempotencyKeyReused');
    expectError(
      await up.call(trade.submit, { ...buy('0.1', 100, { idempotency_key: key }), forex_id: id.BTCUSD }, { token }),
      'IdempotencyKeyReused',
    );
    expect(await balanceOf(token)).toBe(99889.5);
    expect((await deals(token, 1)).total).toBe(1);

    // The key belongs to one user: another account's form with the same key is its own order.
    const other = await up.demo();
    const theirs = await submit(other.token, buy('0.1', 100, { idempotency_key: key }));
    expect(theirs.Id).not.toBe(first.Id);

    // A key longer than 64 characters is not accepted.
    expectError(await up.call(trade.submit, buy('0.1', 100, { idempotency_key: 'k'.repeat(65) }), { token }), 'InvalidRequest');
  });

  test('the same key with another leverage or another target price is a different order, refused', async () => {
    up.setPrice('EURUSD', 1.1);
    const { token } = await up.demo();
    await submit(token, buy('0.1', 100, { idempotency_key: 'lev-key' }));
    expectError(await up.call(trade.submit, buy('0.1', 50, { idempotency_key: 'lev-key' }), { token }), 'IdempotencyKeyReused');
    await submit(token, buyLimit('0.1', '1.09', { idempotency_key: 'target-key' }));
    expectError(await up.call(trade.submit, buyLimit('0.1', '1.08', { idempotency_key: 'target-key' }), { token }), 'IdempotencyKeyReused');
  });

  test('a market order is refused (PriceMoved) when its fill would stray past the tolerance from the price the trader saw', async () => {
    up.setPrice('EURUSD', 1.1);
    up.setPrice('BTCUSD', 50000);
    const { token } = await up.demo();
    // Forex: 0.2 % of 1.078 is 0.002156; the fill at 1.1 is 0.022 away.
    expectError(await up.call(trade.submit, buy('0.1', 100, { price: '1.078' }), { token }), 'PriceMoved');
    expectError(await up.call(trade.submit, sell('0.1', 100, { price: '1.12' }), { token }), 'PriceMoved');
    expect(await balanceOf(token)).toBe(100000);
    // Within it (1.0979 is 0.19 % away), or no price named: filled at the current price.
    expect(await submit(token, buy('0.1', 100, { price: '1.0979' }))).toMatchObject({ Price: 1.1 });
    expect(await submit(token, buy('0.1'))).toMatchObject({ Price: 1.1 });
    // Crypto allows 1 %: 49,600 is 0.8 % below 50,000.
    expect(await submit(token, { type: 1, cont: '0.1', forex_id: id.BTCUSD, status: 1, multiple: 10, price: '49600' })).toMatchObject({
      Price: 50000,
    });
    expectError(
      await up.call(trade.submit, { type: 1, cont: '0.1', forex_id: id.BTCUSD, status: 1, multiple: 10, price: '49000' }, { token }),
      'PriceMoved',
    );
    // A pending order opens at its own target: the seen price does not apply.
    expect(await submit(token, buyLimit('0.1', '1.09', { price: '1.0' }))).toMatchObject({ Status: 0 });
  });

  test('a closed market is MarketClosed; crypto trades at any time', async () => {
    up.setPrice('EURUSD', 1.1);
    const { token } = await up.demo();
    expectError(await up.call(trade.submit, { ...buy('0.1'), forex_id: id.GBPUSD }, { token }), 'MarketClosed');
    up.forceMarket('EURUSD', 'closed');
    try {
      expectError(await up.call(trade.submit, buy('0.1'), { token }), 'MarketClosed');
    } finally {
      up.forceMarket('EURUSD', 'open');
    }
    up.setPrice('BTCUSD', 50000);
    const btc = await submit(token, { type: 1, cont: '0.1', forex_id: id.BTCUSD, status: 1, multiple: 10 });
    // 0.1 × 1 × 50,000 ÷ 10 = 500; 0.1 × 10 = 1.
    expect(btc).toMatchObject({ Status: 1, CautionMoney: 500, TradeFee: 1 });
  });

  test('business errors of the order form, each with its exact code, and none of them changes the account', async () => {
    up.setPrice('EURUSD', 1.1);
    up.setPrice('BTCUSD', 50000);
    const { token } = await up.demo();
    const refuse = async (input: SubmitInput, name: Parameters<typeof expectError>[1]) =>
      expectError(await up.call(trade.submit, input, { token }), name);

    await refuse(buy('0.1', 30), 'LeverageNotAllowed');
    await refuse({ type: 1, cont: '0.1', forex_id: id.BTCUSD, status: 1, multiple: 100 }, 'LeverageNotAllowed');
    await refuse(buy('0.015'), 'LotsInvalid');
    await refuse(buy('0.005'), 'LotsInvalid');
    await refuse(buy('0'), 'LotsInvalid');
    await refuse(buy('0.0001'), 'LotsInvalid');
    await refuse({ type: 1, cont: '0.15', forex_id: id.SOLUSD, status: 1, multiple: 5 }, 'LotsInvalid');
    await refuse(buy('0.1', 100, { target_profit_price: '1.09' }), 'TakeProfitInvalid');
    await refuse(buy('0.1', 100, { target_profit_price: '1.1' }), 'TakeProfitInvalid');
    await refuse(sell('0.1', 100, { target_profit_price: '1.11' }), 'TakeProfitInvalid');
    await refuse(buy('0.1', 100, { stop_loss_price: '1.11' }), 'StopLossInvalid');
    await refuse(sell('0.1', 100, { stop_loss_price: '1.09' }), 'StopLossInvalid');
    // Pending: stops are judged against the target, not the current price.
    await refuse(buyLimit('0.1', '1.09', { target_profit_price: '1.085' }), 'TakeProfitInvalid');
    await refuse(buyLimit('0.1', '1.09', { stop_loss_price: '1.095' }), 'StopLossInvalid');
    await refuse({ ...buy('0.1'), status: 0 }, 'TargetPriceRequired');
    await refuse(buyLimit('0.1', '1.1'), 'TargetPriceAtMarket');
    await refuse(buyLimit('0.1', '1.090001'), 'PriceInvalid');
    await refuse(buy('0.1', 100, { target_profit_price: '1.123456' }), 'PriceInvalid');
    await refuse({ ...buy('0.1'), forex_id: 9999 }, 'InstrumentNotFound');
    // 10 × 1 × 50,000 ÷ 2 = 250,000 > 100,000.
    await refuse({ type: 1, cont: '10', forex_id: id.BTCUSD, status: 1, multiple: 2 }, 'InsufficientMargin');
    await refuse(buy('100', 10), 'InsufficientMargin');

    expect(await balanceOf(token)).toBe(100000);
    expect((await ledger(token)).total).toBe(1);
    for (const tab of [0, 1, 3] as const) expect((await deals(token, tab)).total).toBe(0);
  });

  test('a floating loss reduces what can be spent: margin + fee must fit the free margin, not only the cash', async () => {
    up.setPrice('EURUSD', 1.1);
    up.setPrice('BTCUSD', 50000);
    const { token } = await up.demo();
    // 5 × 100,000 × 1.1 ÷ 100 = 5,500 margin; fee 25; cash 94,475.
    await submit(token, buy('5'));
    up.setPrice('EURUSD', 1.09);
    // Floating −0.01 × 500,000 = −5,000: equity 94,975, free margin 89,475.
    expect(await detail(token)).toMatchObject({ balance: 94475, floating_profit: -5000, equity: 94975, free_margin: 89475 });
    // BTCUSD at leverage 2: 25,000 margin + 10 fee per lot. 3.58 lots = 89,535.8: within the cash, beyond the free margin.
    const btc = (cont: string) => ({ type: 1, cont, forex_id: id.BTCUSD, status: 1, multiple: 2 });
    expectError(await up.call(trade.submit, btc('3.58'), { token }), 'InsufficientMargin');
    // 3.57 lots = 89,285.7.
    expect(await submit(token, btc('3.57'))).toMatchObject({ CautionMoney: 89250, TradeFee: 35.7 });
    // 94,475 − 89,285.7
    expect(await balanceOf(token)).toBe(5189.3);
  });

  test('margin + fee may use the whole balance, not a micro-dollar more (a real account funded by the back office)', async () => {
    up.setPrice('EURUSD', 1.1);
    expect(await balanceOf(real.token)).toBe(0);
    const fund = await up.admin('POST', '/admin/balance', { user: String(real.userId), amount: '552.499999', memo: 'test funding' });
    expect(fund.status).toBe(200);
    // 550 margin + 2.5 fee = 552.5 > 552.499999.
    expectError(await up.call(trade.submit, buy('0.5'), { token: real.token }), 'InsufficientMargin');
    await up.admin('POST', '/admin/balance', { user: String(real.userId), amount: '0.000001', memo: 'top up' });
    const o = await submit(real.token, buy('0.5'));
    expect(o).toMatchObject({ CautionMoney: 550, TradeFee: 2.5 });
    expect(await balanceOf(real.token)).toBe(0);
    const log = await ledger(real.token);
    expect(log.data.map((e) => [e.Type, e.Value, e.Memo])).toEqual([
      [7, -2.5, ''],
      [5, -550, ''],
      [10, 0.000001, 'top up'],
      [10, 552.499999, 'test funding'],
    ]);
    // Ledger type 10 shows its memo; the screen's MemoTran is the translated type name.
    expect(log.data[3]!.MemoTran).toBe(ledgerNames('en')['10']);
    // Leave the account flat for the tests below.
    expectOk(trade.close, await up.call(trade.close, { id: o.Id }, { token: real.token }));
  });

  test('malformed input is an invalid request', async () => {
    const { token } = await up.demo();
    const base = buy('0.1');
    for (const bad of [
      { ...base, cont: undefined },
      { ...base, cont: 'abc' },
      { ...base, cont: '-1' },
      { ...base, type: 3 },
      { ...base, status: 2 },
      { ...base, multiple: undefined },
      { ...base, multiple: 0 },
      { ...base, forex_id: 0 },
      { ...base, forex_id: undefined },
      { ...base, target_profit_price: 'x' },
    ]) {
      expectError(await up.call(trade.submit, bad, { token }), 'InvalidRequest');
    }
    // The message names the field at fault.
    expect((await up.call(trade.submit, { ...base, cont: undefined }, { token })).msg).toContain('cont');
  });

  test('999 with no token and with a bad token', async () => {
    await expectTokenRequired(up, trade.submit, buy('0.1'));
  });
});

// ---- my_deal ---------------------------------------------------------------------------------------

describe('my_deal', () => {
  test('the three tabs (1 holding, 0 pending, 3 history) with total, all_fact_profits and balance beside data', async () => {
    up.setPrice('EURUSD', 1.1);
    const { token } = await up.demo();
    const a = await submit(token, buy('0.5'));
    const b = await submit(token, sell('0.2'));
    const c = await submit(token, buyLimit('0.1', '1.09'));
    up.setPrice('EURUSD', 1.101);
    // a: +0.001 × 50,000 = 50; b: −0.001 × 20,000 = −20.
    // balance: 100,000 − (550 + 2.5) − (220 + 1) − (109 + 0.5) = 99,117.
    const holding = await deals(token, 1);
    expect(holding.data.map((o) => [o.Id, o.FactProfits, o.UpdatePrice])).toEqual([
      [b.Id, -20, 1.101],
      [a.Id, 50, 1.101],
    ]);
    expect(holding).toMatchObject({ total: 2, all_fact_profits: 30, balance: 99117 });
    const pending = await deals(token, 0);
    expect(pending.data.map((o) => [o.Id, o.Status, o.FactProfits])).toEqual([[c.Id, 0, 0]]);
    expect(pending).toMatchObject({ total: 1, all_fact_profits: 0, balance: 99117 });
    expect(await deals(token, 3)).toMatchObject({ data: [], total: 0, all_fact_profits: 0, balance: 99117 });

    expectOk(trade.close, await up.call(trade.close, { id: a.Id }, { token }));
    expectOk(trade.cancelTrade, await up.call(trade.cancelTrade, { id: c.Id }, { token }));
    // + 550 + 50 (a) + 109 + 0.5 (c) = 99,826.5
    const history = await deals(token, 3);
    expect(history.data.map((o) => [o.Id, o.Status])).toEqual([
      [c.Id, 4],
      [a.Id, 3],
    ]);
    expect(history).toMatchObject({ total: 2, all_fact_profits: 50, balance: 99826.5 });
    expect(await balanceOf(token)).toBe(99826.5);
    expect(await deals(token, 1)).toMatchObject({ total: 1, all_fact_profits: -20 });
    expect(await deals(token, 0)).toMatchObject({ data: [], total: 0 });
  });

  test('pages of 20, newest first; totals count every page', async () => {
    up.setPrice('EURUSD', 1.1);
    const { token } = await up.demo();
    const early = [await submit(token, buy('0.1')), await submit(token, buy('0.1'))];
    up.setPrice('EURUSD', 1.1002);
    // Each: 0.0002 × 10,000 = 2.
    for (const o of early) expect(expectOk(trade.close, await up.call(trade.close, { id: o.Id }, { token })).FactProfits).toBe(2);
    const pendingIds: number[] = [];
    for (let i = 0; i < 23; i++) pendingIds.push((await submit(token, buyLimit('0.01', '1.09'))).Id);
    const newestFirst = [...pendingIds].reverse();

    const p1 = await deals(token, 0, 1);
    const p2 = await deals(token, 0, 2);
    const p3 = await deals(token, 0, 3);
    expect(p1.data.map((o) => o.Id)).toEqual(newestFirst.slice(0, 20));
    expect(p2.data.map((o) => o.Id)).toEqual(newestFirst.slice(20));
    expect(p3.data).toEqual([]);
    for (const p of [p1, p2, p3]) expect(p.total).toBe(23);

    for (const orderId of pendingIds) expectOk(trade.cancelTrade, await up.call(trade.cancelTrade, { id: orderId }, { token }));
    const h1 = await deals(token, 3, 1);
    const h2 = await deals(token, 3, 2);
    expect(h1.data.map((o) => o.Id)).toEqual(newestFirst.slice(0, 20));
    expect(h2.data.map((o) => o.Id)).toEqual([...newestFirst.slice(20), early[1]!.Id, early[0]!.Id]);
    // all_fact_profits sums the whole tab, also on a page that shows none of the profitable orders.
    for (const h of [h1, h2]) expect(h).toMatchObject({ total: 25, all_fact_profits: 4 });
    // 100,000 − 2 × 0.5 fees + 4 profit (the cancelled orders' fees are refunded).
    expect(h1.balance).toBe(100003);
  });

  test('status defaults to the holding tab and page to 1', async () => {
    up.setPrice('EURUSD', 1.1);
    const { token } = await up.demo();
    const o = await submit(token, buy('0.1'));
    const env = await up.call(trade.myDeal, {}, { token });
    expect(expectOk(trade.myDeal, env).map((x) => x.Id)).toEqual([o.Id]);
    expect(extrasOf(trade.myDeal, env).total).toBe(1);
  });

  test('an unknown tab or page 0 is an invalid request', async () => {
    const { token } = await up.demo();
    expectError(await up.call(trade.myDeal, { status: 2 }, { token }), 'InvalidRequest');
    expectError(await up.call(trade.myDeal, { status: 4 }, { token }), 'InvalidRequest');
    expectError(await up.call(trade.myDeal, { status: 1, page: 0 }, { token }), 'InvalidRequest');
  });

  test('999 with no token and with a bad token', async () => {
    await expectTokenRequired(up, trade.myDeal, { status: 1, page: 1 });
  });
});

// ---- close -----------------------------------------------------------------------------------------

describe('close', () => {
  test('closes a holding at the current price with its profit', async () => {
    up.setPrice('EURUSD', 1.1);
    const { token } = await up.demo();
    const o = await submit(token, buy('0.5'));
    up.setPrice('EURUSD', 1.0987);
    const closed = expectOk(trade.close, await up.call(trade.close, { id: o.Id }, { token }));
    checkOrderMoney(closed);
    // (1.0987 − 1.1) × 50,000 = −65.
    expect(closed).toMatchObject({
      Id: o.Id,
      Status: 3,
      CloseReason: 1,
      Price: 1.1,
      UpdatePrice: 1.0987,
      FactProfits: -65,
      CautionMoney: 550,
    });
    expect(Number.isNaN(Date.parse(closed.CompleteTimeHandler))).toBe(false);
    // 100,000 − 2.5 − 65.
    expect(await balanceOf(token)).toBe(99932.5);
    expect((await detail(token)).lock_balance).toBe(0);
    // A sell profits when the price falls.
    const s = await submit(token, sell('0.2'));
    up.setPrice('EURUSD', 1.0977);
    expect(expectOk(trade.close, await up.call(trade.close, { id: s.Id }, { token })).FactProfits).toBe(20);
  });

  test('a pending order is OrderNotHolding; a finished one OrderFinished; another user’s or unknown one OrderNotFound', async () => {
    up.setPrice('EURUSD', 1.1);
    const { token } = await up.demo();
    const pending = await submit(token, buyLimit('0.1', '1.09'));
    expectError(await up.call(trade.close, { id: pending.Id }, { token }), 'OrderNotHolding');
    const holding = await submit(token, buy('0.1'));
    expectOk(trade.close, await up.call(trade.close, { id: holding.Id }, { token }));
    expectError(await up.call(trade.close, { id: holding.Id }, { token }), 'OrderFinished');
    expectOk(trade.cancelTrade, await up.call(trade.cancelTrade, { id: pending.Id }, { token }));
    expectError(await up.call(trade.close, { id: pending.Id }, { token }), 'OrderFinished');

    const mine = await submit(token, buy('0.1'));
    const other = await up.demo();
    expectError(await up.call(trade.close, { id: mine.Id }, { token: other.token }), 'OrderNotFound');
    expectError(await up.call(trade.close, { id: 999999 }, { token }), 'OrderNotFound');
    expect((await deals(token, 1)).data.map((o) => o.Id)).toEqual([mine.Id]);
    expectError(await up.call(trade.close, {}, { token }), 'InvalidRequest');
    expectError(await up.call(trade.close, { id: 'abc' }, { token }), 'InvalidRequest');
  });

  test('a position cannot be closed while its market is closed', async () => {
    up.setPrice('EURUSD', 1.1);
    const { token } = await up.demo();
    const o = await submit(token, buy('0.1'));
    up.forceMarket('EURUSD', 'closed');
    try {
      expectError(await up.call(trade.close, { id: o.Id }, { token }), 'MarketClosed');
    } finally {
      up.forceMarket('EURUSD', 'open');
    }
    expect((await deals(token, 1)).data.map((x) => [x.Id, x.Status])).toEqual([[o.Id, 1]]);
    expectOk(trade.close, await up.call(trade.close, { id: o.Id }, { token }));
  });

  test('999 with no token and with a bad token', async () => {
    await expectTokenRequired(up, trade.close, { id: 1 });
  });
});

// ---- cancel_trade ----------------------------------------------------------------------------------

describe('cancel_trade', () => {
  test('cancels a pending order and returns its margin and fee', async () => {
    up.setPrice('EURUSD', 1.1);
    const { token } = await up.demo();
    const o = await submit(token, buyLimit('0.5', '1.09'));
    expect(await balanceOf(token)).toBe(99452.5); // 100,000 − 547.5
    const cancelled = expectOk(trade.cancelTrade, await up.call(trade.cancelTrade, { id: o.Id }, { token }));
    checkOrderMoney(cancelled);
    expect(cancelled).toMatchObject({ Id: o.Id, Status: 4, CloseReason: null, FactProfits: 0, Price: 1.09 });
    expect(Number.isNaN(Date.parse(cancelled.CompleteTimeHandler))).toBe(false);
    expect(await balanceOf(token)).toBe(100000);
    expect(await detail(token)).toMatchObject({ balance: 100000, lock_balance: 0 });
    // A cancelled order never fills.
    up.setPrice('EURUSD', 1.085);
    expect((await deals(token, 1)).total).toBe(0);
  });

  test('a holding is OrderNotPending; a finished one OrderFinished; another user’s or unknown one OrderNotFound', async () => {
    up.setPrice('EURUSD', 1.1);
    const { token } = await up.demo();
    const holding = await submit(token, buy('0.1'));
    expectError(await up.call(trade.cancelTrade, { id: holding.Id }, { token }), 'OrderNotPending');
    const pending = await submit(token, buyLimit('0.1', '1.09'));
    expectOk(trade.cancelTrade, await up.call(trade.cancelTrade, { id: pending.Id }, { token }));
    expectError(await up.call(trade.cancelTrade, { id: pending.Id }, { token }), 'OrderFinished');
    expectOk(trade.close, await up.call(trade.close, { id: holding.Id }, { token }));
    expectError(await up.call(trade.cancelTrade, { id: holding.Id }, { token }), 'OrderFinished');

    const mine = await submit(token, buyLimit('0.1', '1.09'));
    const other = await up.demo();
    expectError(await up.call(trade.cancelTrade, { id: mine.Id }, { token: other.token }), 'OrderNotFound');
    expectError(await up.call(trade.cancelTrade, { id: 999999 }, { token }), 'OrderNotFound');
    expect((await deals(token, 0)).data.map((o) => o.Id)).toEqual([mine.Id]);
    expectError(await up.call(trade.cancelTrade, {}, { token }), 'InvalidRequest');
  });

  test('999 with no token and with a bad token', async () => {
    await expectTokenRequired(up, trade.cancelTrade, { id: 1 });
  });
});

// ---- set_stop_price --------------------------------------------------------------------------------

describe('set_stop_price', () => {
  test('sets and clears take-profit and stop-loss of a holding', async () => {
    up.setPrice('EURUSD', 1.1);
    const { token } = await up.demo();
    const o = await submit(token, buy('0.5'));
    const set = expectOk(
      trade.setStopPrice,
      await up.call(trade.setStopPrice, { id: o.Id, target_profit_price: '1.105', stop_loss_price: '1.095' }, { token }),
    );
    expect(set).toMatchObject({ Id: o.Id, Status: 1, TargetProfitPrice: 1.105, TargetLossPrice: 1.095 });
    expect((await deals(token, 1)).data[0]).toMatchObject({ TargetProfitPrice: 1.105, TargetLossPrice: 1.095 });
    // 0 (or absent) means "not set".
    const cleared = expectOk(
      trade.setStopPrice,
      await up.call(trade.setStopPrice, { id: o.Id, target_profit_price: 0, stop_loss_price: '1.095' }, { token }),
    );
    expect(cleared).toMatchObject({ TargetProfitPrice: 0, TargetLossPrice: 1.095 });
    const none = expectOk(trade.setStopPrice, await up.call(trade.setStopPrice, { id: o.Id }, { token }));
    expect(none).toMatchObject({ TargetProfitPrice: 0, TargetLossPrice: 0 });
    // Cleared stops do not fire.
    up.setPrice('EURUSD', 1.2);
    expect((await deals(token, 1)).data.map((x) => x.Id)).toEqual([o.Id]);
  });

  test('a take-profit closes at the price of the tick that crossed it (a gap is not hidden)', async () => {
    up.setPrice('EURUSD', 1.1);
    const { token } = await up.demo();
    const o = await submit(token, buy('0.5'));
    expectOk(trade.setStopPrice, await up.call(trade.setStopPrice, { id: o.Id, target_profit_price: '1.105' }, { token }));
    up.setPrice('EURUSD', 1.1049);
    expect((await deals(token, 1)).total).toBe(1);
    up.setPrice('EURUSD', 1.1062);
    expect((await deals(token, 1)).total).toBe(0);
    const [closed] = (await deals(token, 3)).data;
    // (1.1062 − 1.1) × 50,000 = 310.
    expect(closed).toMatchObject({ Id: o.Id, Status: 3, CloseReason: 3, UpdatePrice: 1.1062, FactProfits: 310 });
    expect(await balanceOf(token)).toBe(100307.5); // 100,000 − 2.5 + 310
  });

  test('a stop-loss closes a sell when the price rises to it', async () => {
    up.setPrice('EURUSD', 1.1);
    const { token } = await up.demo();
    const o = await submit(token, sell('0.2'));
    expectOk(trade.setStopPrice, await up.call(trade.setStopPrice, { id: o.Id, stop_loss_price: '1.102' }, { token }));
    up.setPrice('EURUSD', 1.1025);
    const [closed] = (await deals(token, 3)).data;
    // −0.0025 × 20,000 = −50.
    expect(closed).toMatchObject({ Id: o.Id, CloseReason: 4, UpdatePrice: 1.1025, FactProfits: -50 });
    expect(await balanceOf(token)).toBe(99949); // 100,000 − 1 − 50
  });

  test('on a pending order the stops are judged against its target price', async () => {
    up.setPrice('EURUSD', 1.1);
    const { token } = await up.demo();
    const o = await submit(token, buyLimit('0.1', '1.09'));
    const ok = expectOk(
      trade.setStopPrice,
      await up.call(trade.setStopPrice, { id: o.Id, target_profit_price: '1.095', stop_loss_price: '1.08' }, { token }),
    );
    expect(ok).toMatchObject({ Status: 0, TargetProfitPrice: 1.095, TargetLossPrice: 1.08 });
    expectError(await up.call(trade.setStopPrice, { id: o.Id, stop_loss_price: '1.095' }, { token }), 'StopLossInvalid');
  });

  test('wrong sides, bad prices, finished, foreign and unknown orders are refused', async () => {
    up.setPrice('EURUSD', 1.1);
    const { token } = await up.demo();
    const o = await submit(token, buy('0.1'));
    expectError(await up.call(trade.setStopPrice, { id: o.Id, target_profit_price: '1.099' }, { token }), 'TakeProfitInvalid');
    expectError(await up.call(trade.setStopPrice, { id: o.Id, stop_loss_price: '1.1001' }, { token }), 'StopLossInvalid');
    expectError(await up.call(trade.setStopPrice, { id: o.Id, target_profit_price: '1.123456' }, { token }), 'PriceInvalid');
    expectError(await up.call(trade.setStopPrice, { id: o.Id, target_profit_price: 'abc' }, { token }), 'InvalidRequest');
    // Nothing was set by the refused calls.
    expect((await deals(token, 1)).data[0]).toMatchObject({ TargetProfitPrice: 0, TargetLossPrice: 0 });

    const other = await up.demo();
    expectError(await up.call(trade.setStopPrice, { id: o.Id, target_profit_price: '1.2' }, { token: other.token }), 'OrderNotFound');
    expectError(await up.call(trade.setStopPrice, { id: 999999, target_profit_price: '1.2' }, { token }), 'OrderNotFound');
    expectOk(trade.close, await up.call(trade.close, { id: o.Id }, { token }));
    expectError(await up.call(trade.setStopPrice, { id: o.Id, target_profit_price: '1.2' }, { token }), 'OrderFinished');
    expectError(await up.call(trade.setStopPrice, { target_profit_price: '1.2' }, { token }), 'InvalidRequest');
  });

  test('999 with no token and with a bad token', async () => {
    await expectTokenRequired(up, trade.setStopPrice, { id: 1, target_profit_price: '1.2' });
  });
});

// ---- getBalance ------------------------------------------------------------------------------------

describe('getBalance', () => {
  test('a demo starts with 100,000; a real account with 0; orders take margin and fee', async () => {
    up.setPrice('EURUSD', 1.1);
    const { token } = await up.demo();
    expect(expectOk(trade.getBalance, await up.call(trade.getBalance, {}, { token }))).toEqual({ balance: 100000 });
    await submit(token, buy('0.03', 200));
    // 0.03 × 100,000 × 1.1 ÷ 200 = 16.5; 0.03 × 5 = 0.15.
    expect(await balanceOf(token)).toBe(99983.35);
    const fresh = await registerByEmail(up, freshEmail('empty'));
    expect(expectOk(trade.getBalance, await up.call(trade.getBalance, {}, { token: fresh.token }))).toEqual({ balance: 0 });
  });

  test('999 with no token and with a bad token (its only error)', async () => {
    await expectTokenRequired(up, trade.getBalance);
  });
});

// ---- forexDetail -----------------------------------------------------------------------------------

describe('forexDetail', () => {
  test('balance, held margin, equity, free margin, risk rate and margin ratio, exactly', async () => {
    up.setPrice('EURUSD', 1.1);
    const { token } = await up.demo();
    expect(await detail(token)).toEqual({
      balance: 100000,
      lock_balance: 0,
      equity: 100000,
      free_margin: 100000,
      margin: 0,
      risk_rate: null,
      margin_ratio: 0,
      floating_profit: 0,
      stop_out_level: 50,
      withdraw_pending: 0,
      deposit_pending: 0,
    });
    await submit(token, buy('0.5'));
    up.setPrice('EURUSD', 1.101);
    // balance 99,447.5; margin 550; floating +50; equity 100,047.5; free 99,497.5;
    // risk 100,047.5 ÷ 550 × 100 = 18,190.4545… → 18,190.45; ratio 550 ÷ 100,047.5 × 100 = 0.5497… → 0.55.
    expect(await detail(token)).toEqual({
      balance: 99447.5,
      lock_balance: 550,
      equity: 100047.5,
      free_margin: 99497.5,
      margin: 550,
      risk_rate: 18190.45,
      margin_ratio: 0.55,
      floating_profit: 50,
      stop_out_level: 50,
      withdraw_pending: 0,
      deposit_pending: 0,
    });
  });

  test('999 with no token and with a bad token (its only error)', async () => {
    await expectTokenRequired(up, trade.forexDetail);
  });
});

// ---- forexChange -----------------------------------------------------------------------------------

describe('forexChange', () => {
  test('ledger entries for the opening balance, margin held, fee, margin released and profit, newest first', async () => {
    up.setPrice('EURUSD', 1.1);
    const { token } = await up.demo();
    const o = await submit(token, buy('0.5'));
    up.setPrice('EURUSD', 1.1013);
    expectOk(trade.close, await up.call(trade.close, { id: o.Id }, { token }));
    const log = await ledger(token);
    expect(log.total).toBe(5);
    // Profit (1.1013 − 1.1) × 50,000 = 65.
    expect(log.data.map((e) => [e.Type, e.Value, e.Balance, e.OrderId])).toEqual([
      [9, 65, 100062.5, o.Id],
      [6, 550, 99997.5, o.Id],
      [7, -2.5, 99447.5, o.Id],
      [5, -550, 99450, o.Id],
      [1, 100000, 100000, null],
    ]);
    const en = ledgerNames('en');
    expect(log.data.map((e) => e.MemoTran)).toEqual(['9', '6', '7', '5', '1'].map((t) => en[t]));
    for (const e of log.data) expect(Number.isNaN(Date.parse(e.CreatedAtTran))).toBe(false);
    expect(log.data[0]!.Balance).toBe(await balanceOf(token));

    const fr = await ledger(token, 1, 'fr');
    expect(fr.data.map((e) => e.MemoTran)).toEqual(['9', '6', '7', '5', '1'].map((t) => ledgerNames('fr')[t]));
  });

  test('a cancelled order books margin released and fee refunded', async () => {
    up.setPrice('EURUSD', 1.1);
    const { token } = await up.demo();
    const o = await submit(token, buyLimit('0.2', '1.09'));
    expectOk(trade.cancelTrade, await up.call(trade.cancelTrade, { id: o.Id }, { token }));
    // 0.2 × 100,000 × 1.09 ÷ 100 = 218; fee 1.
    const log = await ledger(token);
    expect(log.data.map((e) => [e.Type, e.Value, e.Balance])).toEqual([
      [8, 1, 100000],
      [6, 218, 99999],
      [7, -1, 99781],
      [5, -218, 99782],
      [1, 100000, 100000],
    ]);
  });

  test('pages of 20 with the total beside data; each balance follows from the one before', async () => {
    up.setPrice('EURUSD', 1.1);
    const { token } = await up.demo();
    for (let i = 0; i < 12; i++) await submit(token, buy('0.01'));
    const p1 = await ledger(token, 1);
    const p2 = await ledger(token, 2);
    const p3 = await ledger(token, 3);
    expect([p1.data.length, p2.data.length, p3.data.length]).toEqual([20, 5, 0]);
    for (const p of [p1, p2, p3]) expect(p.total).toBe(25);
    const all = [...p1.data, ...p2.data];
    expect(new Set(all.map((e) => e.Id)).size).toBe(25);
    for (let i = 0; i < all.length - 1; i++) {
      expect(all[i]!.Id).toBeGreaterThan(all[i + 1]!.Id);
      expect(Math.round((all[i + 1]!.Balance + all[i]!.Value) * 1e6)).toBe(Math.round(all[i]!.Balance * 1e6));
    }
    // 12 × (0.01 × 100,000 × 1.1 ÷ 100 + 0.01 × 5) = 12 × 11.05 = 132.6
    expect(all[0]!.Balance).toBe(99867.4);
  });

  test('page 0 or a non-number page is an invalid request', async () => {
    const { token } = await up.demo();
    expectError(await up.call(trade.forexChange, { page: 0 }, { token }), 'InvalidRequest');
    expectError(await up.call(trade.forexChange, { page: 'x' }, { token }), 'InvalidRequest');
  });

  test('999 with no token and with a bad token', async () => {
    await expectTokenRequired(up, trade.forexChange, { page: 1 });
  });
});

// ---- resetForexDemoAccount -------------------------------------------------------------------------

describe('resetForexDemoAccount', () => {
  test('closes positions, cancels pending orders and restores 100,000', async () => {
    up.setPrice('EURUSD', 1.1);
    const { token } = await up.demo();
    const holding = await submit(token, buy('0.5'));
    const pending = await submit(token, buyLimit('0.1', '1.09'));
    up.setPrice('EURUSD', 1.098);
    const env = await up.call(trade.resetForexDemoAccount, {}, { token });
    expect(expectOk(trade.resetForexDemoAccount, env)).toEqual({ balance: 100000 });
    expect(await detail(token)).toMatchObject({ balance: 100000, lock_balance: 0, equity: 100000, floating_profit: 0 });
    expect((await deals(token, 1)).total).toBe(0);
    expect((await deals(token, 0)).total).toBe(0);
    const history = await deals(token, 3);
    expect(history.data.map((o) => [o.Id, o.Status, o.CloseReason])).toEqual([
      [pending.Id, 4, null],
      [holding.Id, 3, 5],
    ]);
    // (1.098 − 1.1) × 50,000 = −100.
    expect(history.data[1]!.FactProfits).toBe(-100);
    // 100,000 − 2.5 − 100 = 99,897.5 before the reset entry of +102.5.
    const [resetEntry] = (await ledger(token)).data;
    expect(resetEntry).toMatchObject({ Type: 12, Value: 102.5, Balance: 100000, OrderId: null });
  });

  test('a real account is NotDemoAccount', async () => {
    expectError(await up.call(trade.resetForexDemoAccount, {}, { token: real.token }), 'NotDemoAccount');
  });

  test('999 with no token and with a bad token', async () => {
    await expectTokenRequired(up, trade.resetForexDemoAccount);
  });
});

// ---- what the holder sees of stop-out and negative-balance protection ---------------------------------

describe('stop-out', () => {
  test('at 50 % equity ÷ margin the position closes with CloseReason 2; just above it does not', async () => {
    up.setPrice('BTCUSD', 50000);
    const { token } = await up.demo();
    // 10 × 50,000 ÷ 10 = 50,000 margin; fee 100; balance 49,900. Equity = 99,900 + 10 × (price − 50,000).
    const o = await submit(token, { type: 1, cont: '10', forex_id: id.BTCUSD, status: 1, multiple: 10 });
    up.setPrice('BTCUSD', 42510.01);
    // Equity 25,000.1 > 50 % of 50,000.
    expect((await deals(token, 1)).data.map((x) => x.Id)).toEqual([o.Id]);
    expect((await detail(token)).equity).toBe(25000.1);
    up.setPrice('BTCUSD', 42510);
    expect((await deals(token, 1)).total).toBe(0);
    const [closed] = (await deals(token, 3)).data;
    expect(closed).toMatchObject({ Id: o.Id, CloseReason: 2, UpdatePrice: 42510, FactProfits: -74900 });
    expect(await balanceOf(token)).toBe(25000);
  });

  test('a loss beyond the funds leaves the balance at zero, never below; a demo reset restores it', async () => {
    up.setPrice('BTCUSD', 50000);
    const { token } = await up.demo();
    // 39 × 50,000 ÷ 20 = 97,500 margin; fee 390; balance 2,110.
    const o = await submit(token, { type: 1, cont: '39', forex_id: id.BTCUSD, status: 1, multiple: 20 });
    up.setPrice('BTCUSD', 40000);
    // Loss 10,000 × 39 = 390,000: 2,110 + 97,500 − 390,000 = −290,390, written off.
    const [closed] = (await deals(token, 3)).data;
    expect(closed).toMatchObject({ Id: o.Id, CloseReason: 2, FactProfits: -390000 });
    expect(await detail(token)).toMatchObject({ balance: 0, lock_balance: 0, equity: 0, risk_rate: null, margin_ratio: null });
    const log = await ledger(token);
    expect(log.data.slice(0, 3).map((e) => [e.Type, e.Value, e.Balance])).toEqual([
      [11, 290390, 0],
      [9, -390000, -290390],
      [6, 97500, 99610],
    ]);
    expect(expectOk(trade.resetForexDemoAccount, await up.call(trade.resetForexDemoAccount, {}, { token }))).toEqual({ balance: 100000 });
  });
});
