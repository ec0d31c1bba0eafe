/** Trading hours and candle boundaries. Times are seconds since the epoch (UTC). */
import { PERIOD_SECONDS, type ChartPeriod } from '../../contract/enums';
import { londonDayStart, londonOffset } from '../../contract/time';

export { londonDayStart, londonOffset };

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
