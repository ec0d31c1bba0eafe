/**
 * The Contract screen's trading session: the weekly spans the product call sends (minutes from Sunday 00:00
 * UTC) laid on London's days from today (the app's time rule, contract/time.ts), and the next open or close.
 * Pure, so the server's render and the browser's hydration agree when both are given the loader's `now`.
 */
import { londonDayStart, londonOffset } from '#contract/time';
import type { InstrumentContract } from '#contract/views';

type Sessions = NonNullable<InstrumentContract['sessions']>;

const DAY = 86400;
const WEEK = 7 * DAY;

/** A span of time the market is open, in UTC seconds [from, to). */
interface Span {
  from: number;
  to: number;
}

/** Part of a London day the market is open: all of it, from a time to its end, from its start until a time, or between two. */
export interface DayPiece {
  kind: 'allDay' | 'from' | 'until' | 'between';
  from: number;
  to: number;
}

export interface SessionDay {
  /** Its London midnight (UTC seconds). */
  start: number;
  /** 0 Sunday … 6 Saturday, of London's calendar. */
  weekday: number;
  today: boolean;
  /** Empty: closed all day. */
  pieces: DayPiece[];
}

/** Sunday 00:00 UTC of the week holding t (the epoch was a Thursday). */
function weekStart(t: number): number {
  const days = Math.floor(t / DAY);
  return (days - ((days + 4) % 7)) * DAY;
}

/** The sessions as instants from the week before t to three weeks after, touching spans joined. */
function spansAround(sessions: Sessions, t: number): Span[] {
  const first = weekStart(t) - WEEK;
  const spans: Span[] = [];
  for (let w = 0; w < 4; w++)
    for (const s of sessions) spans.push({ from: first + w * WEEK + s.open * 60, to: first + w * WEEK + s.close * 60 });
  spans.sort((a, b) => a.from - b.from);
  const joined: Span[] = [];
  for (const s of spans) {
    const last = joined[joined.length - 1];
    if (last && s.from <= last.to) last.to = Math.max(last.to, s.to);
    else joined.push({ ...s });
  }
  return joined;
}

/** Today and the six London days after it, each with the parts of it the market is open. */
export function weekSchedule(sessions: Sessions, nowSeconds: number): SessionDay[] {
  const spans = spansAround(sessions, nowSeconds);
  const days: SessionDay[] = [];
  let start = londonDayStart(nowSeconds);
  for (let i = 0; i < 7; i++) {
    // London days last 23 to 25 hours: 26 hours on is always inside the next one.
    const end = londonDayStart(start + 26 * 3600);
    const pieces: DayPiece[] = [];
    for (const s of spans) {
      const from = Math.max(s.from, start);
      const to = Math.min(s.to, end);
      if (from >= to) continue;
      const kind = from === start && to === end ? 'allDay' : to === end ? 'from' : from === start ? 'until' : 'between';
      pieces.push({ kind, from, to });
    }
    const weekday = new Date((start + londonOffset(start)) * 1000).getUTCDay();
    days.push({ start, weekday, today: i === 0, pieces });
    start = end;
  }
  return days;
}

/** What happens next: the market closes or opens at `at`, or it never closes (or never opens). */
export type NextChange = { kind: 'close' | 'open'; at: number } | { kind: 'never-closes' | 'never-opens' };

export function nextChange(sessions: Sessions, nowSeconds: number): NextChange {
  const spans = spansAround(sessions, nowSeconds);
  if (spans.length === 0) return { kind: 'never-opens' };
  const current = spans.find((s) => s.from <= nowSeconds && nowSeconds < s.to);
  if (current) {
    // Joined across all four weeks laid out: open around the clock.
    return current.to - current.from >= 4 * WEEK ? { kind: 'never-closes' } : { kind: 'close', at: current.to };
  }
  const next = spans.find((s) => s.from > nowSeconds);
  return next ? { kind: 'open', at: next.from } : { kind: 'never-opens' };
}

/** London's zone at an instant: GMT (UTC+0) in winter, BST (UTC+1) in summer. */
export function londonZone(seconds: number): { name: 'GMT' | 'BST'; utcOffsetHours: 0 | 1 } {
  return londonOffset(seconds) === 0 ? { name: 'GMT', utcOffsetHours: 0 } : { name: 'BST', utcOffsetHours: 1 };
}
