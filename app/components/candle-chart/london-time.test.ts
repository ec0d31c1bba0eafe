import { describe, expect, test } from 'vitest';
import { createLondonTimeline, formatAxisTime, formatCandleTime, londonOffset, toLondonWallClock } from './london-time';

const utc = (y: number, mo: number, d: number, h = 0, mi = 0) => Date.UTC(y, mo - 1, d, h, mi) / 1000;
const HOUR = 3600;

describe('londonOffset', () => {
  test('winter is GMT, summer is BST', () => {
    expect(londonOffset(utc(2025, 1, 15, 12))).toBe(0);
    expect(londonOffset(utc(2025, 7, 15, 12))).toBe(HOUR);
  });

  test('the clocks go forward at 01:00 UTC on the last Sunday of March', () => {
    expect(londonOffset(utc(2025, 3, 30, 0, 59))).toBe(0);
    expect(londonOffset(utc(2025, 3, 30, 1, 0))).toBe(HOUR);
    expect(londonOffset(utc(2026, 3, 29, 0, 59))).toBe(0);
    expect(londonOffset(utc(2026, 3, 29, 1, 0))).toBe(HOUR);
  });

  test('the clocks go back at 01:00 UTC on the last Sunday of October', () => {
    expect(londonOffset(utc(2025, 10, 26, 0, 59))).toBe(HOUR);
    expect(londonOffset(utc(2025, 10, 26, 1, 0))).toBe(0);
  });

  test('the wall clock is UTC shifted by the offset of that instant', () => {
    expect(toLondonWallClock(utc(2025, 3, 30, 0, 45))).toBe(utc(2025, 3, 30, 0, 45));
    expect(toLondonWallClock(utc(2025, 3, 30, 1, 0))).toBe(utc(2025, 3, 30, 2, 0));
    expect(toLondonWallClock(utc(2025, 10, 26, 0, 30))).toBe(utc(2025, 10, 26, 1, 30));
    expect(toLondonWallClock(utc(2025, 10, 26, 1, 30))).toBe(utc(2025, 10, 26, 1, 30));
  });
});

/** 15-minute candle times from `from` for `hours` hours. */
const quarterHours = (from: number, hours: number) => Array.from({ length: hours * 4 }, (_, i) => from + i * 900);

describe('createLondonTimeline', () => {
  test('in March the hour from 01:00 to 02:00 never happens: 00:45 is followed by 02:00', () => {
    const times = quarterHours(utc(2025, 3, 30, 0), 2);
    const timeline = createLondonTimeline();
    const chart = times.map((t) => timeline.toChart(t));
    expect(chart[3]).toBe(utc(2025, 3, 30, 0, 45));
    expect(chart[4]).toBe(utc(2025, 3, 30, 2, 0));
    expect(times.map((t) => formatAxisTime(t, '15min', 'en')).slice(2, 6)).toEqual(['00:30', '00:45', '02:00', '02:15']);
  });

  test('in October the repeated hour keeps the canvas times rising, and labels still read 01:00 twice', () => {
    const times = quarterHours(utc(2025, 10, 26, 0), 3);
    const timeline = createLondonTimeline();
    const chart = times.map((t) => timeline.toChart(t));
    for (let i = 1; i < chart.length; i++) expect(chart[i]!).toBeGreaterThan(chart[i - 1]!);
    // Every candle maps back to its own instant, so labels are the real London time.
    expect(chart.map((c) => timeline.toUtc(c))).toEqual(times);
    const labels = chart.map((c) => formatAxisTime(timeline.toUtc(c), '15min', 'en'));
    expect(labels.slice(0, 9)).toEqual(['01:00', '01:15', '01:30', '01:45', '01:00', '01:15', '01:30', '01:45', '02:00']);
    // After the repeated hour the canvas is back on the plain wall clock.
    expect(chart[chart.length - 1]).toBe(toLondonWallClock(times[times.length - 1]!));
  });

  test('the same candle always gets the same canvas time (a live candle replaces its bar)', () => {
    const timeline = createLondonTimeline();
    const t = utc(2025, 7, 1, 12);
    expect(timeline.toChart(t)).toBe(utc(2025, 7, 1, 13));
    expect(timeline.toChart(t)).toBe(utc(2025, 7, 1, 13));
  });

  test('daily candles start at London midnight and land on that date', () => {
    const timeline = createLondonTimeline();
    // 31 March 2025 starts at 23:00 UTC on the 30th (BST).
    const day = utc(2025, 3, 30, 23);
    expect(timeline.toChart(day)).toBe(utc(2025, 3, 31));
    expect(formatAxisTime(day, '1day', 'en-GB')).toBe('31 Mar');
    expect(formatAxisTime(day, '1day', 'en')).toBe('Mar 31');
    expect(formatCandleTime(day, '1day', 'en-GB')).toBe('31 Mar 2025');
  });
});

describe('labels', () => {
  test('intraday labels are HH:mm in London, in the reader’s language', () => {
    expect(formatAxisTime(utc(2025, 1, 15, 9, 5), '5min', 'en')).toBe('09:05');
    expect(formatAxisTime(utc(2025, 7, 15, 9, 5), '5min', 'en')).toBe('10:05');
    expect(formatAxisTime(utc(2025, 7, 15, 23, 30), '30min', 'de')).toBe('00:30');
  });

  test('daily labels are day and month in the reader’s language', () => {
    expect(formatAxisTime(utc(2025, 1, 15), '1day', 'fr')).toMatch(/^15 janv/);
  });
});
