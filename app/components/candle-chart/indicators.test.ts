import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import type { Candle } from './candles';
import fixtures from './indicators.fixtures.json';
import { BOLL, type Indicator, isOverlay, KDJ, LINES, MACD_DEFAULT, RSI_DEFAULT } from './indicator-kinds';
import { indicatorParameters } from './indicator-label';
import { drawnIndicator, indicatorSeries, trackIndicator } from './indicators';

const START = Date.UTC(2025, 6, 1, 12) / 1000;
/** Candles every 15 minutes that close at `closes` (the close-only indicators read nothing else). */
const fromCloses = (closes: readonly number[]): Candle[] =>
  closes.map((close, i) => ({ time: START + i * 900, open: close, high: close, low: close, close }));
/** The values at the fixture's precision (the number of decimals of its first value), null as null. */
function rounded(values: readonly (number | null)[], like: readonly (string | null)[]): (string | null)[] {
  const decimals = like.find((v) => v !== null)?.split('.')[1]?.length ?? 0;
  return values.map((v) => (v === null ? null : v.toFixed(decimals)));
}

describe('against trading-signals’ reference values (indicators.fixtures.json names their source)', () => {
  const { tulip } = fixtures;
  const candles = fromCloses(tulip.closes);

  test('MA(5)', () => {
    const [ma] = indicatorSeries({ kind: 'ma', period: 5 }, candles);
    expect(rounded(ma!, tulip.ma5)).toEqual(tulip.ma5);
  });

  test('EMA(5), shown from its fifth close', () => {
    const [ema] = indicatorSeries({ kind: 'ema', period: 5 }, candles);
    expect(rounded(ema!, tulip.ema5)).toEqual(tulip.ema5);
  });

  test('Bollinger Bands (5, 2), upper, middle and lower', () => {
    const [upper, middle, lower] = indicatorSeries({ kind: 'boll', period: 5, width: 2 }, candles);
    expect(rounded(upper!, tulip.boll5_2.upper)).toEqual(tulip.boll5_2.upper);
    expect(rounded(middle!, tulip.boll5_2.middle)).toEqual(tulip.boll5_2.middle);
    expect(rounded(lower!, tulip.boll5_2.lower)).toEqual(tulip.boll5_2.lower);
  });

  test('Bollinger Bands (20, 2), the chart’s own setting', () => {
    const reference = fixtures.boll20_2;
    const [upper, middle, lower] = indicatorSeries(BOLL, fromCloses(reference.closes));
    const near = (values: (number | null)[], expected: (number | null)[]) =>
      values.forEach((v, i) => {
        const e = expected[i] ?? null;
        if (e === null) expect(v).toBeNull();
        else expect(v).toBeCloseTo(e, 9);
      });
    near(upper!, reference.upper);
    near(middle!, reference.middle);
    near(lower!, reference.lower);
  });

  test('MACD (2, 5, 9): the MACD line from the fifth close, the signal and histogram once the signal has nine', () => {
    const [macd, signal, histogram] = indicatorSeries({ kind: 'macd', fast: 2, slow: 5, signal: 9 }, candles);
    expect(rounded(macd!, tulip.macd2_5_9.macd)).toEqual(tulip.macd2_5_9.macd);
    // The signal EMA starts at the fifth close; its ninth value is at the thirteenth (index 12).
    const fromThirteenth = (values: readonly (string | null)[]) => values.map((v, i) => (i < 12 ? null : v));
    expect(rounded(signal!, tulip.macd2_5_9.signal)).toEqual(fromThirteenth(tulip.macd2_5_9.signal));
    expect(rounded(histogram!, tulip.macd2_5_9.histogram)).toEqual(fromThirteenth(tulip.macd2_5_9.histogram));
  });

  test('RSI(5), from its sixth close', () => {
    const [rsi] = indicatorSeries({ kind: 'rsi', period: 5 }, candles);
    expect(rounded(rsi!, tulip.rsi5)).toEqual(tulip.rsi5);
  });
});

