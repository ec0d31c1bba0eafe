/**
 * The charts streams draw: an instrument's candles are subscribed upstream while any stream watches one of its
 * periods, and the last two candles of each period are kept for the next stream's snapshot.
 */
import type { ChartPeriod } from '../../contract/enums';

export interface ChartWatchOptions {
  /** How long an instrument's subscription outlives its last watcher (a reconnect then misses no candle). */
  lingerMs: number;
  subscribe(code: string): void;
  unsubscribe(code: string): void;
}

interface Chart<W, D> {
  watchers: number;
  byPeriod: Map<ChartPeriod, Set<W>>;
  /** The latest update of each period's last two candles, by candle time. */
  latest: Map<ChartPeriod, Map<number, D>>;
  /** Set while nobody watches: the subscription is dropped when it fires. */
  lingerTimer: NodeJS.Timeout | null;
}

const NONE: readonly never[] = [];

/** Who watches which chart (`W`: a stream; `D`: a candle update's data). */
export class ChartWatches<W, D = string> {
  private readonly charts = new Map<string, Chart<W, D>>();
  private closed = false;

  constructor(private readonly options: ChartWatchOptions) {}

  watch(watcher: W, code: string, period: ChartPeriod): void {
    let chart = this.charts.get(code);
    if (!chart) {
      this.charts.set(code, (chart = { watchers: 0, byPeriod: new Map(), latest: new Map(), lingerTimer: null }));
      this.options.subscribe(code);
    }
    if (chart.lingerTimer) clearTimeout(chart.lingerTimer);
    chart.lingerTimer = null;
    chart.watchers++;
    let set = chart.byPeriod.get(period);
    if (!set) chart.byPeriod.set(period, (set = new Set()));
    set.add(watcher);
  }

  unwatch(watcher: W, code: string, period: ChartPeriod): void {
    const chart = this.charts.get(code);
    if (!chart) return;
    const set = chart.byPeriod.get(period);
    if (!set?.delete(watcher)) return;
    if (set.size === 0) chart.byPeriod.delete(period);
    if (--chart.watchers > 0) return;
    // Kept a while: a page reload, a reconnect or the drawer's wider stream comes straight back, and its
    // snapshot then has the candles the gap would have lost (a candle that closed meanwhile keeps its close).
    const drop = () => {
      this.charts.delete(code);
      this.options.unsubscribe(code);
    };
    if (this.options.lingerMs <= 0 || this.closed) return drop();
    chart.lingerTimer = setTimeout(drop, this.options.lingerMs);
    chart.lingerTimer.unref();
  }

  /** The chart's last two candles as last heard, in time order: a new stream's snapshot. */
  latest(code: string, period: ChartPeriod): Iterable<D> {
    return this.charts.get(code)?.latest.get(period)?.values() ?? NONE;
  }

  /** Keeps a candle update of a chart that is watched (or lingering); returns who watches its period. */
  update(code: string, period: ChartPeriod, time: number, data: D): ReadonlySet<W> | undefined {
    const chart = this.charts.get(code);
    if (!chart) return undefined;
    let candles = chart.latest.get(period);
    if (!candles) chart.latest.set(period, (candles = new Map()));
    keepLastTwo(candles, time, data);
    return chart.byPeriod.get(period);
  }

  /** Stops the lingering; from now on a chart's last watcher drops its subscription at once. */
  close(): void {
    this.closed = true;
    for (const chart of this.charts.values()) if (chart.lingerTimer) clearTimeout(chart.lingerTimer);
  }
}

/** Keeps the newest update of the last two candles, in time order (an older candle's final close survives). */
export function keepLastTwo<D>(candles: Map<number, D>, time: number, data: D): void {
  // Nearly every push updates a candle already kept, or starts the next one: no reordering then.
  const kept = candles.has(time);
  const newest = !kept && (candles.size === 0 || time > Math.max(...candles.keys()));
  candles.set(time, data);
  if (kept) return;
  if (newest) {
    if (candles.size > 2) candles.delete(candles.keys().next().value!);
    return;
  }
  const lastTwo = [...candles].sort((a, b) => a[0] - b[0]).slice(-2);
  candles.clear();
  for (const [t, d] of lastTwo) candles.set(t, d);
}
