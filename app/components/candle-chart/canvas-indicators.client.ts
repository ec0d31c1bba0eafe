/**
 * The chosen indicators on the canvas chart (decision 0044): lines over the candles for MA, EMA and Bollinger
 * Bands, a pane under them per oscillator (MACD with its histogram, RSI with its 30/70 guides, KDJ). A live tick
 * goes through each indicator's tracker, which re-computes only the last candle, and moves only the last point of
 * each line. In the chart's lazily loaded chunk, with trading-signals.
 */
import {
  HistogramSeries,
  LineSeries,
  LineStyle,
  type AutoscaleInfo,
  type IChartApi,
  type ISeriesApi,
  type SeriesType,
  type Time,
} from 'lightweight-charts';
import type { Candle } from './candles';
import { type Indicator, isOverlay, LINES, type Reading, RSI_GUIDES } from './indicator-kinds';
import { type IndicatorTracker, trackIndicator } from './indicators';
import { PANE_HEIGHT } from './svg-indicators';
import { VIEW_HEIGHT } from './svg-candles';

/** The SVG's colours (chart.css), so a line keeps its colour when the canvas takes the SVG's place. */
const AVERAGE_COLOURS = { ma: ['#f5b942', '#c084fc', '#38bdf8'], ema: ['#fb923c', '#f472b6', '#a3e635'] } as const;
const LINE_COLOURS: Record<string, string> = {
  'boll.upper': '#60a5fa',
  'boll.middle': '#60a5fa',
  'boll.lower': '#60a5fa',
  'macd.macd': '#38bdf8',
  'macd.signal': '#f5b942',
  'rsi.value': '#c084fc',
  'kdj.k': '#f5b942',
  'kdj.d': '#38bdf8',
  'kdj.j': '#f472b6',
};

export interface IndicatorTheme {
  up: string;
  down: string;
  guide: string;
  /** A value of this indicator as its scale writes it (the app's number formatter). */
  format: (indicator: Indicator, value: number) => string;
  /** A candle's time on the chart's time scale. */
  time: (utc: number) => Time;
}

interface Drawn {
  indicator: Indicator;
  tracker: IndicatorTracker;
  series: ISeriesApi<SeriesType>[];
  reading: Reading | null;
}

export interface CanvasIndicators {
  /** Other indicators: the previous series go, the new ones are computed over the candles. */
  set(indicators: readonly Indicator[], candles: readonly Candle[]): void;
  /** New candles: each indicator computed again over them. */
  setData(candles: readonly Candle[]): void;
  /** A live candle: the last value of each line re-computed from its tracker's state. */
  update(candle: Candle): void;
  /** The last candle's values, one per indicator (null before it has enough candles). */
  readings(): (Reading | null)[];
  /** How many panes the chart has (the price's and one per oscillator). */
  panes(): number;
}

export function canvasIndicators(chart: IChartApi, theme: IndicatorTheme): CanvasIndicators {
  let drawn: Drawn[] = [];

  const point = (indicator: Indicator, line: string, time: Time, value: number | null) => {
    if (value === null) return { time };
    if (line === 'histogram') return { time, value, color: value >= 0 ? theme.up : theme.down };
    return { time, value };
  };

  const compute = (d: Drawn, candles: readonly Candle[]) => {
    d.tracker = trackIndicator(d.indicator);
    d.reading = null;
    const lines = LINES[d.indicator.kind];
    const data: { time: Time; value?: number }[][] = lines.map(() => []);
    let last = -Infinity;
    for (const candle of candles) {
      const reading = d.tracker.push(candle);
      if (!reading) continue;
      const time = theme.time(candle.time);
      lines.forEach((line, i) => {
        const p = point(d.indicator, line, time, reading[i] ?? null);
        // The same time again is the same candle: its point replaces the last.
        if (candle.time === last) data[i]![data[i]!.length - 1] = p;
        else data[i]!.push(p);
      });
      last = candle.time;
      d.reading = reading;
    }
    d.series.forEach((s, i) => s.setData(data[i]!));
  };

  const add = (indicator: Indicator, nth: number, pane: number): Drawn => {
    const { kind } = indicator;
    const format = { type: 'custom' as const, formatter: (v: number) => theme.format(indicator, v), minMove: 1e-10 };
    const series = LINES[kind].map((line) => {
      const common = { priceFormat: format, priceLineVisible: false, lastValueVisible: false };
      if (line === 'histogram') return chart.addSeries(HistogramSeries, common, pane) as ISeriesApi<SeriesType>;
      const colour = kind === 'ma' || kind === 'ema' ? AVERAGE_COLOURS[kind][nth - 1]! : LINE_COLOURS[`${kind}.${line}`]!;
      return chart.addSeries(
        LineSeries,
        {
          ...common,
          color: colour,
          lineWidth: 1,
          lineStyle: line === 'middle' ? LineStyle.Dashed : LineStyle.Solid,
          crosshairMarkerVisible: false,
          // RSI reads against its fixed 0–100 and the 30/70 guides.
          ...(kind === 'rsi' ? { autoscaleInfoProvider: (): AutoscaleInfo => ({ priceRange: { minValue: 0, maxValue: 100 } }) } : {}),
        },
        pane,
      ) as ISeriesApi<SeriesType>;
    });
    if (kind === 'rsi')
      for (const level of RSI_GUIDES)
        series[0]!.createPriceLine({
          price: level,
          color: theme.guide,
          lineWidth: 1,
          lineStyle: LineStyle.Dotted,
          axisLabelVisible: true,
          title: '',
        });
    return { indicator, tracker: trackIndicator(indicator), series, reading: null };
  };

  return {
    set(indicators, candles) {
      for (const d of drawn) for (const s of d.series) chart.removeSeries(s);
      const counts = new Map<string, number>();
      let oscillators = 0;
      drawn = indicators.map((indicator) => {
        const nth = (counts.get(indicator.kind) ?? 0) + 1;
        counts.set(indicator.kind, nth);
        const d = add(indicator, nth, isOverlay(indicator) ? 0 : ++oscillators);
        compute(d, candles);
        return d;
      });
      // The panes share the height as the SVG's do: the price's, then a strip per oscillator.
      const panes = chart.panes();
      panes.forEach((pane, i) => pane.setStretchFactor(i === 0 ? VIEW_HEIGHT / PANE_HEIGHT : 1));
    },
    setData(candles) {
      for (const d of drawn) compute(d, candles);
    },
    update(candle) {
      for (const d of drawn) {
        const reading = d.tracker.push(candle);
        if (!reading) continue;
        d.reading = reading;
        const time = theme.time(candle.time);
        const lines = LINES[d.indicator.kind];
        d.series.forEach((s, i) => s.update(point(d.indicator, lines[i]!, time, reading[i] ?? null)));
      }
    },
    readings: () => drawn.map((d) => d.reading),
    panes: () => chart.panes().length,
  };
}
