/** The candles a chart shows, and how a live candle joins them. */
import type { KlinePoint } from '#contract/calls/market';

/**
 * One candle as the kline call returns it, UTC seconds at its start, oldest first in a list, without its volume:
 * the chart draws prices only, and the trade page leaves the volumes out of its data (a slow link's first round
 * trip holds about 14 KB of the page).
 */
export type Candle = Omit<KlinePoint, 'Volume'>;

export function chartCandle({ Time, Open, High, Low, Close }: Candle): Candle {
  return { Time, Open, High, Low, Close };
}

/**
 * The list after a live candle arrives: the same Time replaces the last candle (it is still forming),
 * a newer Time appends one, an older one changes nothing (null).
 */
/** A tab left open for days keeps a bounded list. */
const KEEP = 1000;

export function mergeCandle(candles: readonly Candle[], next: Candle): Candle[] | null {
  const last = candles[candles.length - 1];
  const candle = chartCandle(next);
  if (!last || next.Time > last.Time) return [...candles.slice(-(KEEP - 1)), candle];
  if (next.Time === last.Time) return [...candles.slice(0, -1), candle];
  return null;
}

/**
 * The chart's candles with older ones from the history in front (the page carries only the last few): what the
 * list already has wins, and the result stays bounded.
 */
export function withHistory(candles: readonly Candle[], history: readonly Candle[]): readonly Candle[] {
  const first = candles[0]?.Time ?? Infinity;
  const older = history.filter((c) => c.Time < first);
  return older.length ? [...older, ...candles].slice(-KEEP) : candles;
}
