/**
 * The market simulator: a geometric random walk per instrument with its own volatility, a few ticks a
 * second each while its market is open. Deterministic under a seed: the same seed gives the same ticks.
 */
import type { Market } from './market';
import { Random, walk } from './random';

export interface SimulatorOptions {
  seed: number;
  /** Milliseconds between rounds; each open instrument ticks with `tickChance` per round. */
  intervalMs: number;
  tickChance: number;
}

export class Simulator {
  private readonly rng: Random;
  private timer: NodeJS.Timeout | null = null;

  constructor(
    private readonly market: Market,
    private readonly options: SimulatorOptions,
  ) {
    this.rng = new Random(options.seed);
  }

  start(): void {
    if (this.timer) return;
    this.timer = setInterval(() => this.round(), this.options.intervalMs);
    this.timer.unref();
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }

  /** One round: every open instrument may move once. */
  round(): void {
    this.market.checkStatusChanges();
    const dt = this.options.intervalMs / 1000 / this.options.tickChance;
    for (const inst of this.market.instruments) {
      const draw = this.rng.next();
      const z = this.rng.normal();
      const volume = 1 + this.rng.int(20);
      if (draw >= this.options.tickChance || !this.market.isOpen(inst.id)) continue;
      const next = walk(this.market.price(inst.id), inst.volatility, dt, z);
      this.market.applyTick(inst.id, next, volume);
    }
  }
}
