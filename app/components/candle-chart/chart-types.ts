/** How the chart draws the price: candles, OHLC bars, a line of closes, or that line's area. */
export const CHART_TYPES = ['candles', 'bars', 'line', 'area'] as const;
export type ChartType = (typeof CHART_TYPES)[number];
