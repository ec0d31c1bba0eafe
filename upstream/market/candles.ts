/**
 * Candles of the six chart periods: the current candle of each period lives in memory and is written
 * when it completes (and on flush); history is read from SQLite. A fresh database is backfilled from the
 * same random walk as the live simulator, backwards from the current price.
 */
import { CHART_PERIODS, PERIOD_SECONDS, type ChartPeriod } from '../../contract/enums';
import type { Db } from '../db/database';
import { Random, walk } from './random';
import { isWithinTradingHours, periodStart } from './time';

export interface Candle {
  time: number;
  open: number;
  high: number;
  low: number;
  close: number;
  volume: number;
}

/** How many closes each instrument keeps in memory per period for sparklines. */
export const SPARKLINE_POINTS = 48;

export class CandleBook {
  private current = new Map<string, Candle>();
  private recentCloses = new Map<string, number[]>();
  private readonly upsert;
  private readonly select;
  private readonly selectBefore;

  constructor(private readonly db: Db) {
    this.upsert = db.prepare(
      `INSERT INTO candles (instrument_id, period, time, open, high, low, close, volume)
       VALUES (@id, @period, @time, @open, @high, @low, @close, @volume)
       ON CONFLICT (instrument_id, period, time) DO UPDATE SET
         open = excluded.open, high = excluded.high, low = excluded.low, close = excluded.close, volume = excluded.volume`,
    );
    this.select = db.prepare(
      `SELECT time, open, high, low, close, volume FROM candles
       WHERE instrument_id = ? AND period = ? ORDER BY time DESC LIMIT ?`,
    );
    this.selectBefore = db.prepare(
      `SELECT time, open, high, low, close, volume FROM candles
       WHERE instrument_id = ? AND period = ? AND time < ? ORDER BY time DESC LIMIT ?`,
    );
  }

  /** Loads the latest stored candle of each period as the current one, and the sparkline closes. */
  load(instrumentId: number): void {
    for (const period of CHART_PERIODS) {
      const rows = this.select.all(instrumentId, period, SPARKLINE_POINTS) as Candle[];
      const latest = rows[0];
      if (latest) this.current.set(key(instrumentId, period), { ...latest });
      this.recentCloses.set(key(instrumentId, period), rows.map((r) => r.close).reverse());
    }
  }

  /** Folds a tick into every period; returns the updated current candles. */
  tick(instrumentId: number, price: number, volume: number, t: number): { period: ChartPeriod; candle: Candle }[] {
    const out: { period: ChartPeriod; candle: Candle }[] = [];
    for (const period of CHART_PERIODS) {
      const k = key(instrumentId, period);
      const start = periodStart(period, t);
      let c = this.current.get(k);
      if (!c || c.time !== start) {
        if (c && c.time < start) this.write(instrumentId, period, c);
        if (c && c.time > start) continue; // a tick older than the candle we hold: ignore it
        c = { time: start, open: price, high: price, low: price, close: price, volume: 0 };
        this.current.set(k, c);
        const closes = this.recentCloses.get(k) ?? [];
        closes.push(price);
        if (closes.length > SPARKLINE_POINTS) closes.shift();
        this.recentCloses.set(k, closes);
      }
      c.close = price;
      if (price > c.high) c.high = price;
      if (price < c.low) c.low = price;
      c.volume += volume;
      const closes = this.recentCloses.get(k)!;
      closes[closes.length - 1] = price;
      out.push({ period, candle: c });
    }
    return out;
  }

  /**
   * The latest `limit` candles, oldest first, the in-memory current one included; with `before` (a candle time), the
   * `limit` candles strictly older than it (a page of history: the next page's `before` is this page's first time).
   */
  history(instrumentId: number, period: ChartPeriod, limit: number, before?: number): Candle[] {
    const rows = (
      before === undefined ? this.select.all(instrumentId, period, limit) : this.selectBefore.all(instrumentId, period, before, limit)
    ) as Candle[];
    rows.reverse();
    const c = this.current.get(key(instrumentId, period));
    // The current candle is newer than every stored one: it belongs to a page only when the cursor is past it.
    if (c && (before === undefined || c.time < before)) {
      const last = rows[rows.length - 1];
      if (last && last.time === c.time) rows[rows.length - 1] = { ...c };
      else if (!last || last.time < c.time) rows.push({ ...c });
      if (rows.length > limit) rows.shift();
    }
    return rows;
  }

  sparkline(instrumentId: number, period: ChartPeriod): number[] {
    return [...(this.recentCloses.get(key(instrumentId, period)) ?? [])];
  }

  /** Writes every current candle (called periodically and at shutdown). */
  flush(): void {
    this.db.transaction(() => {
      for (const [k, c] of this.current) {
        const [id, period] = k.split('|') as [string, ChartPeriod];
        this.write(Number(id), period, c);
      }
    })();
  }

  hasHistory(instrumentId: number): boolean {
    return this.db.prepare('SELECT 1 FROM candles WHERE instrument_id = ? LIMIT 1').get(instrumentId) !== undefined;
  }

