/**
 * Price alerts (issue 13): stored in `price_alerts`, and indexed in memory by instrument and price so that a
 * tick looks only at the alerts it reaches. Per instrument, the waiting "above" alerts are sorted by level
 * ascending and the "below" ones descending: the alerts a tick reaches are always a prefix of each list.
 * A reached alert fires once (triggered_at and the tick's price written in one transaction) and stays in
 * the list as triggered. `load()` rebuilds the index from the table (at start, after a restart).
 */
import { AlertDirection, alertReached, MAX_ACTIVE_ALERTS } from '../../contract/calls/alerts';
import type { Language } from '../../contract/enums';
import { parseUnits } from '../../contract/money';
import { immediate, type Db } from '../db/database';
import type { Instrument, Market } from '../market/market';
import { fail } from '../shared/errors';

export interface AlertRow {
  id: number;
  user_id: number;
  instrument_id: number;
  direction: AlertDirection;
  /** Scaled by the instrument's precision. */
  price: number;
  note: string;
  lang: Language;
  created_at: number;
  triggered_at: number | null;
  triggered_price: number | null;
}

/** A waiting alert as the index keeps it. */
interface Waiting {
  id: number;
  userId: number;
  level: number;
}

interface InstrumentAlerts {
  /** Rising-to alerts, lowest level first. */
  above: Waiting[];
  /** Falling-to alerts, highest level first. */
  below: Waiting[];
}

export interface AddAlertInput {
  instrumentId: number;
  direction: AlertDirection;
  price: string;
  note?: string;
  lang: Language;
}

export class AlertBook {
  private readonly byInstrument = new Map<number, InstrumentAlerts>();
  private readonly stmt;

  constructor(
    private readonly db: Db,
    private readonly market: Market,
    private readonly clock: () => number,
  ) {
    this.stmt = {
      get: db.prepare('SELECT * FROM price_alerts WHERE id = ?'),
      ofUser: db.prepare('SELECT * FROM price_alerts WHERE user_id = ? ORDER BY id DESC'),
      waiting: db.prepare('SELECT id, user_id, instrument_id, direction, price FROM price_alerts WHERE triggered_at IS NULL'),
      activeCount: db.prepare('SELECT COUNT(*) AS n FROM price_alerts WHERE user_id = ? AND triggered_at IS NULL'),
      insert: db.prepare(
        `INSERT INTO price_alerts (user_id, instrument_id, direction, price, note, lang, created_at)
         VALUES (@user_id, @instrument_id, @direction, @price, @note, @lang, @created_at)`,
      ),
      remove: db.prepare('DELETE FROM price_alerts WHERE id = ?'),
      fire: db.prepare('UPDATE price_alerts SET triggered_at = ?, triggered_price = ? WHERE id = ? AND triggered_at IS NULL'),
    };
  }

  /** Rebuilds the index from the table (the engine's load() calls it at start). */
  load(): void {
    this.byInstrument.clear();
    const rows = this.stmt.waiting.all() as Pick<AlertRow, 'id' | 'user_id' | 'instrument_id' | 'direction' | 'price'>[];
    for (const r of rows) this.lists(r.instrument_id)[r.direction === AlertDirection.Above ? 'above' : 'below'].push(waiting(r));
    for (const lists of this.byInstrument.values()) {
      lists.above.sort((a, b) => a.level - b.level || a.id - b.id);
      lists.below.sort((a, b) => b.level - a.level || a.id - b.id);
    }
  }

  /** The user's alerts, newest first. */
  list(userId: number): AlertRow[] {
    return this.stmt.ofUser.all(userId) as AlertRow[];
  }

  /** Waiting alerts in the index (all instruments): what a restart must rebuild. */
  get waitingCount(): number {
    let n = 0;
    for (const l of this.byInstrument.values()) n += l.above.length + l.below.length;
    return n;
  }

