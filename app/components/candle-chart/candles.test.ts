import { expect, test } from 'vitest';
import { mergeCandle, withHistory, type Candle } from './candles';

const candle = (time: number, close: number): Candle => ({
  time,
  open: 100,
  high: Math.max(100, close),
  low: Math.min(100, close),
  close,
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

test('fields beyond a candle (its instrument, period, volume) are not kept', () => {
  const live = { ...candle(180, 103), instrumentId: 3, code: 'BTCUSD', period: '1min', volume: 9 };
  expect(mergeCandle(list, live)?.at(-1)).toEqual(candle(180, 103));
});

test('the list stays bounded', () => {
  const long = Array.from({ length: 3000 }, (_, i) => candle(i * 60, 100));
  const merged = mergeCandle(long, candle(3000 * 60, 100))!;
  expect(merged).toHaveLength(3000);
  expect(merged.at(-1)!.time).toBe(180_000);
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
  const history = Array.from({ length: 3200 }, (_, i) => candle(i * 60 - 300_000, 100));
  const merged = withHistory(list, history);
  expect(merged).toHaveLength(3000);
  expect(merged.slice(-2)).toEqual(list);
});
