/** A small seedable PRNG (mulberry32) with normal draws: the simulator is deterministic under a seed. */
export class Random {
  private state: number;
  private spare: number | null = null;

  constructor(seed: number) {
    this.state = seed >>> 0 || 0x9e3779b9;
  }

  /** Uniform in [0, 1). */
  next(): number {
    let t = (this.state = (this.state + 0x6d2b79f5) >>> 0);
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }

  /** Standard normal (Box–Muller). */
  normal(): number {
    if (this.spare !== null) {
      const s = this.spare;
      this.spare = null;
      return s;
    }
    let u = 0;
    while (u === 0) u = this.next();
    const v = this.next();
    const r = Math.sqrt(-2 * Math.log(u));
    this.spare = r * Math.sin(2 * Math.PI * v);
    return r * Math.cos(2 * Math.PI * v);
  }

  int(maxExclusive: number): number {
    return Math.floor(this.next() * maxExclusive);
  }
}

export const SECONDS_PER_YEAR = 365 * 24 * 3600;

/** One step of a geometric random walk over dt seconds, rounded to the instrument's integer price. */
export function walk(price: number, annualVolatility: number, dtSeconds: number, z: number): number {
  const sigma = annualVolatility * Math.sqrt(dtSeconds / SECONDS_PER_YEAR);
  const next = Math.round(price * Math.exp(sigma * z - (sigma * sigma) / 2));
  return Math.max(1, next);
}
