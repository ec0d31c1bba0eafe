/**
 * Entries that fire when the price reaches their level (take-profit, stop-loss, pending targets; issue 41), kept
 * sorted as the alert book keeps alerts: "rising" entries fire at a price at or above their level and are kept lowest
 * first, "falling" ones at or below it, highest first. The entries a price reaches are always a prefix, so a tick
 * looks only at what it moves. Ties keep the order of the ids.
 */
export class LevelIndex<T> {
  /** The sort key: the level, negated for a falling index, so both sort ascending. */
  private readonly keys: number[] = [];
  private readonly ids: number[] = [];
  private readonly items: T[] = [];

  constructor(private readonly rising: boolean) {}

  get size(): number {
    return this.items.length;
  }

  add(level: number, id: number, item: T): void {
    const i = this.search(this.key(level), id);
    this.keys.splice(i, 0, this.key(level));
    this.ids.splice(i, 0, id);
    this.items.splice(i, 0, item);
  }

  /** Removes the entry added with this level and id; false if there is none. */
  remove(level: number, id: number): boolean {
    const i = this.search(this.key(level), id);
    if (i >= this.ids.length || this.ids[i] !== id || this.keys[i] !== this.key(level)) return false;
    this.keys.splice(i, 1);
    this.ids.splice(i, 1);
    this.items.splice(i, 1);
    return true;
  }

  /** The entries `price` reaches (a prefix), in index order; they stay until removed. */
  reached(price: number): T[] {
    const limit = this.key(price);
    let lo = 0;
    let hi = this.keys.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.keys[mid]! <= limit) lo = mid + 1;
      else hi = mid;
    }
    return lo === 0 ? [] : this.items.slice(0, lo);
  }

  private key(level: number): number {
    return this.rising ? level : -level;
  }

  /** The first position whose (key, id) is not below the given one. */
  private search(key: number, id: number): number {
    let lo = 0;
    let hi = this.keys.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      const k = this.keys[mid]!;
      if (k < key || (k === key && this.ids[mid]! < id)) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }
}
