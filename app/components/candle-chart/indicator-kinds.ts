/**
 * Which indicators a chart draws, and how: their settings and lines, with no computation (decision 0044). The
 * server's SVG reads only this module, so the trade screen's first-load script stays without trading-signals; the
 * values come from indicators.ts, on the server for the SVG and in the canvas chart's own chunk.
 */
export type Indicator =
  | { kind: 'ma'; period: number }
  | { kind: 'ema'; period: number }
  | { kind: 'boll'; period: number; width: number }
  | { kind: 'macd'; fast: number; slow: number; signal: number }
  | { kind: 'rsi'; period: number }
  | { kind: 'kdj'; period: number; kSmoothing: number; dSmoothing: number };

export type IndicatorKind = Indicator['kind'];

/** The settings traders of this market use (issue 40); MA and EMA take the trader's period. */
export const BOLL = { kind: 'boll', period: 20, width: 2 } as const satisfies Indicator;
export const MACD_DEFAULT = { kind: 'macd', fast: 12, slow: 26, signal: 9 } as const satisfies Indicator;
export const RSI_DEFAULT = { kind: 'rsi', period: 14 } as const satisfies Indicator;
export const KDJ = { kind: 'kdj', period: 9, kSmoothing: 3, dSmoothing: 3 } as const satisfies Indicator;
/** Up to this many MA (and as many EMA) lines at once. */
export const MAX_AVERAGES = 3;
/** RSI's overbought and oversold guides. */
export const RSI_GUIDES = [30, 70] as const;

/** The lines each kind draws, in this order in a reading. */
export const LINES = {
  ma: ['value'],
  ema: ['value'],
  boll: ['upper', 'middle', 'lower'],
  macd: ['macd', 'signal', 'histogram'],
  rsi: ['value'],
  kdj: ['k', 'd', 'j'],
} as const satisfies Record<IndicatorKind, readonly string[]>;

/** Drawn over the candles, on the price scale; the others go in a pane under them. */
export function isOverlay(indicator: Indicator): boolean {
  return indicator.kind === 'ma' || indicator.kind === 'ema' || indicator.kind === 'boll';
}

/** One candle's values, one per line of `LINES[kind]`; null until the indicator has enough candles. */
export type Reading = readonly (number | null)[];

/**
 * An indicator's values as the SVG draws them (computed on the server by `drawnIndicator`): the last few, the
 * first of them at the candle of time `from`, later ones at the candles after it.
 */
export interface DrawnIndicator {
  indicator: Indicator;
  /** Its name and parameters as the page writes them, e.g. "RSI(14)": the oscillator pane's title. */
  label: string;
  from: number;
  /** One array per line of `LINES[kind]`. */
  lines: readonly (readonly (number | null)[])[];
}

/** How an indicator is written in the address (`?ind=ma20-ema12-boll-rsi`) and the cookie: `ma20`, `boll`. */
export function indicatorToken(indicator: Indicator): string {
  return indicator.kind === 'ma' || indicator.kind === 'ema' ? `${indicator.kind}${indicator.period}` : indicator.kind;
}
