import { formatPrice } from '~/utils/format';
import type { Indicator } from './indicator-kinds';

/** A value as the legend and the canvas's scales write it: overlays at the price's precision, MACD finer, 0–100 scales at two. */
export function formatIndicator(indicator: Indicator, value: number, precision: number, locale: string): string {
  const decimals = indicator.kind === 'rsi' || indicator.kind === 'kdj' ? 2 : indicator.kind === 'macd' ? precision + 1 : precision;
  return formatPrice(value, decimals, locale);
}
