/**
 * The product call's contract fields (issue 40, the Contract screen): the weekly session, the least stop
 * distance and the maximum lots are optional. The reference upstream sends the session its market status
 * follows and a stop distance of 0 (its engine takes a stop at any distance on the right side); it has no
 * maximum lots, so it sends none. The web maps an answer without any of them to nulls and leaves those rows out.
 */
import { afterAll, beforeAll, expect, test } from 'vitest';
import { market } from '../../contract/index';
import { instrumentContractView, instrumentView } from '../../contract/views';
import { startTestUpstream, type TestUpstream } from '../testing';
import { expectOk } from './contract-helpers';

const WEEK = 7 * 24 * 60;
/** Sunday 22:00 to Friday 22:00 UTC, in minutes from Sunday 00:00 UTC (upstream.md: trading hours). */
const WEEKDAYS = [{ Open: 22 * 60, Close: 5 * 24 * 60 + 22 * 60 }];
/** A Saturday noon, UTC: forex and indices closed, crypto open. */
const SATURDAY_NOON = Date.UTC(2026, 10, 28, 12);

let real: TestUpstream;
let always: TestUpstream;
beforeAll(async () => {
  [real, always] = await Promise.all([
    startTestUpstream({ clock: () => SATURDAY_NOON, marketHours: 'real' }),
    startTestUpstream({ clock: () => SATURDAY_NOON, marketHours: 'always' }),
  ]);
});
afterAll(async () => {
  await Promise.all([real.close(), always.close()]);
});

async function listed(up: TestUpstream, code: string) {
  const list = expectOk(market.tradeList, await up.call(market.tradeList, { searchCurrency: code }));
  return list.find((i) => i.Code === code)!;
}

test('a forex pair and an index carry the weekday session their status follows, a stop distance of 0 and no maximum lots', async () => {
  for (const code of ['EURUSD', 'US30']) {
    const i = await listed(real, code);
    expect(i.TradingSessions, code).toEqual(WEEKDAYS);
    expect(i.StopsLevel, code).toBe(0);
    expect('ForexMaxCont' in i, code).toBe(false);
    // Saturday is outside the session, and the status says so.
    expect(i.MarketStatus, code).toBe(0);
    expect(instrumentContractView(i), code).toEqual({ maxLots: null, stopsLevel: 0, sessions: [{ open: 1320, close: 8520 }] });
  }
});

test('crypto never closes, and neither does anything under always-open hours', async () => {
  expect((await listed(real, 'BTCUSD')).TradingSessions).toEqual([{ Open: 0, Close: WEEK }]);
  for (const code of ['EURUSD', 'US30']) {
    const i = await listed(always, code);
    expect(i.TradingSessions, code).toEqual([{ Open: 0, Close: WEEK }]);
    expect(i.MarketStatus, code).toBe(1);
  }
});

test('a broker that sends none of the fields still passes the contract, and the web reads nulls', async () => {
  const i = await listed(real, 'EURUSD');
  const { TradingSessions, StopsLevel, ...bare } = i;
  expect(TradingSessions).toBeDefined();
  expect(StopsLevel).toBeDefined();
  const parsed = market.tradeList.response.parse([bare]);
  expect(instrumentContractView(parsed[0]!)).toEqual({ maxLots: null, stopsLevel: null, sessions: null });
  // The rest of the instrument reads as before.
  expect(instrumentView(parsed[0]!)).toEqual(instrumentView(i));
});

/** A product as another broker's backend might answer it: the required fields only. */
const OTHER_BROKER_PRODUCT = {
  Id: 7,
  Code: 'GER40',
  ShowCode: 'GER40',
  Logo: '',
  CategoryId: 4,
  MarketStatus: 1,
  PricePrecision: 1,
  Pip: 0.1,
  ForexContNum: 1,
  ForexMinCont: 0.1,
  ForexFeeRate: 2,
  MarginMode: 2,
  HasForexMultiple: [{ Value: 20 }],
  ForexQuotations: { Open: 1, Close: 1, Change: 0, High: 1, Low: 1, Volume: 0 },
  QuoteCurrency: 'EUR',
};

test('one that sends them all is read in the trader’s words; a session out of the week is refused', () => {
  const i = { ...OTHER_BROKER_PRODUCT, ForexMaxCont: 50, StopsLevel: 30, TradingSessions: [{ Open: 0, Close: 600 }] };
  const [parsed] = market.tradeList.response.parse([i]);
  expect(instrumentContractView(parsed!)).toEqual({ maxLots: 50, stopsLevel: 30, sessions: [{ open: 0, close: 600 }] });
  expect(market.tradeList.response.safeParse([{ ...i, TradingSessions: [{ Open: 600, Close: 600 }] }]).success).toBe(false);
  expect(market.tradeList.response.safeParse([{ ...i, TradingSessions: [{ Open: 0, Close: WEEK + 1 }] }]).success).toBe(false);
});
