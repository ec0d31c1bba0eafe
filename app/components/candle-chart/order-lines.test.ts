import { describe, expect, test } from 'vitest';
import { chartLines, type ChartOrder } from './order-lines';

// The words as keys with their values, so the test sees which string each line asked for.
const t = (key: string, values?: Record<string, unknown>) => `${key}${values ? ` ${JSON.stringify(values)}` : ''}`;
const price = (p: number) => p.toFixed(5);
const lots = (l: number) => l.toFixed(2);

const position: ChartOrder = { id: 7, pending: false, buy: true, lots: 0.1, price: 1.1, takeProfit: 1.105, stopLoss: 1.095, trail: 0 };

describe('chartLines', () => {
  test('a position draws its entry, take profit and stop loss; only the last two can be dragged', () => {
    const lines = chartLines([position], t, price, lots);
    expect(lines.map((l) => [l.key, l.kind, l.price, l.draggable])).toEqual([
      ['7-entry', 'entry', 1.1, false],
      ['7-takeProfit', 'takeProfit', 1.105, true],
      ['7-stopLoss', 'stopLoss', 1.095, true],
    ]);
    expect(lines[0]!.label).toBe('chart.lines.buy {"lots":"0.10","price":"1.10000"}');
    expect(lines[2]!.label).toBe('chart.lines.sl {"price":"1.09500"}');
    expect(lines[2]!.spoken).toBe('chart.lines.stopLossOf {"id":7,"price":"1.09500"}');
  });

  test('a level that is not set draws no line', () => {
    const lines = chartLines([{ ...position, buy: false, takeProfit: null, stopLoss: null }], t, price, lots);
    expect(lines.map((l) => l.kind)).toEqual(['entry']);
    expect(lines[0]!.title).toBe('chart.lines.sellShort {"lots":"0.10"}');
  });

  test('a pending order draws its target only (its own levels wait until it fills)', () => {
    const lines = chartLines([{ ...position, id: 8, pending: true, price: 1.09 }], t, price, lots);
    expect(lines.map((l) => [l.key, l.kind, l.draggable])).toEqual([['8-target', 'target', false]]);
    expect(lines[0]!.spoken).toBe(
      'chart.lines.pendingOf {"id":8,"line":"chart.lines.pendingBuy {\\"lots\\":\\"0.10\\",\\"price\\":\\"1.09000\\"}"}',
    );
  });
});
