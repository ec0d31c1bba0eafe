/**
 * Server rendering from warm data (docs/decisions/0009-warm-market-data.md): the market pages take their
 * quotes and market status from the live relay instead of asking the upstream on every request, but only
 * while the relay's feed is provably as current as an upstream call would be; otherwise the caller asks
 * the upstream. The rule lives here and nowhere else.
 */
import type { WarmMarketState } from '#contract/stream';
import type { Instrument } from '#contract/views';
import { WS_PING_INTERVAL_MS } from '#contract/ws';

/**
 * The feed must have delivered a message (a tick, or at least the pong of its heartbeat) this recently.
 * The socket is ordered, so every quote the upstream pushed before that message has arrived: a warm price
 * is never older than an upstream call's by more than this. A healthy feed hears a pong every ping interval.
 */
export const WARM_MAX_AGE_MS = WS_PING_INTERVAL_MS + 2_000;

/** How long a catalogue (names, digits, lot rules, leverage…) or another public, slow-changing answer is reused. */
export const SHARED_ANSWER_TTL_MS = 5_000;

/**
 * The catalogue with each instrument's quote (its market status with it) from the relay, or null when the relay
 * cannot vouch for every one of them: no relay, feed not up, nothing heard within WARM_MAX_AGE_MS, or an
 * instrument with no quote confirmed on the current connection (a reconnect's snapshot resends every quote;
 * one from before it may have missed changes while the feed was down).
 */
export function withWarmQuotes(catalogue: readonly Instrument[], state: WarmMarketState | undefined, now: number): Instrument[] | null {
  if (!state || state.feed !== 'up' || now - state.heardAt > WARM_MAX_AGE_MS) return null;
  const list: Instrument[] = [];
  for (const instrument of catalogue) {
    const q = state.quotes.get(instrument.id);
    if (!q || q.seenAt < state.connectedAt) return null;
    const { instrumentId, price, open, high, low, change, volume, marketOpen } = q;
    list.push({ ...instrument, quote: { instrumentId, price, open, high, low, change, volume, marketOpen } });
  }
  return list;
}

/**
 * A public answer shared by every request for SHARED_ANSWER_TTL_MS (per key: upstream, language…).
 * Only successes are kept; a miss calls the upstream (concurrent misses each call: no request waits on
 * another's call, which its own abort could cancel).
 */
export function sharedAnswers<T>(ttlMs = SHARED_ANSWER_TTL_MS) {
  const kept = new Map<string, { at: number; value: T }>();
  return {
    async get(key: string, load: () => Promise<T>, now = Date.now()): Promise<T> {
      const hit = kept.get(key);
      if (hit && now - hit.at < ttlMs) return hit.value;
      const value = await load();
      // Aged from when it was asked for: the answer is at least that recent.
      kept.set(key, { at: now, value });
      return value;
    },
    clear: () => kept.clear(),
  };
}
