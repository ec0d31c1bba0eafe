/** `/v1/ws` against a real upstream: ping/pong, login, public and private topics. */
import { afterAll, beforeAll, expect, test } from 'vitest';
import WebSocket from 'ws';
import { trade } from '../../contract/index';
import { CHART_PERIODS } from '../../contract/enums';
import { ServerMessageSchema, type ServerMessage } from '../../contract/ws';
import { startTestUpstream, type TestUpstream } from '../testing';

let up: TestUpstream;
beforeAll(async () => {
  up = await startTestUpstream();
  up.forceMarket('EURUSD', 'open');
  up.setPrice('EURUSD', 1.1);
});
afterAll(() => up.close());

/** A socket that records every message it receives; `next` waits for one that matches. */
async function connect() {
  const socket = new WebSocket(`${up.url.replace('http', 'ws')}/v1/ws`);
  /** Messages not yet taken by `next`. */
  const received: (ServerMessage | 'pong')[] = [];
  const waiters: { match: (m: ServerMessage | 'pong') => boolean; resolve: (m: ServerMessage | 'pong') => void }[] = [];
  socket.on('message', (data) => {
    const text = data.toString();
    const msg = text === 'pong' ? 'pong' : ServerMessageSchema.parse(JSON.parse(text));
    const waiter = waiters.find((w) => w.match(msg));
    if (!waiter) return received.push(msg);
    waiters.splice(waiters.indexOf(waiter), 1);
    waiter.resolve(msg);
  });
  await new Promise((resolve, reject) => socket.once('open', resolve).once('error', reject));
  return {
    socket,
    received,
    send: (m: unknown) => socket.send(typeof m === 'string' ? m : JSON.stringify(m)),
    next<T extends ServerMessage | 'pong'>(match: (m: ServerMessage | 'pong') => m is T, timeoutMs = 3000): Promise<T> {
      const seen = received.find(match);
      if (seen) {
        received.splice(received.indexOf(seen), 1);
        return Promise.resolve(seen as T);
      }
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error('no matching message')), timeoutMs);
        waiters.push({ match, resolve: (m) => (clearTimeout(timer), resolve(m as T)) });
      });
    },
  };
}

const is =
  <K extends ServerMessage['type']>(type: K) =>
  (m: ServerMessage | 'pong'): m is Extract<ServerMessage, { type: K }> =>
    m !== 'pong' && m.type === type;

test('ping is answered with pong', async () => {
  const c = await connect();
  c.send('ping');
  expect(await c.next((m): m is 'pong' => m === 'pong')).toBe('pong');
  c.socket.close();
});

test('login answers code 1 for a good token and 999 for a bad one', async () => {
  const { token } = await up.demo();
  const c = await connect();
  c.send({ type: 'login', params: { token: 'not-a-token' } });
  expect(await c.next(is('login_result'))).toEqual({ type: 'login_result', code: 999 });
  c.send({ type: 'login', params: token });
  expect(await c.next(is('login_result'))).toEqual({ type: 'login_result', code: 1 });
  c.socket.close();
});

test('DAY_MARKET: a snapshot on subscribing, then a push on every tick', async () => {
  const c = await connect();
  c.send({ type: 'sub', params: { topics: ['DAY_MARKET'] } });
  expect(await c.next(is('sub_result'))).toMatchObject({ code: 1, topics: ['DAY_MARKET'] });
  const snapshot = await c.next((m): m is Extract<ServerMessage, { type: 'DAY_MARKET' }> => is('DAY_MARKET')(m) && m.symbol === 'EURUSD');
  expect(snapshot.quotation.close).toBe(1.1);
  up.setPrice('EURUSD', 1.10042);
  const push = await c.next(
    (m): m is Extract<ServerMessage, { type: 'DAY_MARKET' }> =>
      is('DAY_MARKET')(m) && m.symbol === 'EURUSD' && m.quotation.close === 1.10042,
  );
  expect(push).toMatchObject({ forex_id: 1, market_status: 1 });
  c.socket.close();
});

test('KLINE.<code>: one push per period on a tick of that code, none for other codes', async () => {
  const c = await connect();
  c.send({ type: 'sub', params: ['KLINE.EURUSD'] });
  await c.next(is('sub_result'));
  up.setPrice('BTCUSD', 60000);
  up.setPrice('EURUSD', 1.1011);
  const periods = new Set<string>();
  while (periods.size < CHART_PERIODS.length) {
    const k = await c.next(is('KLINE'));
    expect(k).toMatchObject({ symbol: 'EURUSD', forex_id: 1, kline: { Close: 1.1011 } });
    periods.add(k.kline.Period);
  }
  expect([...periods].sort()).toEqual([...CHART_PERIODS].sort());
  expect(c.received.some((m) => is('KLINE')(m) && m.symbol === 'BTCUSD')).toBe(false);
  c.socket.close();
});

