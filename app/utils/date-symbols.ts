/**
 * Dates and times in the user's language without Intl in the browser, as numbers are (number-symbols.ts).
 * Two reasons. Hydration must write what the server wrote, and ICUs disagree in small ways: this machine's
 * Node writes "25/11/2026 下午3:46:04" for zh-Hant-HK with a thin space (U+2009) where Chromium writes a
 * plain one, a hydration error that made React throw the server's page away and draw /order again. And a
 * page's first `new Intl.DateTimeFormat` costs an ICU start-up in one task during hydration.
 * So the server reads a style's pattern from Intl once (the parts, the month names, AM/PM, the digits,
 * the calendar's year), the page carries it (`<html data-date-patterns>`), and both sides fill it in with
 * London's wall clock (contract/time.ts). `date-symbols.test.ts` checks it against Intl in every language.
 */
import { londonOffset } from '#contract/time';
import { readDigits } from './number-symbols';

const CLOCK = { hour: '2-digit', minute: '2-digit', hourCycle: 'h23' } as const;
const DAY = { day: '2-digit', month: 'short' } as const;

/** The styles the screens use: a moment (orders, ledgers, alerts), a day (news), and the chart's labels. */
export const DATE_STYLES = {
  dateTime: { dateStyle: 'short', timeStyle: 'medium' },
  date: { dateStyle: 'medium' },
  clock: CLOCK,
  clockSeconds: { ...CLOCK, second: '2-digit' },
  day: DAY,
  dayYear: { ...DAY, year: 'numeric' },
  dayClock: { ...DAY, ...CLOCK },
  year: { year: 'numeric' },
  month: { month: 'short' },
} as const satisfies Record<string, Intl.DateTimeFormatOptions>;
export type DateStyle = keyof typeof DATE_STYLES;

type Field = 'year' | 'month' | 'day' | 'hour' | 'minute' | 'second' | 'dayPeriod';
type Part = string | { f: Field; pad?: true };

export interface DatePattern {
  /** Literal text, or a field (zero-padded to two digits when `pad`). */
  parts: Part[];
  /** The month as a word (a medium date), January first. */
  months?: string[];
  /** Before and after noon, for a 12-hour clock. */
  dayPeriods?: [string, string];
  hourCycle: 'h11' | 'h12' | 'h23' | 'h24';
  /** Years of the language's calendar after the Gregorian one (543 in Thai); `twoDigitYear` writes only the last two. */
  yearOffset: number;
  twoDigitYear?: true;
  /** The ten digits when they are not 0–9. */
  digits?: string;
}

const FIELDS = new Set<string>(['year', 'month', 'day', 'hour', 'minute', 'second', 'dayPeriod']);

/** Reads a style's pattern from Intl (the server): a few sample moments, read as UTC, tell every field's form. */
export function readDatePattern(locale: string, style: DateStyle): DatePattern {
  const intl = new Intl.DateTimeFormat(locale, { ...DATE_STYLES[style], timeZone: 'UTC' });
  const partsOf = (month: number, day: number, hour: number) => intl.formatToParts(Date.UTC(2026, month, day, hour, 4, 5));
  const morning = partsOf(0, 5, 3);
  const value = (parts: Intl.DateTimeFormatPart[], type: string) => parts.find((p) => p.type === type)?.value;
  const digits = readDigits(locale);
  const ascii = (text: string) => text.replace(/./gu, (c) => (digits.includes(c) ? String(digits.indexOf(c)) : c));

  // V8's format() writes some spaces differently from its formatToParts() (U+202F before AM as a plain
  // space): the literals are read from format()'s text, at the parts' places.
  const written = intl.format(Date.UTC(2026, 0, 5, 3, 4, 5));
  if (written.length !== morning.reduce((n, p) => n + p.value.length, 0))
    throw new Error(`${locale} ${style}: format() and its parts differ`);
  const pattern: DatePattern = { parts: [], hourCycle: intl.resolvedOptions().hourCycle ?? 'h23', yearOffset: 0 };
  if (digits !== '0123456789') pattern.digits = digits;
  let at = 0;
  for (const p of morning) {
    at += p.value.length;
    // An era (Thai's "พ.ศ." before a year alone) is the same for every date the app shows: text.
    if (p.type === 'literal' || p.type === 'era') {
      pattern.parts.push(written.slice(at - p.value.length, at));
      continue;
    }
    if (!FIELDS.has(p.type)) throw new Error(`${locale} ${style}: no rule for the date part ${p.type}`);
    const field = p.type as Field;
    const text = ascii(p.value);
    if (field === 'year') {
      if (text.length === 2) pattern.twoDigitYear = true;
      pattern.yearOffset = Number(text) - (text.length === 2 ? 26 : 2026);
      pattern.parts.push({ f: field });
    } else if (field === 'month' && !/^\d+$/.test(text)) {
      pattern.months = Array.from({ length: 12 }, (_, m) => value(partsOf(m, 5, 3), 'month')!);
      pattern.parts.push({ f: field });
    } else if (field === 'dayPeriod') {
      pattern.dayPeriods = [p.value, value(partsOf(0, 5, 15), 'dayPeriod')!];
      pattern.parts.push({ f: field });
    } else {
      // Every sample value of these fields is a single digit: two digits means padded.
      pattern.parts.push(text.length === 2 ? { f: field, pad: true } : { f: field });
    }
  }
  return pattern;
}

/** Writes a moment (ISO text or epoch ms) in London time with a pattern: what Intl writes with its style there. */
export function formatWithPattern(moment: string | number, pattern: DatePattern): string {
  const utc = typeof moment === 'number' ? moment : Date.parse(moment);
  if (Number.isNaN(utc)) return '';
  const wall = new Date(utc + londonOffset(Math.floor(utc / 1000)) * 1000);
  const hours = wall.getUTCHours();
  const hour = { h23: hours, h24: hours || 24, h12: hours % 12 || 12, h11: hours % 12 }[pattern.hourCycle];
  const year = wall.getUTCFullYear() + pattern.yearOffset;
  const numbers: Record<Exclude<Field, 'dayPeriod'>, number> = {
    year: pattern.twoDigitYear ? year % 100 : year,
    month: wall.getUTCMonth() + 1,
    day: wall.getUTCDate(),
    hour,
    minute: wall.getUTCMinutes(),
    second: wall.getUTCSeconds(),
  };
  let out = '';
  for (const part of pattern.parts) {
    if (typeof part === 'string') out += part;
    else if (part.f === 'dayPeriod') out += pattern.dayPeriods?.[hours < 12 ? 0 : 1] ?? '';
    else if (part.f === 'month' && pattern.months) out += pattern.months[numbers.month - 1];
    else {
      const text = String(numbers[part.f]).padStart(part.pad || (part.f === 'year' && pattern.twoDigitYear) ? 2 : 1, '0');
      out += pattern.digits ? text.replace(/\d/g, (d) => pattern.digits![Number(d)]!) : text;
    }
  }
  return out;
}
