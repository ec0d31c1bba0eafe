import { describe, expect, test } from 'vitest';
import { BOLL, KDJ, MACD_DEFAULT, RSI_DEFAULT } from '~/components/candle-chart/indicator-kinds';
import { chosenIndicators, indicatorCookie, indicatorsParam, parseIndicators, sheetRedirect } from './indicator-choice.server';

const url = (search: string) => new URL(`https://lotfx.test/trade?${search}`);

describe('the indicators chosen on the trade screen', () => {
  test('names become indicators in the chart’s order, MA and EMA in the order given', () => {
    expect(parseIndicators(['rsi-ema12-boll-ma20-kdj-ma5-macd'])).toEqual([
      { kind: 'ma', period: 20 },
      { kind: 'ma', period: 5 },
      { kind: 'ema', period: 12 },
      BOLL,
      MACD_DEFAULT,
      RSI_DEFAULT,
      KDJ,
    ]);
  });

  test('unknown names, periods out of range and repeats are left out; three MA lines at most', () => {
    expect(parseIndicators(['ma1', 'ma201', 'ma20.5', 'foo', 'rsi', 'RSI', 'ma5-ma10-ma20-ma30', '<script>'])).toEqual([
      { kind: 'ma', period: 5 },
      { kind: 'ma', period: 10 },
      { kind: 'ma', period: 20 },
      RSI_DEFAULT,
    ]);
    expect(parseIndicators([''])).toEqual([]);
  });

  test('the address wins over the cookie, even when it names none; without it the cookie counts', async () => {
    const cookie = await indicatorCookie.serialize('ma20-rsi');
    expect(await chosenIndicators(url('code=EURUSD&ind=kdj'), cookie)).toEqual([KDJ]);
    expect(await chosenIndicators(url('code=EURUSD&ind='), cookie)).toEqual([]);
    expect(await chosenIndicators(url('code=EURUSD'), cookie)).toEqual([{ kind: 'ma', period: 20 }, RSI_DEFAULT]);
    expect(await chosenIndicators(url('code=EURUSD'), null)).toEqual([]);
    expect(await chosenIndicators(url('code=EURUSD'), 'chart_indicators=garbage')).toEqual([]);
  });

  test('the sheet’s submission sets the cookie and lands on a clean address naming the choice', async () => {
    const res = await sheetRedirect(url('code=EURUSD&period=1day&indicators=set&ma=20&ma=&ma=60&ema=&ema=12&ema=&ind=rsi&ind=boll'));
    expect(res?.status).toBe(302);
    expect(res?.headers.get('Location')).toBe('/trade?code=EURUSD&period=1day&ind=ma20-ma60-ema12-boll-rsi');
    expect(await indicatorCookie.parse(res!.headers.get('Set-Cookie'))).toBe('ma20-ma60-ema12-boll-rsi');
  });

  test('removing every indicator keeps none, in the cookie and the address', async () => {
    const res = await sheetRedirect(url('code=EURUSD&indicators=set&ma=&ma=&ma=&ema='));
    expect(res?.headers.get('Location')).toBe('/trade?code=EURUSD');
    expect(await indicatorCookie.parse(res!.headers.get('Set-Cookie'))).toBe('');
  });

  test('a plain link (no sheet marker) is not a choice', async () => {
    expect(await sheetRedirect(url('code=EURUSD&ind=ma20'))).toBeNull();
    expect(indicatorsParam([{ kind: 'ema', period: 9 }, KDJ])).toBe('ema9-kdj');
  });
});
