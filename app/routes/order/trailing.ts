/**
 * What the screen shows of a trailing stop. The upstream moves the stop loss at every tick; the list and the popup
 * show the stop as loaded, carried by the live mark of the stream with the upstream's own rule (contract's
 * trailedStop). The mark is one the upstream has seen, so the stop shown is never past the upstream's own.
 */
import { trailedStop } from '#contract/arithmetic';
import type { Position } from '#contract/views';
import { OrderStatus } from '#contract/enums';

/** The stop loss to show (price; 0: none): for a holding position's trailing stop, the one `mark` has carried it to. */
export function shownStopLoss(order: Position, mark: number | undefined): number {
  if (!(order.trailDistance > 0) || mark === undefined || order.status !== OrderStatus.Holding) return order.stopLoss;
  const scale = 10 ** order.instrument.digits;
  const units = (value: number) => Math.round(value * scale);
  const stop = trailedStop(order.side, order.stopLoss > 0 ? units(order.stopLoss) : null, units(mark), units(order.trailDistance));
  return stop === null ? 0 : stop / scale;
}

/** Whether the live marks have carried some shown trailing stop past the one loaded (the list is then re-read). */
export function trailsMovedLive(orders: readonly Position[], markOf: (id: number) => number | undefined): boolean {
  return orders.some((o) => o.trailDistance > 0 && shownStopLoss(o, markOf(o.id)) !== o.stopLoss);
}
