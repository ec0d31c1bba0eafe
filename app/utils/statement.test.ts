import { describe, expect, test } from 'vitest';
import { LedgerType } from '#contract/enums';
import { buildStatement, csvMoney, londonDateTime, londonDay, statementRange } from './statement';

const range = (query: string, now = Date.UTC(2026, 6, 15, 12)) => statementRange(new URLSearchParams(query), now);

describe('statementRange', () => {
  test('London days: in summer a day starts at 23:00 UTC the evening before; the last day is included', () => {
    expect(range('from=2026-07-01&to=2026-07-02')).toEqual({
      fromDate: '2026-07-01',
      toDate: '2026-07-02',
      from: Date.UTC(2026, 5, 30, 23),
      to: Date.UTC(2026, 6, 2, 23),
    });
    // Winter: London is UTC.
    expect(range('from=2026-01-05&to=2026-01-05')).toMatchObject({ from: Date.UTC(2026, 0, 5), to: Date.UTC(2026, 0, 6) });
    // The day the clocks go forward is 23 hours long.
    const spring = range('from=2026-03-29&to=2026-03-29');
    expect(spring.to - spring.from).toBe(23 * 3_600_000);
  });

  test('missing or malformed days fall back to the month so far; reversed days are swapped', () => {
    expect(range('')).toMatchObject({ fromDate: '2026-07-01', toDate: '2026-07-15' });
    expect(range('from=2026-02-31&to=yesterday')).toMatchObject({ fromDate: '2026-07-01', toDate: '2026-07-15' });
    expect(range('from=2026-07-10&to=2026-07-03')).toMatchObject({ fromDate: '2026-07-03', toDate: '2026-07-10' });
    // 23:30 UTC on 31 July is already 1 August in London.
    expect(londonDay(Date.UTC(2026, 6, 31, 23, 30))).toBe('2026-08-01');
    expect(londonDateTime(Date.UTC(2026, 6, 31, 23, 30, 5))).toBe('2026-08-01 00:30:05');
    expect(londonDateTime(Date.UTC(2026, 0, 31, 23, 30, 5))).toBe('2026-01-31 23:30:05');
    expect(londonDateTime(Number.NaN)).toBe('');
  });
});

describe('buildStatement', () => {
  const e = (id: number, type: number, amount: number) => ({ id, type, amount });

  test('groups by type in the ledger order, oldest first, and closing = opening + every line exactly', () => {
    const s = buildStatement(100.1, [
      e(5, LedgerType.RealisedProfit, 0.2),
      e(2, LedgerType.Deposit, 1000),
      e(3, LedgerType.MarginHeld, -550),
      e(4, LedgerType.TradeFee, -2.5),
      e(6, LedgerType.MarginReleased, 550),
      e(7, LedgerType.RealisedProfit, 0.1),
      e(8, LedgerType.Withdrawal, -0.000001),
    ]);
    expect(s.groups.map((g) => g.type)).toEqual([
      LedgerType.Deposit,
      LedgerType.Withdrawal,
      LedgerType.RealisedProfit,
      LedgerType.TradeFee,
      LedgerType.MarginHeld,
      LedgerType.MarginReleased,
    ]);
    expect(s.groups[2]!.lines.map((l) => l.entry.id)).toEqual([5, 7]);
    // 0.1 + 0.2 in floats is 0.30000000000000004; in units it is 300,000.
    expect(s.groups[2]!.totalUnits).toBe(300_000);
    expect(s.openingUnits).toBe(100_100_000);
    expect(s.closingUnits).toBe(100_100_000 + 1_000_000_000 - 1 - 2_500_000 + 300_000);
    expect(s.closingUnits).toBe(s.openingUnits + s.groups.reduce((sum, g) => sum + g.totalUnits, 0));
    expect(csvMoney(s.closingUnits)).toBe('1097.899999');
  });

  test('no movements: closing is the opening', () => {
    expect(buildStatement(42, [])).toEqual({ openingUnits: 42_000_000, groups: [], closingUnits: 42_000_000 });
    expect(csvMoney(-2_500_000)).toBe('-2.50');
  });
});
