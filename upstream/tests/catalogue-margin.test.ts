/**
 * Every order holds a margin above zero: the web relies on it (an account holding no margin has no orders to
 * draw, app/routes/trade/chart-orders.server.ts, decision 0035). The engine takes whatever margin the terms give,
 * so the catalogue's terms are what keep it above zero: checked for each instrument's smallest order at its
 * highest leverage and a thousandth of its seeded price.
 */
import { expect, test } from 'vitest';
import { marginMicro } from '../../contract/arithmetic';
import { LOT_DECIMALS, parseUnits } from '../../contract/money';
import { INSTRUMENTS } from '../market/catalogue';

test.each(INSTRUMENTS.map((s) => [s.code, s] as const))('%s: its smallest order holds a margin above zero', (_code, s) => {
  const price = parseUnits(s.price, s.precision)!;
  const terms = { precision: s.precision, contractSize: s.contractSize, marginMode: s.marginMode, feeRateMicro: 0 };
  const smallest = marginMicro(
    terms,
    parseUnits(s.minLots, LOT_DECIMALS)!,
    Math.max(1, Math.floor(price / 1000)),
    Math.max(...s.leverages),
  );
  expect(smallest).toBeGreaterThan(0);
});
