/**
 * Guessing one account from many addresses (issue 38). The per-account-and-address counters (accounts.ts) let N
 * addresses make N times the guesses; here the failures at one account from addresses it has never signed in from
 * share one allowance per 15 minutes, whatever their number. Past it, each failure pauses such guesses for a growing
 * time (5 s, 10 s, 20 s … up to 5 minutes) instead of locking the account: an address the owner has signed in from is
 * never paused (its own per-address counter still holds), so an attack slows the thief, not the owner.
 */
import { RateLimiterMemory } from 'rate-limiter-flexible';
import { fail } from '../shared/errors';

/** Wrong passwords per account per 15 minutes from unknown addresses, all together, before the pauses start. */
export const ACCOUNT_PASSWORD_ALLOWANCE = 20;
/** Wrong codes (log-in factor, step-up, authenticator confirm) per account per 15 minutes, likewise. */
export const ACCOUNT_CODE_ALLOWANCE = 10;
const WINDOW_S = 15 * 60;
const FIRST_PAUSE_S = 5;
const LONGEST_PAUSE_S = 5 * 60;

export class GuessGuard {
  private readonly failures: RateLimiterMemory;
  private readonly pauses: RateLimiterMemory;

  constructor(
    name: string,
    private readonly allowance: number,
  ) {
    this.failures = new RateLimiterMemory({ keyPrefix: `${name}-failures`, points: allowance, duration: WINDOW_S });
    // One point: `block` marks a pause for its seconds, `get` tells whether one is on.
    this.pauses = new RateLimiterMemory({ keyPrefix: `${name}-pause`, points: 1, duration: 1 });
  }

  /** Refuses (RateLimited) a guess from an unknown address while the account's pause runs. */
  async check(key: string, knownAddress: boolean): Promise<void> {
    if (knownAddress) return;
    const pause = await this.pauses.get(key);
    if (pause && pause.consumedPoints > 1 && pause.msBeforeNext > 0) fail('RateLimited');
  }

  /** Counts a wrong guess; past the allowance it starts the next, longer pause. */
  async failed(key: string, knownAddress: boolean): Promise<void> {
    if (knownAddress) return;
    const res = await this.failures.penalty(key, 1);
    const over = res.consumedPoints - this.allowance;
    if (over >= 0) await this.pauses.block(key, Math.min(FIRST_PAUSE_S * 2 ** over, LONGEST_PAUSE_S));
  }
}
