/**
 * What a statement reads from the upstream (issue 40): every account-log movement and every closed order in a
 * date range, and the opening balance, which is the ledger's own balance after its last movement before the range.
 */
import { ACCOUNT_LOG_PAGE_SIZE, MY_DEAL_PAGE_SIZE } from '#contract/calls/trade';
import { OrderTab } from '#contract/enums';
import type { Position } from '#contract/views';
import type { Api } from './api.server';
import { accountLog, positionPage, type LedgerEntry, type TimeRange } from './trade.server';

/** At most this many rows in one statement or file (250 pages of 20): a longer range is cut and says so. */
export const STATEMENT_MAX_ROWS = 5000;

export interface Rows<T> {
  rows: T[];
  /** More rows are in the range than were read. */
  cut: boolean;
}

async function readAll<T>(pageSize: number, read: (page: number) => Promise<{ items: T[]; total: number }>): Promise<Rows<T>> {
  const rows: T[] = [];
  for (let page = 1; ; page++) {
    const { items, total } = await read(page);
    rows.push(...items);
    if (rows.length >= total || items.length < pageSize) return { rows, cut: false };
    if (rows.length >= STATEMENT_MAX_ROWS) return { rows, cut: true };
  }
}

/** Every movement in the range, newest first. */
export const ledgerInRange = (api: Api, range: TimeRange): Promise<Rows<LedgerEntry>> =>
  readAll(ACCOUNT_LOG_PAGE_SIZE, async (page) => {
    const { entries, total } = await accountLog(api, page, range);
    return { items: entries, total };
  });

/** Every order closed or cancelled in the range, newest first. */
export const historyInRange = (api: Api, range: TimeRange): Promise<Rows<Position>> =>
  readAll(MY_DEAL_PAGE_SIZE, async (page) => {
    const { positions, total } = await positionPage(api, OrderTab.History, page, range);
    return { items: positions, total };
  });

/** The balance at `from` (USD): the balance after the ledger's last movement before it, 0 before the first. */
export async function balanceAt(api: Api, from: number): Promise<number> {
  const { entries } = await accountLog(api, 1, { to: from });
  return entries[0]?.balanceAfter ?? 0;
}
