/** An alert's direction, apart from the schema: the add form draws with it before its checks (zod) arrive. */
import { AlertDirection, directionFor } from '#contract/alert-rules';
import { parseUnits } from '#contract/money';

export const ALERT_DIRECTIONS = ['above', 'below'] as const;
export type AlertSide = (typeof ALERT_DIRECTIONS)[number];

/**
 * The direction a typed price calls for against the current price (both at the instrument's decimals):
 * above it "rises to", below it "falls to", at it none (the trader must move the price or choose).
 */
export function sideFor(price: string, current: number, precision: number): AlertSide | null {
  const level = parseUnits(price.trim(), precision);
  const now = parseUnits(current.toFixed(precision), precision);
  if (level === null || level <= 0 || now === null || level === now) return null;
  return directionFor(level, now) === AlertDirection.Above ? 'above' : 'below';
}
