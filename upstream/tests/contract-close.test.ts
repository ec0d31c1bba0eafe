/**
 * Contract tests of partial close (`close` with `cont`) and `close_all`, on a real upstream. Prices are set
 * by the test, so every figure is exact: EURUSD margin = lots × 100,000 × price ÷ 100, fee = lots × 5 USD,
 * profit = (exit − entry) × lots × 100,000; XAGUSD has a fixed margin of 50 USD a lot.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { market, trade, type Order } from '../../contract/index';
import { ErrorCode } from '../../contract/errors';
import { startTestUpstream, type TestUpstream } from '../testing';
import { expectError, expectOk, expectTokenRequired, extrasOf } from './contract-helpers';

let up: TestUpstream;
let id: Record<string, number>;

beforeAll(async () => {
  up = await startTestUpstream();
  for (const code of ['EURUSD', 'XAGUSD']) up.forceMarket(code, 'open');
  const list = expectOk(market.tradeList, await up.call(market.tradeList));
  id = Object.fromEntries(list.map((i) => [i.Code, i.Id]));
});
afterAll(() => up.close());

const order = (side: 1 | 2, cont: string, code = 'EURUSD', extra: Record<string, unknown> = {}) => ({
  type: side,
  cont,
  forex_id: id[code],
  status: 1,
  multiple: code === 'EURUSD' ? 100 : 20,
  ...extra,
});

async function submit(token: string, input: Record<string, unknown>): Promise<Order> {
  return expectOk(trade.submit, await up.call(trade.submit, input, { token }));
}
async function close(token: string, input: Record<string, unknown>): Promise<Order> {
  return expectOk(trade.close, await up.call(trade.close, input, { token }));
}
async function holding(token: string) {
  return expectOk(trade.myDeal, await up.call(trade.myDeal, { status: 1 }, { token }));
}
async function history(token: string) {
  const env = await up.call(trade.myDeal, { status: 3 }, { token });
  return { data: expectOk(trade.myDeal, env), ...extrasOf(trade.myDeal, env) };
}
async function account(token: string) {
  return expectOk(trade.forexDetail, await up.call(trade.forexDetail, {}, { token }));
}

describe('close with cont (partial close)', () => {
  test('closes part: the part is its own closed row; the position keeps its id, TP, SL and the rest', async () => {
    up.setPrice('EURUSD', 1.1);
    const { token } = await up.demo();
    const o = await submit(token, order(1, '0.5', 'EURUSD', { target_profit_price: '1.2', stop_loss_price: '1.05' }));
    up.setPrice('EURUSD', 1.1013);
    const part = await close(token, { id: o.Id, cont: '0.2' });
    // 0.0013 × 20,000 = 26 realised; 0.2 of 550 margin and of 2.5 fee.
    expect(part).toMatchObject({
      Status: 3,
      CloseReason: 1,
      ParentId: o.Id,
      Quantity: 0.2,
      Price: 1.1,
      UpdatePrice: 1.1013,
      FactProfits: 26,
      CautionMoney: 220,
      TradeFee: 1,
    });
    expect(part.Id).not.toBe(o.Id);
    const [rest, ...others] = await holding(token);
    expect(others).toEqual([]);
    expect(rest).toMatchObject({
      Id: o.Id,
      Status: 1,
      ParentId: null,
      Quantity: 0.3,
      CautionMoney: 330,
      TradeFee: 1.5,
      TargetProfitPrice: 1.2,
      TargetLossPrice: 1.05,
      FactProfits: 39,
    });
    // 100,000 − 550 − 2.5 (at submission) + 220 + 26.
    expect(await account(token)).toMatchObject({ balance: 99693.5, lock_balance: 330, floating_profit: 39 });
    const h = await history(token);
    expect(h.data.map((x) => [x.Id, x.ParentId, x.Quantity])).toEqual([[part.Id, o.Id, 0.2]]);
    expect(h.all_fact_profits).toBe(26);
    // The ledger names the part: its margin comes back and its profit is realised against it.
    const log = expectOk(trade.forexChange, await up.call(trade.forexChange, {}, { token }));
    expect(log.filter((e) => e.OrderId === part.Id).map((e) => [e.Type, e.Value])).toEqual([
      [9, 26],
      [6, 220],
    ]);

    // Closing what is left (cont = held) is a full close of the position itself.
    const last = await close(token, { id: o.Id, cont: '0.3' });
    expect(last).toMatchObject({ Id: o.Id, Status: 3, ParentId: null, Quantity: 0.3, FactProfits: 39, CautionMoney: 330 });
    expect(await account(token)).toMatchObject({ balance: 100062.5, lock_balance: 0 });
    expect(await holding(token)).toEqual([]);
  });

  test('a sell realises its part when the price falls; no cont closes all of it', async () => {
    up.setPrice('EURUSD', 1.1);
    const { token } = await up.demo();
    const s = await submit(token, order(2, '1'));
    up.setPrice('EURUSD', 1.099);
    expect(await close(token, { id: s.Id, cont: '0.25' })).toMatchObject({ FactProfits: 25, Quantity: 0.25, ParentId: s.Id });
    expect(await close(token, { id: s.Id })).toMatchObject({ Id: s.Id, FactProfits: 75, Quantity: 0.75 });
  });

  test('refusals: off the step or below the minimum, more than held, not open, not yours, market closed, malformed', async () => {
    up.setPrice('EURUSD', 1.1);
    const { token } = await up.demo();
    const o = await submit(token, order(1, '0.5'));
    for (const cont of ['0.005', '0.015', '0']) expectError(await up.call(trade.close, { id: o.Id, cont }, { token }), 'LotsInvalid');
    expectError(await up.call(trade.close, { id: o.Id, cont: '0.51' }, { token }), 'CloseLotsAboveHeld');
    // The message is the upstream's, in the caller's language.
    const hk = await up.call(trade.close, { id: o.Id, cont: '0.6' }, { token, lang: 'hk' });
    expect(hk).toMatchObject({ code: ErrorCode.CloseLotsAboveHeld, msg: '平倉手數不能多於持倉手數。' });
    for (const cont of ['abc', '-0.1', '']) expectError(await up.call(trade.close, { id: o.Id, cont }, { token }), 'InvalidRequest');
    const other = await up.demo();
    expectError(await up.call(trade.close, { id: o.Id, cont: '0.1' }, { token: other.token }), 'OrderNotFound');
    const pending = await submit(token, order(1, '0.1', 'EURUSD', { status: 0, target_price: '1.09' }));
    expectError(await up.call(trade.close, { id: pending.Id, cont: '0.05' }, { token }), 'OrderNotHolding');
    up.forceMarket('EURUSD', 'closed');
    try {
      expectError(await up.call(trade.close, { id: o.Id, cont: '0.1' }, { token }), 'MarketClosed');
    } finally {
      up.forceMarket('EURUSD', 'open');
    }
    // Nothing was taken by any refusal.
    expect((await holding(token)).find((x) => x.Id === o.Id)).toMatchObject({ Quantity: 0.5, CautionMoney: 550 });
    await expectTokenRequired(up, trade.close, { id: o.Id, cont: '0.1' });
  });

  test('a repeated idempotency key returns the first part and closes nothing more', async () => {
    up.setPrice('EURUSD', 1.1);
    const { token } = await up.demo();
    const o = await submit(token, order(1, '0.5'));
    const b = await submit(token, order(1, '0.5'));
    const first = await close(token, { id: o.Id, cont: '0.1', idempotency_key: 'close-key-1' });
    const again = await close(token, { id: o.Id, cont: '0.1', idempotency_key: 'close-key-1' });
    expect(again.Id).toBe(first.Id);
    expect((await holding(token)).find((x) => x.Id === o.Id)?.Quantity).toBe(0.4);
    expectError(await up.call(trade.close, { id: b.Id, cont: '0.1', idempotency_key: 'close-key-1' }, { token }), 'IdempotencyKeyReused');
  });

  test("an order's key sent again after part of it was closed returns that order, not a refusal", async () => {
    // The soak's finding: a retry of a lost answer, sent after the trader closed part of the position, was refused
    // as another order under the same key (the row's lots had shrunk), telling the trader no order was placed.
    up.setPrice('EURUSD', 1.1);
    const { token } = await up.demo();
    const o = await submit(token, order(1, '0.5', 'EURUSD', { idempotency_key: 'place-key-1' }));
    await close(token, { id: o.Id, cont: '0.2' });
    const again = await submit(token, order(1, '0.5', 'EURUSD', { idempotency_key: 'place-key-1' }));
    expect(again.Id).toBe(o.Id);
    expect((await holding(token)).filter((x) => x.Id === o.Id).map((x) => x.Quantity)).toEqual([0.3]);
    expectError(
      await up.call(trade.submit, order(1, '0.3', 'EURUSD', { idempotency_key: 'place-key-1' }), { token }),
      'IdempotencyKeyReused',
    );
  });
});

describe('close_all', () => {
  test('loss closes only the losing positions, profit only the winning ones, each with its realised profit', async () => {
    up.setPrice('EURUSD', 1.1);
    up.setPrice('XAGUSD', 30);
    const { token } = await up.demo();
    const win = await submit(token, order(1, '0.1'));
    const lose = await submit(token, order(2, '0.1'));
    const lose2 = await submit(token, order(2, '0.2'));
    const flat = await submit(token, order(1, '1', 'XAGUSD'));
    up.setPrice('EURUSD', 1.101);
    const loss = expectOk(trade.closeAll, await up.call(trade.closeAll, { scope: 'loss' }, { token }));
    // A sell of 0.1 loses 0.001 × 10,000 = 10; of 0.2, 20.
    expect(loss).toEqual({
      closed: [
        { id: lose.Id, profit: -10 },
        { id: lose2.Id, profit: -20 },
      ],
      failed: [],
      profit: -30,
    });
    expect((await holding(token)).map((x) => x.Id).sort()).toEqual([win.Id, flat.Id].sort());
    // Only XAGUSD, and it is flat: neither winning nor losing.
    expect(expectOk(trade.closeAll, await up.call(trade.closeAll, { scope: 'profit', forex_id: id.XAGUSD }, { token }))).toEqual({
      closed: [],
      failed: [],
      profit: 0,
    });
    expect(expectOk(trade.closeAll, await up.call(trade.closeAll, { scope: 'profit' }, { token }))).toEqual({
      closed: [{ id: win.Id, profit: 10 }],
      failed: [],
      profit: 10,
    });
    expect((await holding(token)).map((x) => x.Id)).toEqual([flat.Id]);
    expect((await account(token)).lock_balance).toBe(50);
  });

  test('one transaction per position: a closed market fails its own positions only; a repeated key answers the first time', async () => {
    up.setPrice('EURUSD', 1.1);
    up.setPrice('XAGUSD', 30);
    const { token } = await up.demo();
    const eur = await submit(token, order(1, '0.1'));
    const xag = await submit(token, order(1, '1', 'XAGUSD'));
    up.forceMarket('EURUSD', 'closed');
    let answer;
    try {
      answer = expectOk(trade.closeAll, await up.call(trade.closeAll, { scope: 'all', idempotency_key: 'sweep-1' }, { token, lang: 'de' }));
    } finally {
      up.forceMarket('EURUSD', 'open');
    }
    expect(answer).toEqual({
      closed: [{ id: xag.Id, profit: 0 }],
      failed: [{ id: eur.Id, code: ErrorCode.MarketClosed, msg: expect.any(String) }],
      profit: 0,
    });
    expect(answer.failed[0]!.msg).not.toBe('The market is closed.');
    // The same confirmation sent again: the first answer, and the now-open EURUSD position stays.
    const again = expectOk(trade.closeAll, await up.call(trade.closeAll, { scope: 'all', idempotency_key: 'sweep-1' }, { token }));
    expect(again).toEqual(answer);
    expect((await holding(token)).map((x) => x.Id)).toEqual([eur.Id]);
    expect(expectOk(trade.closeAll, await up.call(trade.closeAll, { scope: 'all' }, { token })).closed.map((c) => c.id)).toEqual([eur.Id]);
    expect(await account(token)).toMatchObject({ lock_balance: 0 });
  });

  test('malformed requests and 999', async () => {
    const { token } = await up.demo();
    for (const input of [{}, { scope: 'losers' }, { scope: 'all', forex_id: 'x' }]) {
      expectError(await up.call(trade.closeAll, input, { token }), 'InvalidRequest');
    }
    expect(expectOk(trade.closeAll, await up.call(trade.closeAll, { scope: 'all' }, { token }))).toEqual({
      closed: [],
      failed: [],
      profit: 0,
    });
    expect(up.app.hasRoute({ method: 'POST', url: trade.closeAll.path })).toBe(true);
    await expectTokenRequired(up, trade.closeAll, { scope: 'all' });
  });
});