test('private topics need a login', async () => {
  const c = await connect();
  c.send({ type: 'sub', params: ['FOREX_TRADE', 'FOREX_CLOSED'] });
  expect(await c.next(is('sub_result'))).toEqual({ type: 'sub_result', code: 999, topics: [] });
  c.socket.close();
});

test('FOREX_TRADE once a second with the account, FOREX_CLOSED when a take-profit closes an order', async () => {
  const { token } = await up.demo();
  const submitted = await up.call(
    trade.submit,
    { type: 1, cont: '1', forex_id: 1, status: 1, multiple: 100, target_profit_price: '1.2' },
    { token },
  );
  const order = trade.OrderSchema.parse(submitted.data);
  const c = await connect();
  c.send({ type: 'login', params: { token } });
  await c.next(is('login_result'));
  c.send({ type: 'sub', params: { topics: ['FOREX_TRADE', 'FOREX_CLOSED'] } });
  expect(await c.next(is('sub_result'))).toMatchObject({ code: 1 });
  expect(order.Price).toBe(1.1011);
  up.setPrice('EURUSD', 1.1021);
  const push = await c.next(is('FOREX_TRADE'), 2500);
  expect(push.TransOrder).toEqual([{ Id: order.Id, FactProfits: 100, UpdatePrice: 1.1021 }]);
  expect(push).toMatchObject({ ProfitsTotal: 100, CautionMoneyAll: order.CautionMoney });
  up.setPrice('EURUSD', 1.2);
  expect(await c.next(is('FOREX_CLOSED'))).toEqual({ type: 'FOREX_CLOSED', id: [order.Id] });
  c.socket.close();
});

test('FOREX_CLOSED reaches every socket of the user for their own close and cancel, made on another device', async () => {
  const { token } = await up.demo();
  const holding = trade.OrderSchema.parse(
    (await up.call(trade.submit, { type: 1, cont: '1', forex_id: 1, status: 1, multiple: 100 }, { token })).data,
  );
  const pending = trade.OrderSchema.parse(
    (await up.call(trade.submit, { type: 1, cont: '1', forex_id: 1, status: 0, multiple: 100, target_price: '1.05' }, { token })).data,
  );
  // Device A watches; device B (a plain HTTP call with the same account) closes and cancels.
  const a = await connect();
  a.send({ type: 'login', params: { token } });
  await a.next(is('login_result'));
  a.send({ type: 'sub', params: { topics: ['FOREX_CLOSED'] } });
  expect(await a.next(is('sub_result'))).toMatchObject({ code: 1 });
  expect((await up.call(trade.close, { id: holding.Id }, { token })).code).toBe(1);
  expect(await a.next(is('FOREX_CLOSED'))).toEqual({ type: 'FOREX_CLOSED', id: [holding.Id] });
  expect((await up.call(trade.cancelTrade, { id: pending.Id }, { token })).code).toBe(1);
  expect(await a.next(is('FOREX_CLOSED'))).toEqual({ type: 'FOREX_CLOSED', id: [pending.Id] });
  a.socket.close();
});

test('a demo reset tells every socket of the user which positions and pending orders it ended', async () => {
  const { token } = await up.demo();
  const order = async (status: 0 | 1) =>
    trade.OrderSchema.parse(
      (
        await up.call(
          trade.submit,
          { type: 1, cont: '1', forex_id: 1, status, multiple: 100, ...(status === 0 ? { target_price: '1.05' } : {}) },
          { token },
        )
      ).data,
    ).Id;
  const holding = await order(1);
  const pending = await order(0);
  const a = await connect();
  a.send({ type: 'login', params: { token } });
  await a.next(is('login_result'));
  a.send({ type: 'sub', params: { topics: ['FOREX_CLOSED'] } });
  expect(await a.next(is('sub_result'))).toMatchObject({ code: 1 });
  expect((await up.call(trade.resetForexDemoAccount, {}, { token })).code).toBe(1);
  const ended = new Set<number>();
  while (ended.size < 2) for (const id of ((await a.next(is('FOREX_CLOSED'))) as { id: number[] }).id) ended.add(id);
  expect([...ended].sort()).toEqual([holding, pending].sort());
  a.socket.close();
});
