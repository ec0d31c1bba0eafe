/** The orders screen's state lives in its URL (architecture "Pages and forms"): tab, page and open detail. */
import { OrderTab } from '#contract/enums';

export const TABS = [OrderTab.Holding, OrderTab.Pending, OrderTab.History] as const;

/** `?type=`: 1 holding (the default), 0 pending, 3 history. */
export function tabOf(value: string | null): OrderTab {
  const n = Number(value);
  return value !== null && value !== '' && (TABS as readonly number[]).includes(n) ? (n as OrderTab) : OrderTab.Holding;
}

/** A positive whole number from the query, or null. */
export function positiveIntOf(value: string | null, max = 1_000_000_000): number | null {
  const n = Number(value);
  return value && Number.isInteger(n) && n > 0 && n <= max ? n : null;
}

export function ordersUrl({ type, page = 1, detail = null }: { type: OrderTab; page?: number; detail?: number | null }): string {
  const params = new URLSearchParams({ type: String(type) });
  if (page > 1) params.set('page', String(page));
  if (detail) params.set('detail', String(detail));
  return `/order?${params}`;
}
