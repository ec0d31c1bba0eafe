/** What closing some lots of a position realises now: the lots' share of its floating profit (contract arithmetic). */
import { lotShare } from '#contract/arithmetic';
import { lots as lotUnits, money } from '#contract/money';

/** The profit (USD) that `lotsText` of `heldLots` would realise at the price of `floatingProfit`; null when not a valid part. */
export function realisedByLots(floatingProfit: number, lotsText: string, heldLots: number): number | null {
  const part = lotUnits.parse(lotsText.trim());
  const whole = lotUnits.parse(heldLots);
  if (part === null || whole === null || part <= 0 || part > whole) return null;
  return money.toNumber(lotShare(money.fromNumber(floatingProfit), part, whole));
}
