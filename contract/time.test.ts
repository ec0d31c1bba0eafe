import { describe, expect, it } from 'vitest';
import { CHART_TIMEZONE } from './enums';
import { londonDayStart, londonOffset } from './time';

/** London's offset as Intl's time-zone data has it: the reference the rule must match. */
const intl = new Intl.DateTimeFormat('en-GB', {
  timeZone: CHART_TIMEZONE,
  year: 'numeric',
  month: '2-digit',
  day: '2-digit',
  hour: '2-digit',
  minute: '2-digit',
  second: '2-digit',
  hourCycle: 'h23',
});
function intlOffset(utcSeconds: number): number {
  const p = Object.fromEntries(intl.formatToParts(utcSeconds * 1000).map((x) => [x.type, x.value]));
  return (
    Date.UTC(Number(p.year), Number(p.month) - 1, Number(p.day), Number(p.hour), Number(p.minute), Number(p.second)) / 1000 - utcSeconds
  );
}

describe("London's clock", () => {
  it("matches the time-zone data every hour from 1996 to 2060, changing only on the hour; and a second either side of 2026's changes", () => {
    const mismatches: string[] = [];
    for (let t = Date.UTC(1996, 0, 1) / 1000; t < Date.UTC(2060, 0, 1) / 1000; t += 3600) {
      if (londonOffset(t) !== intlOffset(t)) mismatches.push(new Date(t * 1000).toISOString());
      if (londonOffset(t) !== londonOffset(t + 3599)) {
        // A change inside this hour: it must be at its start (the clocks change at 01:00 UTC).
        mismatches.push(`change inside the hour after ${new Date(t * 1000).toISOString()}`);
      }
    }
    expect(mismatches).toEqual([]);
    // 2026: summer time from 29 March 01:00 UTC to 25 October 01:00 UTC.
    expect(londonOffset(Date.UTC(2026, 2, 29, 0, 59, 59) / 1000)).toBe(0);
    expect(londonOffset(Date.UTC(2026, 2, 29, 1) / 1000)).toBe(3600);
    expect(londonOffset(Date.UTC(2026, 9, 25, 0, 59, 59) / 1000)).toBe(3600);
    expect(londonOffset(Date.UTC(2026, 9, 25, 1) / 1000)).toBe(0);
    // Asked in any order (the rule keeps one year at hand), and past what Date holds without spoiling it.
    expect(londonOffset(Date.UTC(2031, 6, 1) / 1000)).toBe(3600);
    expect(londonOffset(Date.UTC(2001, 0, 1) / 1000)).toBe(0);
    expect(londonOffset(1e13)).toBe(0);
    expect(londonOffset(Number.NaN)).toBe(0);
    expect(londonOffset(Date.UTC(2001, 6, 1) / 1000)).toBe(3600);
  });

  it("starts London's day at its midnight, summer or winter", () => {
    expect(londonDayStart(Date.UTC(2026, 0, 15, 12) / 1000)).toBe(Date.UTC(2026, 0, 15) / 1000);
    expect(londonDayStart(Date.UTC(2026, 6, 15, 12) / 1000)).toBe(Date.UTC(2026, 6, 14, 23) / 1000);
    expect(londonDayStart(Date.UTC(2026, 6, 14, 23, 30) / 1000)).toBe(Date.UTC(2026, 6, 14, 23) / 1000);
  });
});
