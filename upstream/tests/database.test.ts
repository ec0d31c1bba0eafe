import { afterEach, expect, test } from 'vitest';
import { openDatabase, type Db } from '../db/database';

let db: Db | undefined;
afterEach(() => db?.close());

test('a statement prepared twice is made once, and answers from the data as it is when it runs', () => {
  db = openDatabase(':memory:');
  db.exec('CREATE TABLE t (n INTEGER)');
  const count = 'SELECT COUNT(*) AS n FROM t';
  const first = db.prepare(count);
  expect(db.prepare(count)).toBe(first);
  expect(db.prepare(count).get()).toEqual({ n: 0 });
  db.prepare('INSERT INTO t (n) VALUES (?)').run(1);
  db.prepare('INSERT INTO t (n) VALUES (?)').run(2);
  expect(db.prepare(count).get()).toEqual({ n: 2 });
  // A kept statement still sees a column added after it was made.
  const all = 'SELECT * FROM t ORDER BY n';
  expect(db.prepare(all).all()).toEqual([{ n: 1 }, { n: 2 }]);
  db.exec('ALTER TABLE t ADD COLUMN m INTEGER DEFAULT 7');
  expect(db.prepare(all).all()).toEqual([
    { n: 1, m: 7 },
    { n: 2, m: 7 },
  ]);
});
