/** The candles a chart shows, and how a live candle joins them. */
import type { Candle as CandleView } from '#contract/views';

/**
 * A candle as the chart draws it, UTC seconds at its start, oldest first in a list, without its volume:
 * the chart draws prices only, and the trade page leaves the volumes out of its data (a slow link's first round
 * trip holds about 14 KB of the page).
 */
export type Candle = Omit<CandleView, 'volume'>;

export function chartCandle({ time, open, high, low, close }: Candle): Candle {
  return { time, open, high, low, close };
}

/**
 * The list after a live candle arrives: the same time replaces the last candle (it is still forming),
 * a newer time appends one, an older one changes nothing (null).
 */
/** A tab left open for days, or scrolled far back (a page of 300 at a time), keeps a bounded list. */
const KEEP = 3000;

export function mergeCandle(candles: readonly Candle[], next: Candle): Candle[] | null {
  const last = candles[candles.length - 1];
  const candle = chartCandle(next);
  if (!last || next.time > last.time) return [...candles.slice(-(KEEP - 1)), candle];
  if (next.time === last.time) return [...candles.slice(0, -1), candle];
  return null;
}

/**
 * The chart's candles with older ones from the history in front (the page carries only the last few): what the
 * list already has wins, and the result stays bounded.
 */
export function withHistory(candles: readonly Candle[], history: readonly Candle[]): readonly Candle[] {
  const first = candles[0]?.time ?? Infinity;
  const older = history.filter((c) => c.time < first);
  return older.length ? [...older, ...candles].slice(-KEEP) : candles;
}
