/**
 * A statement of the account (issue 40): the date range it covers, in London days (spec §9), and its sums in the
 * contract's integer money units, so opening + every line = closing exactly, never by float addition.
 */
import { LedgerType } from '#contract/enums';
import { londonDayStart, londonOffset } from '#contract/time';
import { formatUnits, money, MONEY_DECIMALS } from '#contract/money';

export interface StatementRange {
  /** The first and last day asked for, YYYY-MM-DD (London). */
  fromDate: string;
  toDate: string;
  /** [from, to) in ms: London midnight starting fromDate, London midnight after toDate. */
  from: number;
  to: number;
}

const DAY_TEXT = /^(\d{4})-(\d{2})-(\d{2})$/;

/** The London midnight that starts a YYYY-MM-DD day, in ms (null: not a day). */
function dayStart(text: string, plusDays = 0): number | null {
  const m = DAY_TEXT.exec(text);
  if (!m) return null;
  const noon = Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]) + plusDays, 12);
  if (Number.isNaN(noon) || new Date(noon - plusDays * 86_400_000).toISOString().slice(0, 10) !== text) return null;
  return londonDayStart(noon / 1000) * 1000;
}

/** A moment as a spreadsheet sorts it: YYYY-MM-DD HH:MM:SS, London time ('' for no time). */
export function londonDateTime(ms: number): string {
  if (!Number.isFinite(ms)) return '';
  return new Date(ms + londonOffset(Math.floor(ms / 1000)) * 1000).toISOString().slice(0, 19).replace('T', ' ');
}

/** The London day holding a moment, YYYY-MM-DD. */
export const londonDay = (ms: number): string => londonDateTime(ms).slice(0, 10);

/**
 * The range a statement's `from` and `to` ask for; a missing or malformed day falls back to the month so far
 * (from the 1st to today), and days given the wrong way round are swapped.
 */
export function statementRange(params: URLSearchParams, now: number): StatementRange {
  const today = londonDay(now);
  let fromDate = params.get('from') ?? '';
  let toDate = params.get('to') ?? '';
  if (dayStart(fromDate) === null) fromDate = `${today.slice(0, 8)}01`;
  if (dayStart(toDate) === null) toDate = today;
  if (fromDate > toDate) [fromDate, toDate] = [toDate, fromDate];
  return { fromDate, toDate, from: dayStart(fromDate)!, to: dayStart(toDate, 1)! };
}

/** The ledger's types in the order a statement lists them. */
export const STATEMENT_TYPE_ORDER: readonly number[] = [
  LedgerType.OpeningBalance,
  LedgerType.Deposit,
  LedgerType.Withdrawal,
  LedgerType.WithdrawalRefund,
  LedgerType.RealisedProfit,
  LedgerType.TradeFee,
  LedgerType.TradeFeeRefund,
  LedgerType.MarginHeld,
  LedgerType.MarginReleased,
  LedgerType.AdminAdjustment,
  LedgerType.NegativeBalanceProtection,
  LedgerType.DemoReset,
];

export interface StatementLine<E> {
  entry: E;
  /** Integer money units (micro-USD). */
  units: number;
}

export interface StatementGroup<E> {
  type: number;
  lines: StatementLine<E>[];
  totalUnits: number;
}

export interface Statement<E> {
  openingUnits: number;
  groups: StatementGroup<E>[];
  closingUnits: number;
}

/**
 * Opening balance, the range's movements grouped by type (oldest first in each group, types in the ledger's
 * order, an unknown type last), and the closing balance as their exact sum.
 */
export function buildStatement<E extends { type: number; amount: number; id: number }>(
  opening: number,
  entries: readonly E[],
): Statement<E> {
  const groups = new Map<number, StatementGroup<E>>();
  const openingUnits = money.fromNumber(opening);
  let closingUnits = openingUnits;
  for (const entry of [...entries].sort((a, b) => a.id - b.id)) {
    const units = money.fromNumber(entry.amount);
    closingUnits += units;
    let group = groups.get(entry.type);
    if (!group) groups.set(entry.type, (group = { type: entry.type, lines: [], totalUnits: 0 }));
    group.lines.push({ entry, units });
    group.totalUnits += units;
  }
  const rank = (type: number) =>
    STATEMENT_TYPE_ORDER.includes(type) ? STATEMENT_TYPE_ORDER.indexOf(type) : STATEMENT_TYPE_ORDER.length + type;
  return { openingUnits, groups: [...groups.values()].sort((a, b) => rank(a.type) - rank(b.type)), closingUnits };
}

/** Money units as a spreadsheet reads them: a plain decimal with a point, 2 to 6 decimals, no grouping. */
export const csvMoney = (units: number) => formatUnits(units, MONEY_DECIMALS, 2);

/** Units back to the number the formatters take (exact: at most 6 decimals). */
export const unitsNumber = (units: number) => money.toNumber(units);
