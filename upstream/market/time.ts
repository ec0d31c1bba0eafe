/** Trading hours and candle boundaries. Times are seconds since the epoch (UTC). */
import { CHART_TIMEZONE, PERIOD_SECONDS, type ChartPeriod } from '../../contract/enums';

const londonParts = new Intl.DateTimeFormat('en-GB', {
  timeZone: CHART_TIMEZONE,
  year: 'numeric',
  month: '2-digit',
  day: '2-digit',
  hour: '2-digit',
  minute: '2-digit',
  second: '2-digit',
  hourCycle: 'h23',
});

/** Seconds to add to UTC to get London wall-clock time at instant t. */
export function londonOffset(t: number): number {
  const p = Object.fromEntries(londonParts.formatToParts(new Date(t * 1000)).map((x) => [x.type, x.value]));
  const asUtc = Date.UTC(+p.year!, +p.month! - 1, +p.day!, +p.hour!, +p.minute!, +p.second!) / 1000;
  return asUtc - t;
}

const dayStartCache = new Map<number, number>();
/** The instant of the London midnight that starts the day holding t (DST-aware). */
export function londonDayStart(t: number): number {
  const hourKey = Math.floor(t / 3600);
  const cached = dayStartCache.get(hourKey);
  if (cached !== undefined) return cached;
  const offset = londonOffset(t);
  const local = t + offset;
  const localMidnight = local - (((local % 86400) + 86400) % 86400);
  let start = localMidnight - offset;
  // The offset at midnight may differ from the offset at t on a clock-change day.
  start = localMidnight - londonOffset(start);
  if (dayStartCache.size > 10_000) dayStartCache.clear();
  dayStartCache.set(hourKey, start);
  return start;
}

/** The start of the candle of `period` that holds t. Intraday candles align to UTC, days to London. */
export function periodStart(period: ChartPeriod, t: number): number {
  if (period === '1day') return londonDayStart(t);
  const len = PERIOD_SECONDS[period];
  return t - (((t % len) + len) % len);
}

/**
 * Weekly session of forex, metals, indices and energy: closed from Friday 22:00 to Sunday 22:00 UTC.
 * Crypto never closes.
 */
export function isWithinTradingHours(alwaysOpen: boolean, t: number): boolean {
  if (alwaysOpen) return true;
  const d = new Date(t * 1000);
  const day = d.getUTCDay();
  const hour = d.getUTCHours();
  if (day === 6) return false;
  if (day === 5 && hour >= 22) return false;
  if (day === 0 && hour < 22) return false;
  return true;
}