describe('KDJ, worked by hand', () => {
  // KDJ(3, 3, 3) over four candles: high, low, close.
  const hlc = [
    [10, 8, 9],
    [11, 9, 10],
    [12, 10, 11],
    [12, 9, 9],
  ] as const;
  const candles: Candle[] = hlc.map(([high, low, close], i) => ({ time: START + i * 900, open: close, high, low, close }));
  const kdj3: Indicator = { kind: 'kdj', period: 3, kSmoothing: 3, dSmoothing: 3 };

  test('K = ⅔·K₋₁ + ⅓·RSV, D = ⅔·D₋₁ + ⅓·K, J = 3K − 2D, from K₋₁ = D₋₁ = 50 at the third candle', () => {
    const [k, d, j] = indicatorSeries(kdj3, candles);
    // Third candle: highest 12, lowest 8, RSV = (11 − 8) ÷ 4 × 100 = 75;
    // K = (2·50 + 75) ÷ 3 = 175/3; D = (2·50 + 175/3) ÷ 3 = 475/9; J = 175 − 950/9 = 625/9.
    // Fourth: highest 12, lowest 9, RSV = 0; K = (2·175/3) ÷ 3 = 350/9; D = (2·475/9 + 350/9) ÷ 3 = 1300/27;
    // J = 1050/9 − 2600/27 = 550/27.
    const expected = {
      k: [null, null, 175 / 3, 350 / 9],
      d: [null, null, 475 / 9, 1300 / 27],
      j: [null, null, 625 / 9, 550 / 27],
    };
    [k, d, j].forEach((line, n) =>
      line!.forEach((v, i) => {
        const e = Object.values(expected)[n]![i];
        if (e === null || e === undefined) expect(v).toBeNull();
        else expect(v).toBeCloseTo(e, 10);
      }),
    );
  });

  test('a flat window (highest = lowest) reads RSV = 50', () => {
    const flat = fromCloses([5, 5, 5, 5]);
    const [k, d, j] = indicatorSeries(kdj3, flat);
    expect(k).toEqual([null, null, 50, 50]);
    expect(d).toEqual([null, null, 50, 50]);
    expect(j).toEqual([null, null, 50, 50]);

    // After a rise, three flat candles: K moves a third of the way to 50 from where it was.
    const rise = [...candles.slice(0, 3), ...fromCloses([11, 11, 11]).map((c, i) => ({ ...c, time: START + (3 + i) * 900 }))];
    const [kr] = indicatorSeries(kdj3, rise);
    expect(kr![5]).toBeCloseTo((2 * kr![4]! + 50) / 3, 10);
  });

  test('a tick re-computes the last candle from the candle before it', () => {
    const tracker = trackIndicator(kdj3);
    for (const c of candles.slice(0, 3)) tracker.push(c);
    tracker.push({ ...candles[3]!, high: 20, close: 20 });
    tracker.push({ ...candles[3]!, low: 1, close: 1 });
    const reading = tracker.push(candles[3]!);
    expect(reading![0]).toBeCloseTo(350 / 9, 10);
    expect(reading![1]).toBeCloseTo(1300 / 27, 10);
  });
});

describe('the tracker', () => {
  test('an older candle changes nothing', () => {
    const tracker = trackIndicator({ kind: 'ma', period: 2 });
    const [a, b] = fromCloses([1, 3]);
    tracker.push(a!);
    expect(tracker.push(b!)).toEqual([2]);
    expect(tracker.push({ ...a!, close: 100 })).toBeNull();
    expect(tracker.push({ ...b!, close: 5 })).toEqual([3]);
  });

  test('the chart’s settings, their lines and where they are drawn', () => {
    expect(indicatorParameters(BOLL)).toEqual([20, 2]);
    expect(indicatorParameters(MACD_DEFAULT)).toEqual([12, 26, 9]);
    expect(indicatorParameters(RSI_DEFAULT)).toEqual([14]);
    expect(indicatorParameters(KDJ)).toEqual([9, 3, 3]);
    expect([BOLL, MACD_DEFAULT, RSI_DEFAULT, KDJ].map(isOverlay)).toEqual([true, false, false, false]);
    expect(isOverlay({ kind: 'ema', period: 20 })).toBe(true);
    expect(indicatorSeries(MACD_DEFAULT, fromCloses([1, 2, 3]))).toHaveLength(LINES.macd.length);
  });

  test('MACD (12, 26, 9) and RSI (14) start where their periods say', () => {
    const candles = fromCloses(Array.from({ length: 40 }, (_, i) => 100 + Math.sin(i) * 5));
    const [macd, signal] = indicatorSeries(MACD_DEFAULT, candles);
    expect(macd!.findIndex((v) => v !== null)).toBe(25);
    expect(signal!.findIndex((v) => v !== null)).toBe(33);
    const [rsi] = indicatorSeries(RSI_DEFAULT, candles);
    expect(rsi!.findIndex((v) => v !== null)).toBe(14);
    const [k] = indicatorSeries(KDJ, candles);
    expect(k!.findIndex((v) => v !== null)).toBe(8);
  });
});

