/**
 * Chart times in Europe/London (spec §9). Candle times are UTC seconds; lightweight-charts has no
 * timezone option and shows its times as UTC, so the canvas gets London wall-clock seconds instead,
 * and labels go back to the real instant to be written in the trader's language with the page's date
 * patterns (utils/date-symbols: no Intl start-up while the chart mounts or the SVG hydrates).
 */
import type { ChartPeriod } from '#contract/enums';
import { londonOffset } from '#contract/time';
import { formatMoment } from '~/utils/format-date';

export { londonOffset };

/** London wall-clock time written as if it were UTC: what the canvas is given to show. */
export function toLondonWallClock(utcSeconds: number): number {
  return utcSeconds + londonOffset(utcSeconds);
}

/**
 * Maps candle times to the canvas's time axis and back. The canvas needs strictly rising times, but
 * when the clocks go back London repeats an hour: a candle whose wall-clock time is not after the
 * previous one is placed one second after it, and labels read the real instant from the reverse map.
 */
export interface LondonTimeline {
  /** The canvas time of a candle (the same candle always gets the same time). */
  toChart(utcSeconds: number): number;
  /** The real UTC instant behind a canvas time. */
  toUtc(chartSeconds: number): number;
}

/** Give it candles oldest first (new candles only ever come after the last one). */
export function createLondonTimeline(): LondonTimeline {
  const chartByUtc = new Map<number, number>();
  const utcByChart = new Map<number, number>();
  let last = -Infinity;
  return {
    toChart(utc) {
      const known = chartByUtc.get(utc);
      if (known !== undefined) return known;
      const shifted = toLondonWallClock(utc);
      const chart = Math.max(shifted, last + 1);
      chartByUtc.set(utc, chart);
      utcByChart.set(chart, utc);
      last = chart;
      return chart;
    },
    toUtc(chart) {
      // Times the chart invents between candles (none today) fall back to an estimate.
      return utcByChart.get(chart) ?? chart - londonOffset(chart);
    },
  };
}

/** An axis label in London time: HH:mm for intraday candles, dd MMM for daily ones. */
export function formatAxisTime(utcSeconds: number, period: ChartPeriod, locale: string): string {
  return formatMoment(utcSeconds * 1000, period === '1day' ? 'day' : 'clock', locale);
}

/** A full label (the crosshair's): date and time, or the date alone for daily candles. */
export function formatCandleTime(utcSeconds: number, period: ChartPeriod, locale: string): string {
  return formatMoment(utcSeconds * 1000, period === '1day' ? 'dayYear' : 'dayClock', locale);
}

const TICK_STYLES = { year: 'year', month: 'month', day: 'day', time: 'clock', seconds: 'clockSeconds' } as const;

/** Labels of the canvas's time-axis marks, by how coarse the mark is. */
export function formatTickTime(utcSeconds: number, kind: keyof typeof TICK_STYLES, locale: string): string {
  return formatMoment(utcSeconds * 1000, TICK_STYLES[kind], locale);
}
