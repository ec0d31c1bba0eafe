/**
 * Price alerts in the engine's tick pass: a tick that reaches a level fires its alert exactly once, a tick
 * that does not reach it leaves it waiting; the index by instrument and price finds the one reached among
 * thousands, agrees with a plain scan on random alerts and ticks, and is rebuilt from the table on restart.
 */
import fc from 'fast-check';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { AlertDirection, alertReached } from '../../contract/calls/alerts';
import type { AlertRow } from '../alerts/book';
import { engineFixture, type EngineFixture } from './fixture';

let f: EngineFixture;
let fired: AlertRow[];
const listen = () => f.up.engine.onAlert((a) => fired.push(a));

beforeEach(() => {
  f = engineFixture();
  fired = [];
  listen();
  f.tick('EURUSD', 1.1);
});
afterEach(() => f.close());

const add = (userId: number, direction: AlertDirection, price: string, code = 'EURUSD') =>
  f.up.engine.alerts.add(userId, { instrumentId: f.id(code), direction, price, lang: 'en' });

describe('price alerts on ticks', () => {
  test('a tick that reaches the level fires the alert once; ticks that do not reach it leave it waiting', () => {
    const user = f.demoUser();
    const up = add(user, AlertDirection.Above, '1.1050');
    const down = add(user, AlertDirection.Below, '1.0950');
    f.tick('EURUSD', 1.1049);
    f.tick('EURUSD', 1.0951);
    expect(fired).toEqual([]);
    f.tick('EURUSD', 1.105); // reaches it exactly
    expect(fired.map((a) => [a.id, a.triggered_price])).toEqual([[up.id, f.price('EURUSD', 1.105)]]);
    f.tick('EURUSD', 1.106);
    f.tick('EURUSD', 1.1);
    f.tick('EURUSD', 1.107);
    expect(fired).toHaveLength(1);
    f.tick('EURUSD', 1.09); // a gap past the level fires at the tick's price
    expect(fired.map((a) => [a.id, a.triggered_price])).toEqual([
      [up.id, f.price('EURUSD', 1.105)],
      [down.id, f.price('EURUSD', 1.09)],
    ]);
    const rows = f.up.engine.alerts.list(user);
    expect(rows.every((r) => r.triggered_at !== null)).toBe(true);
    expect(f.up.engine.alerts.waitingCount).toBe(0);
  });

  test('another instrument’s ticks and a deleted alert never fire', () => {
    const user = f.demoUser();
    add(user, AlertDirection.Above, '1.1050');
    const gone = add(user, AlertDirection.Above, '1.1020');
    f.up.engine.alerts.remove(user, gone.id);
    f.tick('GBPUSD', 1.5);
    f.tick('EURUSD', 1.103);
    expect(fired).toEqual([]);
  });

  test('the index finds the one alert a tick reaches among thousands, and a restart rebuilds it from the table', () => {
    const users = Array.from({ length: 3 }, () => f.demoUser());
    const insert = f.up.db.prepare(
      'INSERT INTO price_alerts (user_id, instrument_id, direction, price, lang, created_at) VALUES (?, ?, ?, ?, ?, 0)',
    );
    // 6,000 waiting alerts (stored directly: the 50-per-user limit is the call's rule, not the index's).
    const eur = f.id('EURUSD');
    f.up.db.transaction(() => {
      for (let i = 0; i < 3000; i++) {
        insert.run(users[i % 3], eur, AlertDirection.Above, f.price('EURUSD', 1.2) + i, 'en');
        insert.run(users[i % 3], eur, AlertDirection.Below, f.price('EURUSD', 1.0) - i, 'en');
      }
    })();
    f.restart();
    listen();
    expect(f.up.engine.alerts.waitingCount).toBe(6000);
    const target = add(f.demoUser(), AlertDirection.Above, '1.1500');
    for (let i = 0; i < 1000; i++) f.tick('EURUSD', 1.1 + (i % 50) / 10_000);
    expect(fired).toEqual([]);
    f.tick('EURUSD', 1.15);
    expect(fired.map((a) => a.id)).toEqual([target.id]);
    // A tick beyond 1.2005 reaches the six lowest "above" levels and nothing else.
    f.tick('EURUSD', 1.20005);
    expect(fired).toHaveLength(1 + 6);
    expect(f.up.engine.alerts.waitingCount).toBe(6000 - 6);
    // Fired alerts stay fired across a restart; the rest wait again.
    f.restart();
    fired = [];
    listen();
    expect(f.up.engine.alerts.waitingCount).toBe(6000 - 6);
    f.tick('EURUSD', 1.15);
    expect(fired).toEqual([]);
  });

  test('fires exactly the alerts a plain scan would, for any alerts and ticks', () => {
    const user = f.demoUser();
    const levels = fc.integer({ min: 109_000, max: 111_000 });
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.constantFrom(AlertDirection.Above, AlertDirection.Below), levels), { maxLength: 40 }),
        fc.array(levels, { maxLength: 30 }),
        (wanted, ticks) => {
          f.tick('EURUSD', 1.1);
          for (const a of f.up.engine.alerts.list(user)) f.up.engine.alerts.remove(user, a.id);
          fired = [];
          const start = f.price('EURUSD', 1.1);
          const made = wanted
            .filter(([d, level]) => !alertReached(d, level, start))
            .slice(0, 50)
            .map(([d, level]) => add(user, d, (level / 100_000).toFixed(5)));
          const expected = new Map<number, number>();
          for (const t of ticks) {
            for (const a of made) if (!expected.has(a.id) && alertReached(a.direction, a.price, t)) expected.set(a.id, t);
            f.up.market.applyTick(f.id('EURUSD'), t);
          }
          expect(new Map(fired.map((a) => [a.id, a.triggered_price]))).toEqual(expected);
          expect(fired).toHaveLength(expected.size);
        },
      ),
      { numRuns: 60 },
    );
  });
});
