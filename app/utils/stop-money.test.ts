import { describe, expect, test } from 'vitest';
import { Side } from '#contract/enums';
import { instrumentTerms as termsOf, type Instrument } from '#contract/views';
import { conversionFor, lotsMilliOf } from '~/routes/trade/estimates';
import { currencyPair } from './instrument.test-support';
import { moneyAtStop, stopConversionOf } from './stop-money';

const M = 1_000_000;
const EURUSD = currencyPair(1, 'EURUSD', 1.1);
const USDJPY = currencyPair(5, 'USDJPY', 150, 3);
const EURJPY = currencyPair(9, 'EURJPY', 165, 3);
const LIST = [EURUSD, USDJPY, EURJPY];

const ticket = (instrument: Instrument, kind: 'takeProfit' | 'stopLoss', stopText: string, reference: number, lots = '0.10') =>
  moneyAtStop({
    terms: termsOf(instrument),
    kind,
    side: null,
    lotsMilli: lotsMilliOf(lots),
    reference,
    stopText,
    conversion: stopConversionOf(conversionFor(instrument, LIST), instrument.id),
  });

describe('money at a stop on the ticket', () => {
  test('a take profit above the price is a buy’s: its profit and pips', () => {
    expect(ticket(EURUSD, 'takeProfit', '1.10500', 110_000)).toEqual({ side: Side.Buy, micro: 50 * M, pips: '50.0' });
  });
  test('a take profit below the price is a sell’s, still a profit', () => {
    expect(ticket(EURUSD, 'takeProfit', '1.09500', 110_000)).toEqual({ side: Side.Sell, micro: 50 * M, pips: '50.0' });
  });
  test('a stop loss shows the loss of the side it belongs to', () => {
    expect(ticket(EURUSD, 'stopLoss', '1.09700', 110_000)).toEqual({ side: Side.Buy, micro: -30 * M, pips: '30.0' });
    expect(ticket(EURUSD, 'stopLoss', '1.10300', 110_000)).toEqual({ side: Side.Sell, micro: -30 * M, pips: '30.0' });
  });
  test('USDJPY converts at the stop price, EURJPY through USDJPY now', () => {
    expect(ticket(USDJPY, 'takeProfit', '151.000', 150_000, '1')).toEqual({ side: Side.Buy, micro: 662_251_656, pips: '100.0' });
    // 1,000 pips of EURJPY on 1 lot: 100,000 JPY at USDJPY 150 = 666.666667 USD.
    expect(ticket(EURJPY, 'takeProfit', '166.000', 165_000, '1')?.micro).toBe(666_666_667);
  });
  test('nothing for an empty, zero or malformed stop, or without lots or a price', () => {
    for (const text of ['', '0', 'abc', '1.1000001', '-1.1']) expect(ticket(EURUSD, 'takeProfit', text, 110_000)).toBeNull();
    expect(ticket(EURUSD, 'takeProfit', '1.105', 110_000, '')).toBeNull();
    expect(
      moneyAtStop({
        terms: termsOf(EURUSD),
        kind: 'takeProfit',
        side: Side.Buy,
        lotsMilli: 10,
        reference: null,
        stopText: '1.2',
        conversion: null,
      }),
    ).toBeNull();
  });
  test('at the price itself: no side, no money', () => {
    expect(ticket(EURUSD, 'takeProfit', '1.1', 110_000)).toEqual({ side: null, micro: 0, pips: '0.0' });
  });
  test('a known side is kept: a take profit on the wrong side shows a loss', () => {
    const figure = moneyAtStop({
      terms: termsOf(EURUSD),
      kind: 'takeProfit',
      side: Side.Buy,
      lotsMilli: 100,
      reference: 110_000,
      stopText: '1.09500',
      conversion: { kind: 'usd', price: null, precision: 0 },
    });
    expect(figure).toEqual({ side: Side.Buy, micro: -50 * M, pips: '50.0' });
  });
  test('absurd figures are no figure rather than an error', () => {
    expect(ticket(EURUSD, 'takeProfit', '99999999999', 110_000, '9999999')).toBeNull();
  });
});
