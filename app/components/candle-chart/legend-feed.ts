/**
 * The indicators' live values from the canvas chart to the legend (indicator-legend.tsx, loaded later): a tick
 * re-renders the legend only, not the chart around it.
 */
import { type Indicator, indicatorToken, type Reading } from './indicator-kinds';

/** The legend's element: the chart's figure names it as its description. One chart per page. */
export const LEGEND_ID = 'chart-indicators';

export type LiveReadings = { key: string; readings: readonly (Reading | null)[] } | null;

/** The canvas's latest values, for the indicators named by `key` (their tokens). */
export interface ReadingsFeed {
  get(): LiveReadings;
  set(value: LiveReadings): void;
  subscribe(listener: () => void): () => void;
}

export function readingsFeed(): ReadingsFeed {
  let value: LiveReadings = null;
  const listeners = new Set<() => void>();
  return {
    get: () => value,
    set(next) {
      value = next;
      for (const l of listeners) l();
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}

export const indicatorsKey = (indicators: readonly Indicator[]) => indicators.map(indicatorToken).join('-');