const price = fc.integer({ min: 100, max: 200_000 }).map((n) => n / 100);
/** A candle's prices, consistent (low ≤ open, close ≤ high). */
const prices = fc.tuple(price, price, price, price).map((p) => {
  const [open, close, a, b] = p;
  return { open, close, high: Math.max(...p), low: Math.min(open, close, a, b) };
});
const indicator: fc.Arbitrary<Indicator> = fc.oneof(
  fc.integer({ min: 1, max: 30 }).map((period) => ({ kind: 'ma' as const, period })),
  fc.integer({ min: 1, max: 30 }).map((period) => ({ kind: 'ema' as const, period })),
  fc.integer({ min: 2, max: 25 }).map((period) => ({ kind: 'boll' as const, period, width: 2 })),
  fc
    .tuple(fc.integer({ min: 1, max: 12 }), fc.integer({ min: 1, max: 12 }), fc.integer({ min: 1, max: 9 }))
    .map(([fast, more, signal]) => ({ kind: 'macd' as const, fast, slow: fast + more, signal })),
  fc.integer({ min: 1, max: 20 }).map((period) => ({ kind: 'rsi' as const, period })),
  fc.integer({ min: 1, max: 12 }).map((period) => ({ kind: 'kdj' as const, period, kSmoothing: 3, dSmoothing: 3 })),
  fc.constantFrom<Indicator>(BOLL, MACD_DEFAULT, RSI_DEFAULT, KDJ),
);

describe('property: candle by candle, with the last candle re-ticked, equals the whole series at once', () => {
  test('for every indicator', () => {
    fc.assert(
      fc.property(
        indicator,
        // Each candle: the ticks it went through before its final prices.
        fc.array(fc.tuple(fc.array(prices, { maxLength: 4 }), prices), { maxLength: 70 }),
        (chosen, steps) => {
          const candles = steps.map(([, final], i) => ({ time: START + i * 60, ...final }));
          const whole = indicatorSeries(chosen, candles);
          const tracker = trackIndicator(chosen);
          steps.forEach(([ticks, final], i) => {
            const time = START + i * 60;
            for (const tick of ticks) tracker.push({ time, ...tick });
            const reading = tracker.push({ time, ...final });
            expect(reading).toEqual(whole.map((line) => line[i]));
          });
        },
      ),
      { numRuns: 400, seed: 40 },
    );
  });
});

describe('drawnIndicator, what the server’s SVG gets', () => {
  test('the last values from the candle they start at, rounded to what a drawing shows', () => {
    const candles = fromCloses(Array.from({ length: 100 }, (_, i) => 1.1 + Math.sin(i / 5) / 100));
    const drawn = drawnIndicator({ kind: 'ema', period: 10 }, candles, { label: 'EMA(10)', count: 64, precision: 5 });
    expect(drawn.label).toBe('EMA(10)');
    expect(drawn.from).toBe(candles[36]!.time);
    const [whole] = indicatorSeries({ kind: 'ema', period: 10 }, candles);
    expect(drawn.lines[0]).toEqual(whole!.slice(-64).map((v) => Math.round(v! * 1e6) / 1e6));

    const rsi = drawnIndicator(RSI_DEFAULT, candles.slice(0, 20), { label: 'RSI(14)', count: 64, precision: 5 });
    expect(rsi.from).toBe(candles[0]!.time);
    expect(rsi.lines[0]!.slice(0, 14)).toEqual(Array(14).fill(null));
    expect(rsi.lines[0]!.slice(14).every((v) => v === Math.round(v! * 100) / 100)).toBe(true);
  });
});
