/** `UPSTREAM_MARKET_HOURS=always` (the browser tests and the benches): no market closes for the weekend. */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, expect, test } from 'vitest';
import { MarketStatus } from '../../contract/enums';
import type { MarketHours } from '../market/market';
import type { Upstream } from '../upstream';
import { testUpstream } from './fixture';

const SATURDAY_NOON = Date.UTC(2026, 10, 28, 12, 0, 0);
const opened: { up: Upstream; dir: string }[] = [];
afterEach(() => {
  for (const { up, dir } of opened.splice(0)) {
    up.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

function upstreamAt(at: number, marketHours: MarketHours) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'market-hours-'));
  const up = testUpstream(path.join(dir, 'upstream.sqlite'), { clock: () => at, marketHours });
  opened.push({ up, dir });
  return up;
}

const statusOf = (up: Upstream, code: string) => up.market.status(up.market.getByCode(code)!.id);

test('real hours close forex on a Saturday; always-open hours keep it open, and a forced close still wins', () => {
  const real = upstreamAt(SATURDAY_NOON, 'real');
  expect(statusOf(real, 'EURUSD')).toBe(MarketStatus.Closed);
  expect(statusOf(real, 'BTCUSD')).toBe(MarketStatus.Open);

  const always = upstreamAt(SATURDAY_NOON, 'always');
  for (const code of ['EURUSD', 'XAUUSD', 'US30', 'USOIL', 'BTCUSD']) expect(statusOf(always, code), code).toBe(MarketStatus.Open);
  const eurusd = always.market.getByCode('EURUSD')!.id;
  always.market.forceStatus(eurusd, 0);
  expect(statusOf(always, 'EURUSD')).toBe(MarketStatus.Closed);
  // Handed back to its hours: open around the clock.
  always.market.forceStatus(eurusd, null);
  expect(statusOf(always, 'EURUSD')).toBe(MarketStatus.Open);
});
