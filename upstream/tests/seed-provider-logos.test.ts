/**
 * The seed runs at every start: a database first seeded when the service providers wore instruments'
 * badges (XAU, EUR, BTC) gets each provider's own mark, and a logo the broker set is left alone.
 */
import { expect, test } from 'vitest';
import { openDatabase } from '../db/database';
import { seed } from '../db/seed';

const logos = (db: ReturnType<typeof openDatabase>) =>
  (db.prepare('SELECT id, logo FROM companies ORDER BY id').all() as { id: number; logo: string }[]).map((c) => c.logo);

test("providers seeded with instruments' badges get their own marks; a broker's own logo stays", () => {
  const db = openDatabase(':memory:');
  const options = { now: Math.floor(Date.now() / 1000), seed: 1, backfill: false };
  seed(db, options);
  const own = logos(db);
  expect(own).toEqual(['/static/logos/harbourprime.svg', '/static/logos/meridian.svg', '/static/logos/lumendigital.svg']);

  // As the first seed left them, except one the broker changed since.
  const set = db.prepare('UPDATE companies SET logo = ? WHERE id = ?');
  set.run('/static/logos/xauusd.svg', 1);
  set.run('/static/logos/eurusd.svg', 2);
  set.run('/static/logos/brokers-own.svg', 3);
  seed(db, options);
  expect(logos(db)).toEqual([own[0], own[1], '/static/logos/brokers-own.svg']);
  db.close();
});
