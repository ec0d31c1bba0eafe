/**
 * Contract tests of the trailing stop: `trail_distance` on `submit` and `set_stop_price` (success, each refusal,
 * 999), the order rows' TrailDistance, and the stop moving with the price in the trader's favour and never back,
 * as my_deal shows it. Prices are set by the test (EURUSD, 5 decimals), so every stop is exact.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { market, trade, type Order } from '../../contract/index';
import { ErrorCode } from '../../contract/errors';
import { startTestUpstream, type TestUpstream } from '../testing';
import { expectError, expectOk, expectTokenRequired } from './contract-helpers';

let up: TestUpstream;
let id: Record<string, number>;

beforeAll(async () => {
  up = await startTestUpstream();
  for (const code of ['EURUSD', 'USDJPY']) up.forceMarket(code, 'open');
  const list = expectOk(market.tradeList, await up.call(market.tradeList));
  id = Object.fromEntries(list.map((i) => [i.Code, i.Id]));
});
afterAll(() => up.close());

const order = (side: 1 | 2, extra: Record<string, unknown> = {}) => ({
  type: side,
  cont: '0.1',
  forex_id: id.EURUSD,
  status: 1,
  multiple: 100,
  ...extra,
});

async function submit(token: string, input: Record<string, unknown>): Promise<Order> {
  return expectOk(trade.submit, await up.call(trade.submit, input, { token }));
}
async function setStops(token: string, input: Record<string, unknown>): Promise<Order> {
  return expectOk(trade.setStopPrice, await up.call(trade.setStopPrice, input, { token }));
}
async function holding(token: string): Promise<Order[]> {
  return expectOk(trade.myDeal, await up.call(trade.myDeal, { status: 1 }, { token }));
}
async function row(token: string, orderId: number, status: 1 | 3 = 1): Promise<Order | undefined> {
  const list = expectOk(trade.myDeal, await up.call(trade.myDeal, { status }, { token }));
  return list.find((o) => o.Id === orderId);
}

describe('submit with trail_distance', () => {
  test('a market buy starts its stop at once, distance behind the fill; it follows the price up, never down', async () => {
    up.setPrice('EURUSD', 1.1);
    const { token } = await up.demo();
    const o = await submit(token, order(1, { trail_distance: '0.0020' }));
    expect(o).toMatchObject({ Status: 1, Price: 1.1, TrailDistance: 0.002, TargetLossPrice: 1.098 });
    up.setPrice('EURUSD', 1.1035);
    expect(await row(token, o.Id)).toMatchObject({ TrailDistance: 0.002, TargetLossPrice: 1.1015 });
    up.setPrice('EURUSD', 1.102);
    expect(await row(token, o.Id)).toMatchObject({ Status: 1, TargetLossPrice: 1.1015 });
    up.setPrice('EURUSD', 1.1014);
    const closed = await row(token, o.Id, 3);
    // Closed by its stop loss at the tick that crossed it, in profit: 0.0014 × 10,000 = 14.
    expect(closed).toMatchObject({ Status: 3, CloseReason: 4, UpdatePrice: 1.1014, FactProfits: 14, TrailDistance: 0.002 });
  });

  test('a market sell keeps its typed stop while it is nearer; the trail takes over once the price falls', async () => {
    up.setPrice('EURUSD', 1.1);
    const { token } = await up.demo();
    const o = await submit(token, order(2, { stop_loss_price: '1.1010', trail_distance: '0.003' }));
    // min(1.1010, 1.1 + 0.003): the typed stop is nearer, so it stays.
    expect(o).toMatchObject({ TrailDistance: 0.003, TargetLossPrice: 1.101 });
    up.setPrice('EURUSD', 1.0975);
    expect(await row(token, o.Id)).toMatchObject({ TargetLossPrice: 1.1005 });
    up.setPrice('EURUSD', 1.099);
    expect(await row(token, o.Id)).toMatchObject({ TargetLossPrice: 1.1005 });
  });

  test('a pending order keeps its distance; its stop starts at the fill', async () => {
    up.setPrice('EURUSD', 1.1);
    const { token } = await up.demo();
    const o = await submit(token, order(1, { status: 0, target_price: '1.095', trail_distance: '0.001' }));
    expect(o).toMatchObject({ Status: 0, TrailDistance: 0.001, TargetLossPrice: 0 });
    up.setPrice('EURUSD', 1.0949);
    expect(await row(token, o.Id)).toMatchObject({ Status: 1, Price: 1.0949, TargetLossPrice: 1.0939 });
  });

  test('0, empty or absent is no trailing stop', async () => {
    up.setPrice('EURUSD', 1.1);
    const { token } = await up.demo();
    for (const trail_distance of ['0', '0.00000', '', undefined]) {
      const o = await submit(token, order(1, { trail_distance }));
      expect(o).toMatchObject({ TrailDistance: 0, TargetLossPrice: 0 });
    }
    up.setPrice('EURUSD', 1.11);
    for (const o of await holding(token)) expect(o).toMatchObject({ TrailDistance: 0, TargetLossPrice: 0 });
  });

  test('refusals, each with its code and a message in the caller’s language; nothing is placed', async () => {
    up.setPrice('EURUSD', 1.1);
    const { token } = await up.demo();
    expectError(await up.call(trade.submit, order(1, { trail_distance: '-0.001' }), { token }), 'TrailDistanceInvalid');
    // EURUSD prices have 5 decimals: a distance is a whole number of 0.00001 ticks.
    expectError(await up.call(trade.submit, order(1, { trail_distance: '0.000015' }), { token }), 'TrailDistanceTicks');
    // At least half the price (1.1): no stop.
    expectError(await up.call(trade.submit, order(1, { trail_distance: '0.55' }), { token }), 'TrailDistanceTooLarge');
    expectError(await up.call(trade.submit, order(2, { trail_distance: '123456789012345678' }), { token }), 'TrailDistanceTooLarge');
    // A pending order is measured against its target.
    expectError(
      await up.call(trade.submit, order(1, { status: 0, target_price: '0.2', trail_distance: '0.1' }), { token }),
      'TrailDistanceTooLarge',
    );
    for (const trail_distance of ['abc', '1e-3', '0,002']) {
      expectError(await up.call(trade.submit, order(1, { trail_distance }), { token }), 'InvalidRequest');
    }
    const hk = await up.call(trade.submit, order(1, { trail_distance: '0.000001' }), { token, lang: 'hk' });
    expect(hk).toMatchObject({ code: ErrorCode.TrailDistanceTicks, msg: '追蹤止蝕距離的小數位數超出此產品的允許範圍。' });
    expect(await holding(token)).toEqual([]);
  });

  test('999 without a valid token', async () => {
    await expectTokenRequired(up, trade.submit, order(1, { trail_distance: '0.002' }));
  });
});

describe('set_stop_price with trail_distance', () => {
  test('sets a trailing stop on a holding: the stop starts from the current price and follows it', async () => {
    up.setPrice('EURUSD', 1.1);
    const { token } = await up.demo();
    const o = await submit(token, order(1));
    up.setPrice('EURUSD', 1.1008);
    const set = await setStops(token, { id: o.Id, target_profit_price: '1.12', trail_distance: '0.0005' });
    expect(set).toMatchObject({ Id: o.Id, TrailDistance: 0.0005, TargetLossPrice: 1.1003, TargetProfitPrice: 1.12 });
    up.setPrice('EURUSD', 1.1021);
    expect(await row(token, o.Id)).toMatchObject({ TrailDistance: 0.0005, TargetLossPrice: 1.1016, TargetProfitPrice: 1.12 });
  });

  test('a typed stop nearer than the distance stays; absent or 0 turns trailing off and the stop stays where it is', async () => {
    up.setPrice('EURUSD', 1.1);
    const { token } = await up.demo();
    const o = await submit(token, order(2));
    expect(await setStops(token, { id: o.Id, stop_loss_price: '1.1004', trail_distance: '0.001' })).toMatchObject({
      TargetLossPrice: 1.1004,
      TrailDistance: 0.001,
    });
    up.setPrice('EURUSD', 1.099);
    expect(await row(token, o.Id)).toMatchObject({ TargetLossPrice: 1.1 });
    // The form sends the stop on screen back: without a distance it stays there and no longer moves.
    expect(await setStops(token, { id: o.Id, stop_loss_price: '1.1', trail_distance: '0' })).toMatchObject({
      TargetLossPrice: 1.1,
      TrailDistance: 0,
    });
    up.setPrice('EURUSD', 1.098);
    expect(await row(token, o.Id)).toMatchObject({ TargetLossPrice: 1.1, TrailDistance: 0 });
    await setStops(token, { id: o.Id, stop_loss_price: '1.1', trail_distance: '0.002' });
    expect(await row(token, o.Id)).toMatchObject({ TargetLossPrice: 1.1, TrailDistance: 0.002 });
    await setStops(token, { id: o.Id, stop_loss_price: '1.1' });
    expect(await row(token, o.Id)).toMatchObject({ TrailDistance: 0 });
  });

  test('on a pending order: kept, measured against the target, started at the fill', async () => {
    up.setPrice('EURUSD', 1.1);
    const { token } = await up.demo();
    const o = await submit(token, order(2, { status: 0, target_price: '1.102' }));
    expect(await setStops(token, { id: o.Id, trail_distance: '0.0010' })).toMatchObject({
      Status: 0,
      TrailDistance: 0.001,
      TargetLossPrice: 0,
    });
    up.setPrice('EURUSD', 1.1021);
    expect(await row(token, o.Id)).toMatchObject({ Status: 1, TargetLossPrice: 1.1031 });
  });

  test('USDJPY (3 decimals): the distance is in yen, in whole 0.001 ticks', async () => {
    up.setPrice('USDJPY', 150);
    const { token } = await up.demo();
    const o = await submit(token, { ...order(1), forex_id: id.USDJPY, multiple: 200 });
    expect(await setStops(token, { id: o.Id, trail_distance: '0.25' })).toMatchObject({ TrailDistance: 0.25, TargetLossPrice: 149.75 });
    expectError(await up.call(trade.setStopPrice, { id: o.Id, trail_distance: '0.0005' }, { token }), 'TrailDistanceTicks');
  });

  test('refusals, each with its code; the order keeps what it had', async () => {
    up.setPrice('EURUSD', 1.1);
    const { token } = await up.demo();
    const o = await submit(token, order(1, { stop_loss_price: '1.09', trail_distance: '0.02' }));
    const before = await row(token, o.Id);
    expect(before).toMatchObject({ TargetLossPrice: 1.09, TrailDistance: 0.02 });
    const call = (trail_distance: unknown, extra: Record<string, unknown> = {}) =>
      up.call(trade.setStopPrice, { id: o.Id, stop_loss_price: '1.09', trail_distance, ...extra }, { token });
    expectError(await call('-0.0010'), 'TrailDistanceInvalid');
    expectError(await call('-5'), 'TrailDistanceInvalid');
    expectError(await call('0.000101'), 'TrailDistanceTicks');
    expectError(await call('0.55'), 'TrailDistanceTooLarge');
    expectError(await call('2'), 'TrailDistanceTooLarge');
    expectError(await call('x'), 'InvalidRequest');
    // The stop-loss check still comes first: a buy's stop above the price.
    expectError(await call('0.001', { stop_loss_price: '1.2' }), 'StopLossInvalid');
    const ru = await up.call(trade.setStopPrice, { id: o.Id, trail_distance: '0.9' }, { token, lang: 'ru' });
    expect(ru).toMatchObject({ code: ErrorCode.TrailDistanceTooLarge, msg: 'Расстояние трейлинг-стопа должно быть меньше половины цены.' });
    expect(await row(token, o.Id)).toEqual(before);
    // Someone else's order, and a closed one.
    const other = await up.demo();
    expectError(await up.call(trade.setStopPrice, { id: o.Id, trail_distance: '0.001' }, { token: other.token }), 'OrderNotFound');
    expectOk(trade.close, await up.call(trade.close, { id: o.Id }, { token }));
    expectError(await call('0.001'), 'OrderFinished');
  });

  test('999 without a valid token', async () => {
    await expectTokenRequired(up, trade.setStopPrice, { id: 1, trail_distance: '0.002' });
  });
});
