/** Numbers for people: Intl in the user's language (BCP-47), with the spec's precisions (§9). */
const cache = new Map<string, Intl.NumberFormat>();

function formatter(locale: string, min: number, max: number, signed = false): Intl.NumberFormat {
  const key = `${locale}|${min}|${max}|${signed}`;
  let f = cache.get(key);
  if (!f) {
    f = new Intl.NumberFormat(locale, {
      minimumFractionDigits: min,
      maximumFractionDigits: max,
      signDisplay: signed ? 'exceptZero' : 'auto',
    });
    cache.set(key, f);
  }
  return f;
}

/** A price at the instrument's precision. */
export function formatPrice(value: number, precision: number, locale: string): string {
  return formatter(locale, precision, precision).format(value);
}

/** Balance and money amounts: 2 decimals. */
export function formatMoney(value: number, locale: string): string {
  return formatter(locale, 2, 2).format(value);
}

/** Profit and margin: up to 6 decimals (spec §9), at least 2. */
export function formatProfit(value: number, locale: string, signed = true): string {
  return formatter(locale, 2, 6, signed).format(value);
}

export function formatMargin(value: number, locale: string): string {
  return formatter(locale, 2, 6).format(value);
}

/** Lots for display: at least 2 decimals, the lot unit's 3 at most. */
export function formatLots(lots: number, locale: string): string {
  return formatter(locale, 2, 3).format(lots);
}

export function formatPercent(value: number, locale: string, signed = true): string {
  return `${formatter(locale, 2, 2, signed).format(value)}%`;
}

export function formatDateTime(iso: string, locale: string, timeZone?: string): string {
  if (!iso) return '';
  return new Intl.DateTimeFormat(locale, { dateStyle: 'short', timeStyle: 'medium', timeZone }).format(new Date(iso));
}

export function trendOf(change: number): 'up' | 'down' | 'flat' {
  return change > 0 ? 'up' : change < 0 ? 'down' : 'flat';
}
