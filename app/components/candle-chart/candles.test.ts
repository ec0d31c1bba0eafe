import { expect, test } from 'vitest';
import { mergeCandle, withHistory, type Candle } from './candles';

const candle = (Time: number, Close: number): Candle => ({
  Time,
  Open: 100,
  High: Math.max(100, Close),
  Low: Math.min(100, Close),
  Close,
});
const list = [candle(60, 101), candle(120, 102)];

test('a live candle with the last time replaces the last candle', () => {
  expect(mergeCandle(list, candle(120, 99))).toEqual([candle(60, 101), candle(120, 99)]);
});

test('a newer live candle is appended', () => {
  expect(mergeCandle(list, candle(180, 103))).toEqual([...list, candle(180, 103)]);
});

test('an older live candle changes nothing', () => {
  expect(mergeCandle(list, candle(60, 90))).toBeNull();
});

test('the first live candle starts an empty chart', () => {
  expect(mergeCandle([], candle(60, 101))).toEqual([candle(60, 101)]);
});

test('fields beyond a candle (symbol, period) are not kept', () => {
  const live = { ...candle(180, 103), symbol: 'BTCUSD', Period: '1min' };
  expect(mergeCandle(list, live)?.at(-1)).toEqual(candle(180, 103));
});

test('the list stays bounded', () => {
  const long = Array.from({ length: 1000 }, (_, i) => candle(i * 60, 100));
  const merged = mergeCandle(long, candle(1000 * 60, 100))!;
  expect(merged).toHaveLength(1000);
  expect(merged.at(-1)!.Time).toBe(60_000);
});

test('history puts the older candles in front and keeps what the list has for the same times', () => {
  const history = [candle(0, 99), candle(60, 50), candle(120, 50)];
  expect(withHistory(list, history)).toEqual([candle(0, 99), ...list]);
});

test('history with nothing older leaves the list as it is (the same list)', () => {
  expect(withHistory(list, [candle(60, 1), candle(120, 2), candle(180, 3)])).toBe(list);
  expect(withHistory(list, [])).toBe(list);
});

test('history fills an empty list, and the result stays bounded', () => {
  expect(withHistory([], list)).toEqual(list);
  const history = Array.from({ length: 1200 }, (_, i) => candle(i * 60 - 100_000, 100));
  const merged = withHistory(list, history);
  expect(merged).toHaveLength(1000);
  expect(merged.slice(-2)).toEqual(list);
});
