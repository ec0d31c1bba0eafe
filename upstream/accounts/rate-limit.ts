/** Fixed-window counters in memory, per key (an account, an IP, a code target). */
export class RateLimiter {
  private readonly windows = new Map<string, { start: number; count: number }>();

  constructor(
    /** A number, or a function read at each attempt (a limit the back office can change). */
    private readonly limitOf: number | (() => number),
    private readonly windowMs: number,
    private readonly clock: () => number,
  ) {}

  private get limit(): number {
    return typeof this.limitOf === 'number' ? this.limitOf : this.limitOf();
  }

  /** Counts one attempt; false when the key has used up its window. */
  take(key: string): boolean {
    const now = this.clock();
    const w = this.windows.get(key);
    if (!w || now - w.start >= this.windowMs) {
      if (this.windows.size > 100_000) this.prune(now);
      this.windows.set(key, { start: now, count: 1 });
      return true;
    }
    w.count += 1;
    return w.count <= this.limit;
  }

  /** True when the key has used up its window, without counting an attempt. */
  exhausted(key: string): boolean {
    const w = this.windows.get(key);
    return !!w && this.clock() - w.start < this.windowMs && w.count >= this.limit;
  }

  reset(key: string): void {
    this.windows.delete(key);
  }

  private prune(now: number) {
    for (const [k, w] of this.windows) if (now - w.start >= this.windowMs) this.windows.delete(k);
  }
}
