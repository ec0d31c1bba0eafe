/**
 * The latest day quote of each instrument, as the public feed last sent it: what a new stream starts with,
 * what a flush sends, and what server rendering reads.
 */
import type { WarmMarketState } from '../../contract/stream';
import type { Quote as QuoteView } from '../../contract/views';
import type { Quote, QuoteTick } from './relay-options';
import type { QuotePush } from './upstream-mapping';
import type { UpstreamSocket } from './upstream-socket';

export interface LatestQuote extends QuoteTick {
  readonly instrumentId: number;
  /** The quote's JSON in each shape (./upstream-mapping.ts), built once per tick and shared by every client. */
  readonly data: string;
  readonly legacy: string;
  /** Epoch ms the feed last sent this instrument, changed or not (a reconnect's snapshot resends them all). */
  seenAt: number;
}

type Feed = Pick<UpstreamSocket, 'state' | 'lastMessageAt' | 'openedAt'>;

export class LatestQuotes {
  private readonly byInstrument = new Map<number, LatestQuote>();

  /** Holds a quote from the feed; false when it is not news (the same as the one held). */
  take({ instrumentId, code, quote, data, legacy }: QuotePush): boolean {
    const previous = this.byInstrument.get(instrumentId);
    const now = Date.now();
    // The upstream repeats its snapshot on every (re)subscribe; an unchanged quote is not news, but it is confirmed.
    if (previous?.data === data) {
      previous.seenAt = now;
      return false;
    }
    const latest = { instrumentId, quote: { ...quote, code, receivedAt: now }, data, legacy, tickAt: performance.now(), seenAt: now };
    this.byInstrument.set(instrumentId, latest);
    return true;
  }

  get(instrumentId: number): LatestQuote | undefined {
    return this.byInstrument.get(instrumentId);
  }

  get size(): number {
    return this.byInstrument.size;
  }

  /** In the order the instruments were first heard. */
  values(): IterableIterator<LatestQuote> {
    return this.byInstrument.values();
  }

  /** Every instrument's, by id. */
  list(): Quote[] {
    return [...this.byInstrument.values()].sort((a, b) => a.instrumentId - b.instrumentId).map((e) => e.quote);
  }

  /** The feed's warm state for server rendering (the app decides whether it is fresh enough). */
  warm(feed: Feed): WarmMarketState {
    const quotes = new Map<number, QuoteView & { seenAt: number }>();
    for (const [id, e] of this.byInstrument) quotes.set(id, { ...e.quote, seenAt: e.seenAt });
    return { feed: feed.state, heardAt: feed.lastMessageAt, connectedAt: feed.openedAt, quotes };
  }
}
