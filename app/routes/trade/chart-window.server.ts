/**
 * Which candles the trade screen's chart shows (issue 40): the newest, or a window back in history named by the
 * address's `before` (the SVG's "Earlier" and "Later" links, without JavaScript). The upstream's `kline` pages back by
 * that cursor; "Later" is worked out from the newest 1,000 candles, so the windows join without a gap or an overlap.
 */
import { PERIOD_SECONDS, type ChartPeriod } from '#contract/enums';
import { chartCandle, type Candle } from '~/components/candle-chart/candles';
import { SHOWN_CANDLES } from '~/components/candle-chart/svg-candles';
import type { Api } from '~/upstream/api.server';
import { upstreamFallback } from '~/upstream/api.server';
import { chartCandles } from '~/upstream/market.server';

/** The candles asked for behind a window: the indicators need a run-up before the first one drawn. */
const WINDOW_HISTORY = 300;
/** How far back "Later" is worked out exactly (kline's largest page). */
const NEWEST_KNOWN = 1000;

export interface ChartWindow {
  /** Every candle the upstream gave for the window, oldest first (the indicators are computed over them). */
  candles: Candle[];
  /** The `before` of the window just older than this one; null when this one starts at the oldest candle. */
  earlier: number | null;
  /** The `before` of the window just newer; 'newest' for the newest candles (no `before`); null on the newest. */
  later: number | 'newest' | null;
}

export async function chartWindow(api: Api, instrumentId: number, period: ChartPeriod, before: number | undefined): Promise<ChartWindow> {
  // The chart is one part of the screen: without candles the order ticket still works.
  const fallback = upstreamFallback([], 'candles');
  if (before === undefined) {
    const candles = (await chartCandles(api, instrumentId, period).catch(fallback)).map(chartCandle);
    return { candles, earlier: earlierOf(candles), later: null };
  }
  const [page, newest] = await Promise.all([
    chartCandles(api, instrumentId, period, WINDOW_HISTORY, before).catch(fallback),
    chartCandles(api, instrumentId, period, NEWEST_KNOWN).catch(fallback),
  ]);
  const candles = page.map(chartCandle);
  const last = candles.at(-1)?.time;
  const newestTime = newest.at(-1)?.time;
  // Past the newest candle (or nothing to compare with): this is the newest window.
  if (last === undefined || newestTime === undefined || last >= newestTime) {
    return { candles, earlier: earlierOf(candles), later: last === undefined ? 'newest' : null };
  }
  const next = newest.findIndex((c) => c.time > last);
  let later: number | 'newest';
  if (next > 0) later = next + SHOWN_CANDLES >= newest.length ? 'newest' : newest[next + SHOWN_CANDLES]!.time;
  // Older than the newest thousand: a window's span of time on (candles start a period apart, so no candle is skipped).
  else later = last + SHOWN_CANDLES * PERIOD_SECONDS[period];
  return { candles, earlier: earlierOf(candles), later };
}

/** The oldest candle drawn, when there are older ones (the upstream gave more than the SVG draws). */
function earlierOf(candles: readonly Candle[]): number | null {
  return candles.length > SHOWN_CANDLES ? candles[candles.length - SHOWN_CANDLES]!.time : null;
}