  add(userId: number, input: AddAlertInput): AlertRow {
    const inst = this.market.get(input.instrumentId) ?? fail('InstrumentNotFound');
    const level = parseUnits(input.price, inst.precision);
    if (level === null || level <= 0) fail('PriceInvalid');
    // A level already reached would fire at the next tick: the trader meant the other direction.
    if (alertReached(input.direction, level, this.market.price(inst.id))) fail('AlertWrongSide');
    const row = immediate(this.db, () => {
      const { n } = this.stmt.activeCount.get(userId) as { n: number };
      if (n >= MAX_ACTIVE_ALERTS) fail('AlertLimitReached');
      const info = this.stmt.insert.run({
        user_id: userId,
        instrument_id: inst.id,
        direction: input.direction,
        price: level,
        note: input.note ?? '',
        lang: input.lang,
        created_at: this.clock(),
      });
      return this.stmt.get.get(Number(info.lastInsertRowid)) as AlertRow;
    });
    this.index(row);
    return row;
  }

  /** Deletes one of the user's alerts, waiting or triggered. */
  remove(userId: number, id: number): void {
    const row = this.stmt.get.get(id) as AlertRow | undefined;
    if (!row || row.user_id !== userId) fail('AlertNotFound');
    this.stmt.remove.run(id);
    if (row.triggered_at === null) this.unindex(row);
  }

  /**
   * The alerts of `inst` that a tick at `price` reaches, marked triggered in one transaction and taken out of
   * the index. Only the reached prefix of each list is looked at.
   */
  reached(inst: Instrument, price: number): AlertRow[] {
    const lists = this.byInstrument.get(inst.id);
    if (!lists) return [];
    const above = prefixLength(lists.above, (a) => alertReached(AlertDirection.Above, a.level, price));
    const below = prefixLength(lists.below, (a) => alertReached(AlertDirection.Below, a.level, price));
    if (above === 0 && below === 0) return [];
    const due = [...lists.above.splice(0, above), ...lists.below.splice(0, below)];
    const now = this.clock();
    return immediate(this.db, () => {
      const fired: AlertRow[] = [];
      for (const a of due) if (this.stmt.fire.run(now, price, a.id).changes === 1) fired.push(this.stmt.get.get(a.id) as AlertRow);
      return fired;
    });
  }

  private lists(instrumentId: number): InstrumentAlerts {
    let lists = this.byInstrument.get(instrumentId);
    if (!lists) this.byInstrument.set(instrumentId, (lists = { above: [], below: [] }));
    return lists;
  }

  private index(row: AlertRow): void {
    const lists = this.lists(row.instrument_id);
    const entry = waiting(row);
    if (row.direction === AlertDirection.Above)
      lists.above.splice(
        upperBound(lists.above, (a) => a.level <= entry.level),
        0,
        entry,
      );
    else
      lists.below.splice(
        upperBound(lists.below, (a) => a.level >= entry.level),
        0,
        entry,
      );
  }

  private unindex(row: AlertRow): void {
    const lists = this.byInstrument.get(row.instrument_id);
    if (!lists) return;
    const list = row.direction === AlertDirection.Above ? lists.above : lists.below;
    // Alerts of one level sit together: find the first at this level, then the one with this id.
    const from = upperBound(list, row.direction === AlertDirection.Above ? (a) => a.level < row.price : (a) => a.level > row.price);
    for (let i = from; i < list.length && list[i]!.level === row.price; i++) {
      if (list[i]!.id === row.id) {
        list.splice(i, 1);
        return;
      }
    }
  }
}

function waiting(r: Pick<AlertRow, 'id' | 'user_id' | 'price'>): Waiting {
  return { id: r.id, userId: r.user_id, level: r.price };
}

/** The index of the first element for which `before` is false, in a list where it holds for a prefix (binary search). */
function upperBound<T>(list: readonly T[], before: (x: T) => boolean): number {
  let lo = 0;
  let hi = list.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (before(list[mid]!)) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** How many leading elements satisfy `reached` (the list is sorted so that they form a prefix). */
function prefixLength<T>(list: readonly T[], reached: (x: T) => boolean): number {
  let n = 0;
  while (n < list.length && reached(list[n]!)) n++;
  return n;
}
