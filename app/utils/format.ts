/** Numbers for people in the user's language (BCP-47), with the spec's precisions (§9). */
import { formatWithIntl, formatWithSymbols, readNumberSymbols, type NumberSymbols, type NumberStyle } from './number-symbols';

const symbolsByLocale = new Map<string, NumberSymbols | null>();

/**
 * A language's symbols: the server reads them from Intl once; the browser has those its page carries for
 * its language, and leaves reading them out of its script (null: another language is written by Intl).
 */
export function numberSymbols(locale: string): NumberSymbols | null {
  let symbols = symbolsByLocale.get(locale);
  if (symbols === undefined) {
    symbols = carriedByPage<NumberSymbols>(locale, 'numberSymbols') ?? (import.meta.env.SSR ? readNumberSymbols(locale) : null);
    symbolsByLocale.set(locale, symbols);
  }
  return symbols;
}

/** What the page carries for its language in `<html data-…>` (JSON, written by the root's Layout on the server), if it is this one's. */
export function carriedByPage<T>(locale: string, key: 'numberSymbols' | 'datePatterns'): T | null {
  if (typeof document === 'undefined') return null;
  const html = document.documentElement;
  const carried = html.lang === locale ? html.dataset[key] : undefined;
  return carried ? (JSON.parse(carried) as T) : null;
}

function format(value: number, locale: string, style: NumberStyle): string {
  const symbols = numberSymbols(locale);
  return symbols ? formatWithSymbols(value, style, symbols) : formatWithIntl(value, style, locale);
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

export function trendOf(change: number): 'up' | 'down' | 'flat' {
  return change > 0 ? 'up' : change < 0 ? 'down' : 'flat';
}
