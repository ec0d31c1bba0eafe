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

describe('public pushes', () => {
  test('DAY_MARKET: the quote event’s data, keyed by its instrument, with its market status', () => {
    const push = publicPushOf({
      type: 'DAY_MARKET',
      symbol: 'EURUSD',
      forex_id: 1,
      market_status: 1,
      quotation: { close: 1.1, change: 0.2, high: 1.2, low: 1.0, open: 1.05, volume: 30 },
    });
    const quote = { forex_id: 1, symbol: 'EURUSD', close: 1.1, change: 0.2, high: 1.2, low: 1.0, open: 1.05, volume: 30, market_status: 1 };
    expect(push).toEqual({ kind: 'quote', instrumentId: 1, marketStatus: 1, quote, data: JSON.stringify(quote) });
  });

  test('KLINE: the candle of a chart (its code and period), keyed by its time', () => {
    const kline = { Time: 60, Open: 1, High: 2, Low: 0.5, Close: 1.5, Volume: 7, Period: '5min' } as const;
    const push = publicPushOf({ type: 'KLINE', symbol: 'EURUSD', forex_id: 1, kline });
    expect(push).toMatchObject({ kind: 'candle', code: 'EURUSD', period: '5min', time: 60 });
    expect(JSON.parse((push as { data: string }).data)).toEqual({ forex_id: 1, symbol: 'EURUSD', ...kline });
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
    expect(JSON.parse((push as { data: string }).data)).toEqual({
      equity: 2500,
      margin: 1000,
      risk_rate: 250,
      profit: 12.5,
      balance: 2487.5,
      free_margin: 1500,
      orders: [{ id: 9, profit: 0.5, mark: 1.23 }],
    });
  });

  test('FOREX_CLOSED: the closed order ids', () => {
    expect(privatePushOf({ type: 'FOREX_CLOSED', id: [3, 4] })).toEqual({ kind: 'closed', data: '{"ids":[3,4]}' });
  });

  test('ALERT: the fired alert, its level and the price that reached it', () => {
    const push = privatePushOf(alertPush());
    expect(push?.kind).toBe('alert');
    expect(JSON.parse((push as { data: string }).data)).toEqual({
      id: 5,
      code: 'GBPUSD',
      symbol: 'GBP/USD',
      precision: 5,
      direction: 'above',
      level: 1.305,
      price: 1.306,
      note: 'resistance',
      at: '2024-05-01T11:00:00Z',
    });
    // Without the triggering tick's figures: the level, and no time.
    const bare = privatePushOf(alertPush({ direction: AlertDirection.Below, triggered_at: null, triggered_price: null }));
    expect(JSON.parse((bare as { data: string }).data)).toMatchObject({ direction: 'below', level: 1.305, price: 1.305, at: '' });
  });

  test('a refused login is told with its code; an accepted one and sub results say nothing', () => {
    expect(privatePushOf({ type: 'login_result', code: 999 })).toEqual({ kind: 'login-refused', code: 999 });
    expect(privatePushOf({ type: 'login_result', code: 1 })).toBeNull();
    expect(privatePushOf({ type: 'sub_result', code: 1, topics: [] } as ServerMessage)).toBeNull();
  });
});

test('an SSE frame: id, event and one line of data, ended by a blank line', () => {
  expect(sseFrame('ab12cd34.7', 'closed', '{"ids":[1]}')).toBe('id: ab12cd34.7\nevent: closed\ndata: {"ids":[1]}\n\n');
});
