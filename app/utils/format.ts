/** Numbers for people in the user's language (BCP-47), with the spec's precisions (§9). */
import { DATE_STYLES, formatWithPattern, readDatePattern, type DatePattern, type DateStyle } from './date-symbols';
import { formatWithSymbols, readNumberSymbols, type NumberSymbols, type NumberStyle } from './number-symbols';

const symbolsByLocale = new Map<string, NumberSymbols>();

/** A language's symbols: in the browser those the page carries for its language, else read from Intl once. */
export function numberSymbols(locale: string): NumberSymbols {
  let symbols = symbolsByLocale.get(locale);
  if (!symbols) symbolsByLocale.set(locale, (symbols = carriedByPage(locale) ?? readNumberSymbols(locale)));
  return symbols;
}

function carriedByPage(locale: string): NumberSymbols | null {
  if (typeof document === 'undefined') return null;
  const html = document.documentElement;
  return html.lang === locale && html.dataset.numberSymbols ? (JSON.parse(html.dataset.numberSymbols) as NumberSymbols) : null;
}

function format(value: number, locale: string, style: NumberStyle): string {
  return formatWithSymbols(value, style, numberSymbols(locale));
}

/** A price at the instrument's precision. */
export function formatPrice(value: number, precision: number, locale: string): string {
  return format(value, locale, { min: precision, max: precision });
}

/** Balance and money amounts: 2 decimals. */
export function formatMoney(value: number, locale: string): string {
  return format(value, locale, { min: 2, max: 2 });
}

/** Profit and margin: up to 6 decimals (spec §9), at least 2. */
export function formatProfit(value: number, locale: string, signed = true): string {
  return format(value, locale, { min: 2, max: 6, signed });
}

export function formatMargin(value: number, locale: string): string {
  return format(value, locale, { min: 2, max: 6 });
}

/** Lots for display: at least 2 decimals, the lot unit's 3 at most. */
export function formatLots(lots: number, locale: string): string {
  return format(lots, locale, { min: 2, max: 3 });
}

export function formatPercent(value: number, locale: string, signed = true): string {
  return `${format(value, locale, { min: 2, max: 2, signed })}%`;
}

/** A whole number (counts, units per lot). */
export function formatInteger(value: number, locale: string): string {
  return format(value, locale, { min: 0, max: 0 });
}

const patternsByLocale = new Map<string, Record<DateStyle, DatePattern>>();

/** A language's date patterns: in the browser those the page carries for its language, else read from Intl once. */
export function datePatterns(locale: string): Record<DateStyle, DatePattern> {
  let patterns = patternsByLocale.get(locale);
  if (!patterns) {
    const html = typeof document === 'undefined' ? null : document.documentElement;
    const carried = html?.lang === locale ? html.dataset.datePatterns : undefined;
    patterns = carried
      ? (JSON.parse(carried) as Record<DateStyle, DatePattern>)
      : (Object.fromEntries(Object.keys(DATE_STYLES).map((style) => [style, readDatePattern(locale, style as DateStyle)])) as Record<
          DateStyle,
          DatePattern
        >);
    patternsByLocale.set(locale, patterns);
  }
  return patterns;
}

/** A moment (date and time to the second) in London time, as every time on the site (spec §9). */
export function formatDateTime(iso: string, locale: string): string {
  return iso ? formatWithPattern(iso, datePatterns(locale).dateTime) : '';
}

/** A day in London time (news). */
export function formatDate(iso: string, locale: string): string {
  return iso ? formatWithPattern(iso, datePatterns(locale).date) : '';
}

/** A moment (epoch ms) in one of the date styles (the chart's labels), in London time. */
export function formatMoment(ms: number, style: DateStyle, locale: string): string {
  return formatWithPattern(ms, datePatterns(locale)[style]);
}

export function trendOf(change: number): 'up' | 'down' | 'flat' {
  return change > 0 ? 'up' : change < 0 ? 'down' : 'flat';
}
