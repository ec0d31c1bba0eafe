/**
 * The chart's indicators, one module for the server's SVG and the canvas chart (decision 0044): a whole series
 * from the candles, or a tracker fed one candle at a time that re-computes the last (still forming) candle on
 * each tick from the state before it, without going over the series again.
 *
 * MA, EMA, Bollinger Bands, MACD and RSI are trading-signals' (number based, no big.js); KDJ, which it lacks,
 * is ours. Values are plain numbers: they are drawn, not money.
 */
import { BollingerBands, EMA, MACD, Period, RSI, SMA } from 'trading-signals';
import type { Candle } from './candles';
import { type DrawnIndicator, type Indicator, LINES, type Reading } from './indicator-kinds';

/** `replace`: the candle is the last one again with new prices (a tick), not a new candle. */
type Step = (candle: Candle, replace: boolean) => Reading;

function stepper(indicator: Indicator): Step {
  switch (indicator.kind) {
    case 'ma': {
      const sma = new SMA(indicator.period);
      return (c, replace) => [sma.update(c.close, replace)];
    }
    case 'ema': {
      // Seeded with the first close (trading-signals and Tulip Indicators); shown once it has `period` closes.
      const ema = new EMA(indicator.period);
      return (c, replace) => {
        const value = ema.update(c.close, replace);
        return [ema.isStable ? value : null];
      };
    }
    case 'boll': {
      const bands = new BollingerBands(indicator.period, indicator.width);
      return (c, replace) => {
        const r = bands.update(c.close, replace);
        return r ? [r.upper, r.middle, r.lower] : [null, null, null];
      };
    }
    case 'macd': {
      const macd = new MACD(new EMA(indicator.fast), new EMA(indicator.slow), new EMA(indicator.signal));
      return (c, replace) => {
        const r = macd.update(c.close, replace);
        if (!r) return [null, null, null];
        // The library seeds the signal line with the first MACD value; it is shown once it averages `signal` of them.
        return macd.signal.isStable ? [r.macd, r.signal, r.histogram] : [r.macd, null, null];
      };
    }
    case 'rsi': {
      const rsi = new RSI(indicator.period);
      return (c, replace) => [rsi.update(c.close, replace)];
    }
    case 'kdj':
      return kdj(indicator);
  }
}

/**
 * KDJ by its common definition: RSV = (C − lowest low of n) ÷ (highest high of n − lowest low of n) × 100;
 * K = ⅔·K₋₁ + ⅓·RSV; D = ⅔·D₋₁ + ⅓·K; J = 3K − 2D (⅔ and ⅓ for smoothings of 3), K₋₁ and D₋₁ = 50 at the
 * first candle with n candles behind it. A flat window (highest = lowest) has no place in its range: RSV = 50.
 */
function kdj({ period, kSmoothing, dSmoothing }: Extract<Indicator, { kind: 'kdj' }>): Step {
  const highs = new Period(period);
  const lows = new Period(period);
  // K and D of the candle before the last: a tick re-computes the last from them.
  let kBefore = 50;
  let dBefore = 50;
  let k: number | null = null;
  let d = 50;
  return (c, replace) => {
    if (!replace && k !== null) {
      kBefore = k;
      dBefore = d;
    }
    const highest = highs.update(c.high, replace)?.highest;
    const lowest = lows.update(c.low, replace)?.lowest;
    if (highest === undefined || lowest === undefined) return [null, null, null];
    const rsv = highest > lowest ? ((c.close - lowest) / (highest - lowest)) * 100 : 50;
    k = ((kSmoothing - 1) * kBefore + rsv) / kSmoothing;
    d = ((dSmoothing - 1) * dBefore + k) / dSmoothing;
    return [k, d, 3 * k - 2 * d];
  };
}

export interface IndicatorTracker {
  readonly indicator: Indicator;
  /**
   * A candle as the chart merges it: the same time as the last re-computes the last candle (a tick), a newer
   * time adds one, an older one changes nothing (null).
   */
  push(candle: Candle): Reading | null;
}

export function trackIndicator(indicator: Indicator): IndicatorTracker {
  const step = stepper(indicator);
  let last = -Infinity;
  return {
    indicator,
    push(candle) {
      if (candle.time < last) return null;
      const reading = step(candle, candle.time === last);
      last = candle.time;
      return reading;
    },
  };
}

/**
 * The indicator over the candles (oldest first, one per time as the chart keeps them): one array per line of
 * `LINES[kind]`, one value per candle.
 */
export function indicatorSeries(indicator: Indicator, candles: readonly Candle[]): (number | null)[][] {
  const tracker = trackIndicator(indicator);
  const lines: (number | null)[][] = LINES[indicator.kind].map(() => []);
  let last = -Infinity;
  for (const candle of candles) {
    const reading = tracker.push(candle);
    if (!reading) continue;
    // A repeated time is the same candle again: its values replace the last, as the chart replaces the candle.
    const replaced = candle.time === last;
    last = candle.time;
    reading.forEach((value, i) => {
      const line = lines[i]!;
      if (replaced) line[line.length - 1] = value;
      else line.push(value);
    });
  }
  return lines;
}

/** Decimals a drawn value keeps: a tenth of the price's tick on the price scale, two on RSI's and KDJ's 0–100. */
function drawnDecimals(indicator: Indicator, precision: number): number {
  if (indicator.kind === 'rsi' || indicator.kind === 'kdj') return 2;
  return Math.max(precision, 0) + (indicator.kind === 'macd' ? 2 : 1);
}

/**
 * What the server's SVG draws of an indicator: computed over all the candles (the longer the history, the
 * closer the averages' start to the canvas chart's), the last `count` values kept and rounded to what a drawing
 * shows, so the page carries little of them.
 */
export function drawnIndicator(
  indicator: Indicator,
  candles: readonly Candle[],
  { label, count, precision }: { label: string; count: number; precision: number },
): DrawnIndicator {
  const scale = 10 ** drawnDecimals(indicator, precision);
  const lines = indicatorSeries(indicator, candles).map((line) =>
    line.slice(-count).map((v) => (v === null ? null : Math.round(v * scale) / scale)),
  );
  const shown = lines[0]?.length ?? 0;
  return { indicator, label, from: candles[candles.length - shown]?.time ?? 0, lines };
}
