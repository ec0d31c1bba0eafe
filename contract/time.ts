/**
 * Europe/London time (spec §9: chart times; upstream.md: day boundaries), in one place for the upstream's
 * candles and the web's chart. Times are seconds since the epoch (UTC).
 */
import { CHART_TIMEZONE } from './enums';

// Made at first use, not when the module loads: a page's first Intl object costs its ICU start-up, and the
// trade screen's hydration does not need this one.
let londonFormat: Intl.DateTimeFormat | null = null;
const londonParts = (date: Date) => (londonFormat ??= new Intl.DateTimeFormat('en-GB', LONDON_PARTS)).formatToParts(date);
const LONDON_PARTS: Intl.DateTimeFormatOptions = {
  timeZone: CHART_TIMEZONE,
  year: 'numeric',
  month: '2-digit',
  day: '2-digit',
  hour: '2-digit',
  minute: '2-digit',
  second: '2-digit',
  hourCycle: 'h23',
};

const offsetByHour = new Map<number, number>();

/** Seconds to add to a UTC instant to get London's wall clock then (0 in winter, 3600 in summer). */
export function londonOffset(utcSeconds: number): number {
  // London's clocks change on the hour, so the offset is the same for a whole UTC hour.
  const hour = Math.floor(utcSeconds / 3600);
  const cached = offsetByHour.get(hour);
  if (cached !== undefined) return cached;
  const p = Object.fromEntries(londonParts(new Date(hour * 3600_000)).map((x) => [x.type, x.value]));
  const wallClock = Date.UTC(Number(p.year), Number(p.month) - 1, Number(p.day), Number(p.hour), Number(p.minute), Number(p.second)) / 1000;
  const offset = wallClock - hour * 3600;
  if (offsetByHour.size > 5000) offsetByHour.clear();
  offsetByHour.set(hour, offset);
  return offset;
}

/** The instant of the London midnight that starts the day holding t (DST-aware). */
export function londonDayStart(t: number): number {
  const offset = londonOffset(t);
  const local = t + offset;
  const localMidnight = local - (((local % 86400) + 86400) % 86400);
  // The offset at midnight may differ from the offset at t on a clock-change day.
  return localMidnight - londonOffset(localMidnight - offset);
}