  private write(instrumentId: number, period: ChartPeriod, c: Candle) {
    this.upsert.run({ id: instrumentId, period, ...c });
  }
}

function key(instrumentId: number, period: ChartPeriod) {
  return `${instrumentId}|${period}`;
}

export interface BackfillInput {
  instrumentId: number;
  price: number;
  volatility: number;
  alwaysOpen: boolean;
  now: number;
  seed: number;
}

/** Intraday history: 300 hours of open minutes; the finer periods keep their most recent part. */
const BACKFILL_MINUTES = 300 * 60;
/**
 * Candles kept back in each period (issue 40: at least 1,000, for a chart scrolled back). The minutes make enough of
 * 1min to 15min; 30min, 60min and 1day are walked back further, a candle of their own length at a time.
 */
export const KEEP: Record<ChartPeriod, number> = { '1min': 1000, '5min': 1000, '15min': 1000, '30min': 1000, '60min': 1000, '1day': 1000 };
/** The periods the minutes do not reach back far enough for; the day first, so its walk is the one it always was. */
const WALKED: readonly ChartPeriod[] = ['1day', '30min', '60min'];

/**
 * Walks backwards from the current price so that history joins the live price without a jump, skipping
 * the hours the market is closed. Returns the price the history starts from (unused by callers today).
 */
export function backfill(db: Db, input: BackfillInput): void {
  const rng = new Random(input.seed);
  const insert = db.prepare(
    `INSERT OR IGNORE INTO candles (instrument_id, period, time, open, high, low, close, volume)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  const minuteNow = input.now - (input.now % 60);
  // Minute closes, newest first.
  const minutes: { time: number; open: number; close: number; high: number; low: number; volume: number }[] = [];
  let close = input.price;
  let t = minuteNow - 60;
  while (minutes.length < BACKFILL_MINUTES) {
    if (isWithinTradingHours(input.alwaysOpen, t)) {
      const open = walk(close, input.volatility, 60, -rng.normal());
      const wick = Math.abs(close - open) * rng.next() + 1;
      minutes.push({
        time: t,
        open,
        close,
        high: Math.max(open, close) + Math.round(wick * rng.next()),
        low: Math.max(1, Math.min(open, close) - Math.round(wick * rng.next())),
        volume: 1 + rng.int(500),
      });
      close = open;
    }
    t -= 60;
  }
  const buckets = new Map<ChartPeriod, Map<number, Candle>>();
  for (const period of CHART_PERIODS) buckets.set(period, new Map());
  // Oldest first so that each bucket's open is its first minute's open.
  for (let i = minutes.length - 1; i >= 0; i--) {
    const m = minutes[i]!;
    for (const [period, map] of buckets) {
      const start = periodStart(period, m.time);
      const c = map.get(start);
      if (!c) map.set(start, { time: start, open: m.open, high: m.high, low: m.low, close: m.close, volume: m.volume });
      else {
        c.close = m.close;
        c.high = Math.max(c.high, m.high);
        c.low = Math.min(c.low, m.low);
        c.volume += m.volume;
      }
    }
  }
  // Candles before the minutes began, walking back from the oldest minute-built one's open. That oldest one is
  // partial, so the walk replaces it.
  for (const period of WALKED) {
    const map = buckets.get(period)!;
    const oldest = [...map.values()].reduce<Candle | undefined>((o, c) => (!o || c.time < o.time ? c : o), undefined);
    if (oldest) map.delete(oldest.time);
    const seconds = PERIOD_SECONDS[period];
    // A day is stepped back from an hour into it, since London days are 23 to 25 hours long.
    const previous = (t: number) => (period === '1day' ? periodStart('1day', t - 3600) : t - seconds);
    let close = oldest?.close ?? input.price;
    let t = oldest ? oldest.time + (period === '1day' ? 3600 : seconds) : periodStart(period, input.now);
    while (map.size < KEEP[period]) {
      t = previous(t);
      if (!openAt(period, t, input.alwaysOpen)) continue;
      const open = walk(close, input.volatility, seconds, -rng.normal());
      const range = Math.abs(close - open) + 1;
      map.set(t, {
        time: t,
        open,
        close,
        high: Math.max(open, close) + Math.round(range * rng.next()),
        low: Math.max(1, Math.min(open, close) - Math.round(range * rng.next())),
        volume: period === '1day' ? 50_000 + rng.int(200_000) : 1 + rng.int(500 * (seconds / 60)),
      });
      close = open;
    }
  }
  db.transaction(() => {
    for (const [period, map] of buckets) {
      const list = [...map.values()].sort((a, b) => b.time - a.time).slice(0, KEEP[period]);
      for (const c of list) insert.run(input.instrumentId, period, c.time, c.open, c.high, c.low, c.close, c.volume);
    }
  })();
}

/** Whether a walked candle starting at `t` has a market: days but Saturday, or the trading hours (crypto never closes). */
function openAt(period: ChartPeriod, t: number, alwaysOpen: boolean): boolean {
  if (period !== '1day') return isWithinTradingHours(alwaysOpen, t);
  return alwaysOpen || new Date((t + 12 * 3600) * 1000).getUTCDay() !== 6;
}
