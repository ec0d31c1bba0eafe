/**
 * Issue 2 "done when": a demo account opens a market order, sees it holding with a changing FactProfits,
 * closes it, finds it in history, and ends with exactly 100,000 − fee + profit.
 */
import { afterAll, beforeAll, expect, test } from 'vitest';
import { trade } from '../../contract/index';
import { startTestUpstream, type TestUpstream } from '../testing';

let up: TestUpstream;
beforeAll(async () => {
  up = await startTestUpstream();
  up.forceMarket('EURUSD', 'open');
  up.setPrice('EURUSD', 1.1);
});
afterAll(() => up.close());

test('demo account: open, watch, close, and the balance adds up to the cent', async () => {
  const { token } = await up.demo();
  const before = await up.call(trade.getBalance, {}, { token });
  expect(before).toMatchObject({ code: 1, data: { balance: 100000 } });

  const submitted = await up.call(trade.submit, { type: 1, cont: '0.5', forex_id: 1, status: 1, multiple: 100 }, { token });
  expect(submitted.code).toBe(1);
  const order = trade.OrderSchema.parse(submitted.data);
  // 0.5 lot × 100,000 × 1.1 ÷ 100 = 550 USD margin; 0.5 lot × 5 USD = 2.5 USD fee (per-lot fees).
  expect(order).toMatchObject({ Status: 1, Price: 1.1, CautionMoney: 550, TradeFee: 2.5, Quantity: 0.5 });

  up.setPrice('EURUSD', 1.10123);
  const holding1 = await up.call(trade.myDeal, { status: 1, page: 1 }, { token });
  const rows1 = trade.OrderSchema.array().parse(holding1.data);
  expect(rows1.map((o) => o.Id)).toEqual([order.Id]);
  // (1.10123 − 1.1) × 0.5 × 100,000 = 61.5 USD
  expect(rows1[0]!.FactProfits).toBe(61.5);
  expect(holding1).toMatchObject({ total: 1, all_fact_profits: 61.5 });

  up.setPrice('EURUSD', 1.10087);
  const holding2 = await up.call(trade.myDeal, { status: 1, page: 1 }, { token });
  const profit2 = trade.OrderSchema.array().parse(holding2.data)[0]!.FactProfits;
  expect(profit2).toBe(43.5);
  expect(profit2).not.toBe(rows1[0]!.FactProfits);

  const closed = await up.call(trade.close, { id: order.Id }, { token });
  expect(closed).toMatchObject({ code: 1, data: { Status: 3, CloseReason: 1, FactProfits: 43.5, UpdatePrice: 1.10087 } });

  expect((await up.call(trade.myDeal, { status: 1 }, { token })).data).toEqual([]);
  const history = await up.call(trade.myDeal, { status: 3 }, { token });
  expect(
    trade.OrderSchema.array()
      .parse(history.data)
      .map((o) => [o.Id, o.Status]),
  ).toEqual([[order.Id, 3]]);

  const after = await up.call(trade.getBalance, {}, { token });
  expect(after.data).toEqual({ balance: 100000 - 2.5 + 43.5 });
  expect(after.data).toEqual({ balance: 100041 });
});
