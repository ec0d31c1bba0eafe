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

/** A span of the week when a market is open: minutes from Sunday 00:00 UTC, `open` < `close` ≤ one week. */
export interface WeeklySession {
  open: number;
  close: number;
}

export const WEEK_MINUTES = 7 * 24 * 60;
const DAY_MINUTES = 24 * 60;

/** Crypto never closes. */
const AROUND_THE_CLOCK: readonly WeeklySession[] = [{ open: 0, close: WEEK_MINUTES }];
/** Forex, metals, indices and energy (upstream.md): closed from Friday 22:00 to Sunday 22:00 UTC. */
const WEEKDAYS: readonly WeeklySession[] = [{ open: 22 * 60, close: 5 * DAY_MINUTES + 22 * 60 }];

/** The weekly session: the one rule that both the market's status and the product call's session read. */
export function tradingSessions(alwaysOpen: boolean): readonly WeeklySession[] {
  return alwaysOpen ? AROUND_THE_CLOCK : WEEKDAYS;
}

export function isWithinTradingHours(alwaysOpen: boolean, t: number): boolean {
  const minute = Math.floor((((t % (7 * 86400)) + 7 * 86400) % (7 * 86400)) / 60);
  // The epoch was a Thursday: shift so that minute 0 is Sunday 00:00 UTC.
  const ofWeek = (minute + 4 * DAY_MINUTES) % WEEK_MINUTES;
  return tradingSessions(alwaysOpen).some((s) => ofWeek >= s.open && ofWeek < s.close);
}
