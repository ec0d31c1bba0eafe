/**
 * Dates for people in the user's language, London time (spec §9), with the patterns the page carries
 * (date-symbols.ts). Apart from format.ts so that pages without dates (the market list) do not load it.
 */
import { CHART_TIMEZONE } from '#contract/enums';
import { carriedByPage } from './format';
import { DATE_STYLES, formatWithPattern, readDatePattern, type DatePattern, type DateStyle } from './date-symbols';

type Patterns = Record<DateStyle, DatePattern>;
const patternsByLocale = new Map<string, Patterns | null>();

/**
 * A language's date patterns: the server reads them from Intl once; the browser has those its page carries
 * for its language, and leaves reading them out of its script (null: another language is written by Intl).
 */
export function datePatterns(locale: string): Patterns | null {
  let patterns = patternsByLocale.get(locale);
  if (patterns === undefined) {
    patterns =
      carriedByPage<Patterns>(locale, 'datePatterns') ??
      (import.meta.env.SSR
        ? (Object.fromEntries(Object.keys(DATE_STYLES).map((style) => [style, readDatePattern(locale, style as DateStyle)])) as Patterns)
        : null);
    patternsByLocale.set(locale, patterns);
  }
  return patterns;
}

/** A moment (ISO text or epoch ms) in one of the date styles, in London time. */
export function formatMoment(moment: string | number, style: DateStyle, locale: string): string {
  const pattern = datePatterns(locale)?.[style];
  if (pattern) return formatWithPattern(moment, pattern);
  const ms = typeof moment === 'number' ? moment : Date.parse(moment);
  if (Number.isNaN(ms)) return '';
  const key = `${locale} ${style}`;
  let intl = intlByStyle.get(key);
  if (!intl) intlByStyle.set(key, (intl = new Intl.DateTimeFormat(locale, { ...DATE_STYLES[style], timeZone: CHART_TIMEZONE })));
  return intl.format(ms);
}

/** The fallback's formatters (a chart labels many times a second). */
const intlByStyle = new Map<string, Intl.DateTimeFormat>();

/** A moment (date and time to the second) in London time, as every time on the site (spec §9). */
export function formatDateTime(iso: string, locale: string): string {
  return iso ? formatMoment(iso, 'dateTime', locale) : '';
}

/** A day in London time (news). */
export function formatDate(iso: string, locale: string): string {
  return iso ? formatMoment(iso, 'date', locale) : '';
}
