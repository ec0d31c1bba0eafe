/**
 * Europe/London time (spec §9: chart times; upstream.md: day boundaries), in one place for the upstream's
 * candles and the web's chart. Times are seconds since the epoch (UTC).
 */
/**
 * London's clocks (the UK's rule since 1996, the EU's): summer time, one hour ahead of UTC, from 01:00 UTC on
 * the last Sunday of March to 01:00 UTC on the last Sunday of October. A rule, not Intl: a page's first Intl
 * object costs its ICU start-up during hydration, and the browser's time-zone data need not match the
 * server's. `time.test.ts` checks it against Intl's Europe/London hour by hour from 1996 (before that the
 * UK's rules were others: this app has no earlier times); should the UK change its clocks, that test fails
 * when the tz data knows it.
 */
const HOUR = 3600;

/** 01:00 UTC on the last Sunday of a month (0-based), in seconds. */
function lastSundayOneAm(year: number, month: number): number {
  const lastDay = new Date(Date.UTC(year, month + 1, 0, 1));
  return lastDay.getTime() / 1000 - lastDay.getUTCDay() * 24 * HOUR;
}

/** The year's summer time [start, end) in seconds, of the last year asked (the upstream asks it per candle). */
let summer = { from: 0, to: 0, yearStart: 1, yearEnd: 0 };

/** Seconds to add to a UTC instant to get London's wall clock then (0 in winter, 3600 in summer). */
export function londonOffset(utcSeconds: number): number {
  if (utcSeconds < summer.yearStart || utcSeconds >= summer.yearEnd) {
    const year = new Date(utcSeconds * 1000).getUTCFullYear();
    // Not a time (or past what Date holds): no summer time, and the cached year stays as it was.
    if (!Number.isFinite(year)) return 0;
    summer = {
      from: lastSundayOneAm(year, 2),
      to: lastSundayOneAm(year, 9),
      yearStart: Date.UTC(year, 0, 1) / 1000,
      yearEnd: Date.UTC(year + 1, 0, 1) / 1000,
    };
  }
  return utcSeconds >= summer.from && utcSeconds < summer.to ? HOUR : 0;
}

/** The instant of the London midnight that starts the day holding t (DST-aware). */
export function londonDayStart(t: number): number {
  const offset = londonOffset(t);
  const local = t + offset;
  const localMidnight = local - (((local % 86400) + 86400) % 86400);
  // The offset at midnight may differ from the offset at t on a clock-change day.
  return localMidnight - londonOffset(localMidnight - offset);
}
