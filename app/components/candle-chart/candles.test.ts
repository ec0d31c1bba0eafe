import { expect, test } from 'vitest';
import { mergeCandle, type Candle } from './candles';

const candle = (Time: number, Close: number): Candle => ({
  Time,
  Open: 100,
  High: Math.max(100, Close),
  Low: Math.min(100, Close),
  Close,
  Volume: 1,
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
