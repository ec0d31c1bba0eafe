import { describe, expect, test } from 'vitest';
import { AlertDirection } from '../../contract/calls/alerts';
import type { AlertPush, ServerMessage } from '../../contract/ws';
import { privatePushOf, publicPushOf, sseFrame } from './upstream-mapping';

const alertPush = (alert: Partial<AlertPush['alert']> = {}): AlertPush => ({
  type: 'ALERT',
  alert: {
    id: 5,
    forex_id: 2,
    code: 'GBPUSD',
    show_code: 'GBP/USD',
    precision: 5,
    direction: AlertDirection.Above,
    price: 1.305,
    note: 'resistance',
    created_at: '2024-05-01T10:00:00Z',
    triggered_at: '2024-05-01T11:00:00Z',
    triggered_price: 1.306,
    ...alert,
  },
});

/** An event's data in both shapes: the views (version 3) and the shapes before them. */
const parsed = (push: unknown) => {
  const { data, legacy } = push as { data: string; legacy: string };
  return { data: JSON.parse(data) as unknown, legacy: JSON.parse(legacy) as unknown };
};

describe('public pushes', () => {
  test('DAY_MARKET: the quote as a view, keyed by its instrument, and in the shape before version 3', () => {
    const push = publicPushOf({
      type: 'DAY_MARKET',
      symbol: 'EURUSD',
      forex_id: 1,
      market_status: 1,
      quotation: { close: 1.1, change: 0.2, high: 1.2, low: 1.0, open: 1.05, volume: 30 },
    });
    const quote = { instrumentId: 1, price: 1.1, open: 1.05, high: 1.2, low: 1.0, change: 0.2, volume: 30, marketOpen: true };
    expect(push).toMatchObject({ kind: 'quote', instrumentId: 1, code: 'EURUSD', quote });
    expect(parsed(push)).toEqual({
      data: quote,
      legacy: { forex_id: 1, symbol: 'EURUSD', close: 1.1, change: 0.2, high: 1.2, low: 1.0, open: 1.05, volume: 30, market_status: 1 },
    });
    const closed = publicPushOf({
      type: 'DAY_MARKET',
      symbol: 'EURUSD',
      forex_id: 1,
      market_status: 0,
      quotation: { close: 1, change: 0, high: 1, low: 1, open: 1, volume: 0 },
    });
    expect(parsed(closed)).toMatchObject({ data: { marketOpen: false }, legacy: { market_status: 0 } });
  });

  test('KLINE: the candle of a chart (its code and period), keyed by its time', () => {
    const kline = { Time: 60, Open: 1, High: 2, Low: 0.5, Close: 1.5, Volume: 7, Period: '5min' } as const;
    const push = publicPushOf({ type: 'KLINE', symbol: 'EURUSD', forex_id: 1, kline });
    expect(push).toMatchObject({ kind: 'candle', code: 'EURUSD', period: '5min', time: 60 });
    expect(parsed(push)).toEqual({
      data: { instrumentId: 1, code: 'EURUSD', period: '5min', time: 60, open: 1, high: 2, low: 0.5, close: 1.5, volume: 7 },
      legacy: { forex_id: 1, symbol: 'EURUSD', ...kline },
    });
  });

  test('anything else says nothing to the streams', () => {
    expect(publicPushOf({ type: 'sub_result', code: 1, topics: ['DAY_MARKET'] })).toBeNull();
    expect(publicPushOf({ type: 'login_result', code: 1 })).toBeNull();
  });
});

describe('private pushes', () => {
  test('FOREX_TRADE: the account figures in the trader’s words', () => {
    const push = privatePushOf({
      type: 'FOREX_TRADE',
      HazardRate: 250,
      CautionMoneyAll: 1000,
      ProfitsTotal: 12.5,
      OriginCautionMoneyTotal: 2500,
      Balance: 2487.5,
      FreeMargin: 1500,
      TransOrder: [{ Id: 9, FactProfits: 0.5, UpdatePrice: 1.23 }],
    });
    expect(push?.kind).toBe('account');
    expect(parsed(push)).toEqual({
      data: {
        balance: 2487.5,
        equity: 2500,
        margin: 1000,
        freeMargin: 1500,
        profit: 12.5,
        riskRate: 250,
        marginRatio: 40,
        positions: [{ id: 9, profit: 0.5, mark: 1.23 }],
      },
      legacy: {
        equity: 2500,
        margin: 1000,
        risk_rate: 250,
        profit: 12.5,
        balance: 2487.5,
        free_margin: 1500,
        orders: [{ id: 9, profit: 0.5, mark: 1.23 }],
      },
    });
  });

  test('FOREX_CLOSED: the closed order ids, the same in both shapes', () => {
    expect(privatePushOf({ type: 'FOREX_CLOSED', id: [3, 4] })).toEqual({ kind: 'closed', data: '{"ids":[3,4]}', legacy: '{"ids":[3,4]}' });
  });

  test('ALERT: the fired alert, its level and the price that reached it', () => {
    const push = privatePushOf(alertPush());
    expect(push?.kind).toBe('alert');
    expect(parsed(push)).toEqual({
      data: {
        id: 5,
        code: 'GBPUSD',
        symbol: 'GBP/USD',
        digits: 5,
        direction: 'above',
        level: 1.305,
        note: 'resistance',
        createdAt: '2024-05-01T10:00:00Z',
        triggered: { at: '2024-05-01T11:00:00Z', price: 1.306 },
      },
      legacy: {
        id: 5,
        code: 'GBPUSD',
        symbol: 'GBP/USD',
        precision: 5,
        direction: 'above',
        level: 1.305,
        price: 1.306,
        note: 'resistance',
        at: '2024-05-01T11:00:00Z',
      },
    });
    // Without the triggering tick's figures: the level, and no time.
    const bare = privatePushOf(alertPush({ direction: AlertDirection.Below, triggered_at: null, triggered_price: null }));
    expect(parsed(bare)).toMatchObject({
      data: { direction: 'below', level: 1.305, triggered: null },
      legacy: { direction: 'below', level: 1.305, price: 1.305, at: '' },
    });
  });

  test('a refused login is told with its code; an accepted one and sub results say nothing', () => {
    expect(privatePushOf({ type: 'login_result', code: 999 })).toEqual({ kind: 'login-refused', code: 999 });
    expect(privatePushOf({ type: 'login_result', code: 1 })).toBeNull();
    expect(privatePushOf({ type: 'sub_result', code: 1, topics: [] } as ServerMessage)).toBeNull();
  });
});

test('an SSE frame: id, event and one line of data, ended by a blank line; without an id, no id line', () => {
  expect(sseFrame('ab12cd34.7', 'closed', '{"ids":[1]}')).toBe('id: ab12cd34.7\nevent: closed\ndata: {"ids":[1]}\n\n');
  expect(sseFrame(null, 'status', '{"state":"up"}')).toBe('event: status\ndata: {"state":"up"}\n\n');
});
