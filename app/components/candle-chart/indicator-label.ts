/**
 * How an indicator is named on the chart, the legend and the sheet: MA(20), BOLL(20, 2). Apart from
 * indicator-kinds.ts, which the first-load script carries, because only the server and later-loaded parts name them.
 */
import type { Indicator, IndicatorKind } from './indicator-kinds';

/** The short names every chart writes (the same in every language, as traders of this market read them). */
export const SHORT_NAMES = { ma: 'MA', ema: 'EMA', boll: 'BOLL', macd: 'MACD', rsi: 'RSI', kdj: 'KDJ' } as const satisfies Record<
  IndicatorKind,
  string
>;

/** Its parameters as a chart labels it: MA(20), BOLL(20, 2), MACD(12, 26, 9), KDJ(9, 3, 3). */
export function indicatorParameters(indicator: Indicator): number[] {
  switch (indicator.kind) {
    case 'ma':
    case 'ema':
    case 'rsi':
      return [indicator.period];
    case 'boll':
      return [indicator.period, indicator.width];
    case 'macd':
      return [indicator.fast, indicator.slow, indicator.signal];
    case 'kdj':
      return [indicator.period, indicator.kSmoothing, indicator.dSmoothing];
  }
}

/** Its name and parameters as the chart and the legend write them: MA(20), BOLL(20, 2). */
export function indicatorLabel(indicator: Indicator, formatInteger: (n: number) => string): string {
  return `${SHORT_NAMES[indicator.kind]}(${indicatorParameters(indicator).map(formatInteger).join(', ')})`;
}
