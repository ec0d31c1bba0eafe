/** The rules of price alerts that the browser needs too, apart from the calls' schemas (zod stays out of pages' first scripts). */
/** Which way the price must go to reach the alert's level. */
export const AlertDirection = { Above: 1, Below: 2 } as const;
export type AlertDirection = (typeof AlertDirection)[keyof typeof AlertDirection];

/** Active (not yet triggered) alerts a user may hold at once. */
export const MAX_ACTIVE_ALERTS = 50;
/** Characters of an alert's note. */
export const ALERT_NOTE_MAX = 80;

/**
 * Whether a price reaches an alert's level: an "above" alert fires at or over it, a "below" one at or under
 * it (the one rule for the engine and for the direction the form preselects).
 */
export function alertReached(direction: AlertDirection, level: number, price: number): boolean {
  return direction === AlertDirection.Above ? price >= level : price <= level;
}

/** The direction that a level on this side of the current price needs (the form's preselection). */
export function directionFor(level: number, current: number): AlertDirection {
  return level > current ? AlertDirection.Above : AlertDirection.Below;
}
