/** The session on London's days: the forex week in winter, in summer, across the clocks' change, and crypto's. */
import { describe, expect, test } from 'vitest';
import { londonZone, nextChange, weekSchedule, type SessionDay } from './sessions';

/** Sunday 22:00 to Friday 22:00 UTC, as the reference upstream sends forex (upstream/market/time.ts). */
const FOREX = [{ open: 22 * 60, close: 5 * 1440 + 22 * 60 }];
const CRYPTO = [{ open: 0, close: 7 * 1440 }];
const utc = (y: number, m: number, d: number, h = 0) => Date.UTC(y, m - 1, d, h) / 1000;

/** A day as the screen says it: its weekday and each piece's kind with London wall-clock hours. */
function said(days: SessionDay[]) {
  const hour = (t: number) => new Date(t * 1000).getUTCHours() + (londonZone(t).utcOffsetHours as number);
  return days.map((d) => [d.weekday, ...d.pieces.map((p) => `${p.kind} ${hour(p.from) % 24}-${hour(p.to) % 24}`)].join(' '));
}

describe('forex', () => {
  test('on a winter Saturday: closed today, opens Sunday 22:00 GMT, closes Friday 22:00 GMT', () => {
    const now = utc(2026, 11, 28, 12);
    expect(said(weekSchedule(FOREX, now))).toEqual([
      '6',
      '0 from 22-0',
      '1 allDay 0-0',
      '2 allDay 0-0',
      '3 allDay 0-0',
      '4 allDay 0-0',
      '5 until 0-22',
    ]);
    expect(nextChange(FOREX, now)).toEqual({ kind: 'open', at: utc(2026, 11, 29, 22) });
    expect(londonZone(now)).toEqual({ name: 'GMT', utcOffsetHours: 0 });
  });

  test('on a summer Wednesday: London hours are an hour later (BST), and the next change is Friday’s close', () => {
    const now = utc(2026, 7, 1, 12);
    const days = weekSchedule(FOREX, now);
    expect(days[0]!.today).toBe(true);
    expect(said(days)).toEqual(['3 allDay 0-0', '4 allDay 0-0', '5 until 0-23', '6', '0 from 23-0', '1 allDay 0-0', '2 allDay 0-0']);
    expect(nextChange(FOREX, now)).toEqual({ kind: 'close', at: utc(2026, 7, 3, 22) });
    expect(londonZone(now)).toEqual({ name: 'BST', utcOffsetHours: 1 });
  });

  test('the Sunday the clocks go back is 25 hours long and still opens at 22:00 (GMT by then)', () => {
    const days = weekSchedule(FOREX, utc(2026, 10, 24, 12));
    expect(days[1]!.weekday).toBe(0);
    expect(days[1]!.pieces).toEqual([{ kind: 'from', from: utc(2026, 10, 25, 22), to: utc(2026, 10, 26) }]);
    // The day before was still in summer time: Saturday began at 23:00 UTC on Friday.
    expect(days[0]!.start).toBe(utc(2026, 10, 23, 23));
  });
});

test('crypto is open all day every day and never closes', () => {
  const now = utc(2026, 11, 28, 12);
  expect(weekSchedule(CRYPTO, now).every((d) => d.pieces.length === 1 && d.pieces[0]!.kind === 'allDay')).toBe(true);
  expect(nextChange(CRYPTO, now)).toEqual({ kind: 'never-closes' });
});

test('no spans: closed every day and never opens', () => {
  const now = utc(2026, 11, 28, 12);
  expect(weekSchedule([], now).every((d) => d.pieces.length === 0)).toBe(true);
  expect(nextChange([], now)).toEqual({ kind: 'never-opens' });
});
