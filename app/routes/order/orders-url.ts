/** The orders screen's state lives in its URL (architecture "Pages and forms"): tab, page and open detail. */
import { CLOSE_ALL_SCOPES, type CloseAllScope } from '#contract/close-scopes';
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

/** `?scope=` of the close-all confirmation: all, profit (winning) or loss (losing); anything else is none. */
export function closeScopeOf(value: string | null): CloseAllScope | null {
  return (CLOSE_ALL_SCOPES as readonly string[]).includes(value ?? '') ? (value as CloseAllScope) : null;
}

export function ordersUrl({
  type,
  page = 1,
  detail = null,
  cont,
  stops,
  closeAll,
}: {
  type: OrderTab;
  page?: number;
  detail?: number | null;
  /** Lots in the detail's close form (its estimate, without JavaScript). */
  cont?: string;
  /** Take profit and stop loss in the detail's form (the money at each, without JavaScript). */
  stops?: { takeProfit?: string; stopLoss?: string; trail?: string };
  /** The close-all confirmation of this scope. */
  closeAll?: CloseAllScope;
}): string {
  const params = new URLSearchParams({ type: String(type) });
  if (page > 1) params.set('page', String(page));
  if (detail) params.set('detail', String(detail));
  if (detail && cont) params.set('cont', cont);
  if (detail && stops?.takeProfit) params.set('tp', stops.takeProfit);
  if (detail && stops?.stopLoss) params.set('sl', stops.stopLoss);
  if (detail && stops?.trail) params.set('trail', stops.trail);
  if (closeAll) {
    params.set('confirm', 'close-all');
    params.set('scope', closeAll);
  }
  return `/order?${params}`;
}

/** Whether only the open popup (`?detail=`) differs between two addresses of this screen. */
export function onlyDetailChanged(current: URL, next: URL): boolean {
  if (current.pathname !== next.pathname) return false;
  const rest = (u: URL) => {
    const params = new URLSearchParams(u.search);
    params.delete('detail');
    params.sort();
    return params.toString();
  };
  return current.searchParams.get('detail') !== next.searchParams.get('detail') && rest(current) === rest(next);
}
