/**
 * The browser side of `GET /stream`: one EventSource per tab, shared by every component. Updates are
 * collected and handed to React once per animation frame, so a burst of quotes costs one render on a
 * weak phone. Reconnects when the tab comes back (visibilitychange), the network returns (online) or the
 * page is restored from the back-forward cache (pageshow); shows the feed as stale meanwhile.
 */
import { STREAM_MAX_QUOTES } from '#contract/stream';
import { RESYNC_EVENT, type AccountData, type AlertData, type KlineData, type QuoteData, type StreamEventName } from './events';

export type FeedHealth = 'connecting' | 'up' | 'stale' | 'down';

type Listener = () => void;

/** What the stream should carry: the candles of one code and period, and the quotes a page shows. */
export interface StreamScope {
  code?: string;
  period?: string;
  /** The ids of the instruments whose quotes the page shows; absent: every instrument. */
  quotes?: readonly number[];
}

/**
 * Whether a stream that carries `carried` (null: every instrument) has every quote `wanted` needs. A page that
 * wants fewer quotes than the open stream carries keeps it: a reconnect would briefly leave its prices waiting.
 */
function carries(carried: ReadonlySet<number> | null, wanted: readonly number[] | undefined): boolean {
  if (carried === null) return true;
  return namable(wanted) && wanted.every((id) => carried.has(id));
}

/**
 * Whether the stream can be asked for just these quotes. More than the hub takes, or an id it would refuse
 * (a 400 ends an EventSource for good, private events with it), and the page asks for every instrument.
 */
function namable(quotes: readonly number[] | undefined): quotes is readonly number[] {
  return (
    quotes !== undefined && quotes.length <= STREAM_MAX_QUOTES && quotes.every((id) => Number.isInteger(id) && id >= 1 && id <= 999_999_999)
  );
}

/** A stream held for the price alerts' toasts alone: no quotes, no candles. */
const TOASTS_ONLY: StreamScope = { quotes: [] };
/** How long a stream left to the toasts keeps the last page's scope. */
const TOASTS_ONLY_AFTER_MS = 3000;

/**
 * Listeners by slice, so that a tick re-renders only what shows it: one instrument's quote, the whole
 * map (the drawer), the account, the feed's health. Each slice keeps its value's identity until it changes.
 */
class Slice<T> {
  private readonly listeners = new Set<Listener>();
  constructor(public value: T) {}
  subscribe = (listener: Listener): (() => void) => {
    this.listeners.add(listener);
    return () => void this.listeners.delete(listener);
  };
  get = (): T => this.value;
  set(value: T) {
    if (Object.is(value, this.value)) return;
    this.value = value;
    this.listeners.forEach((l) => l());
  }
}

/** How long a hidden tab keeps its stream. */
const HIDDEN_CLOSE_MS = 5000;

class LiveStore {
  private source: EventSource | null = null;
  /** Until a page says what it shows, the stream carries no quotes (the price alerts' toasts need none). */
  private scope: StreamScope = TOASTS_ONLY;
  /** The quotes the open stream carries (null: every instrument). */
  private carried: ReadonlySet<number> | null = new Set();
  /** Every instrument's latest quote; a new map only when one changed. */
  readonly quotes = new Slice<ReadonlyMap<number, QuoteData>>(new Map());
  readonly account = new Slice<AccountData | null>(null);
  readonly health = new Slice<FeedHealth>('connecting');
  private readonly quoteSlices = new Map<number, Slice<QuoteData | undefined>>();
  private pendingQuotes = new Map<number, QuoteData>();
  private pendingAccount: AccountData | null = null;
  private pendingHealth: FeedHealth | null = null;
  private frame = 0;
  private klineListeners = new Set<(k: KlineData) => void>();
  private closedListeners = new Set<(ids: number[]) => void>();
  private alertListeners = new Set<(alert: AlertData) => void>();
  /** Pages that retain the stream, and holders (the toasts) that keep it open without a scope. */
  private pages = 0;
  private holds = 0;
  private wired = false;
  /** The id of the last event received: a new EventSource sends it so the hub replays what was missed. */
  private lastEventId = '';

  /** One instrument's quote: its listeners run only when that instrument ticks. */
  quote(id: number): Slice<QuoteData | undefined> {
    let slice = this.quoteSlices.get(id);
    if (!slice) this.quoteSlices.set(id, (slice = new Slice(this.quotes.value.get(id))));
    return slice;
  }

  /** A page that shows live data holds the stream open while mounted, scoped to what it shows. */
  retain(scope: StreamScope): () => void {
    this.pages += 1;
    this.setScope(scope);
    this.wireWindowEvents();
    return this.releasePage;
  }

  /** Keeps the stream open without choosing its scope (the price alerts' toasts on every page). */
  hold(): () => void {
    this.holds += 1;
    this.wireWindowEvents();
    if (!this.source) this.connect();
    return this.releaseHold;
  }

  private releasePage = () => {
    this.pages -= 1;
    this.afterRelease();
  };

  private releaseHold = () => {
    this.holds -= 1;
    this.afterRelease();
  };

  /**
   * An effect that runs again (its page's scope changed) releases and retains in one go, so this looks once
   * that is done: a stream nobody took back is let go, and one left only to the toasts stops carrying the
   * last page's quotes and candles.
   */
  private afterRelease() {
    queueMicrotask(() => {
      if (this.pages + this.holds === 0) return this.disconnect();
      // Not at once: a page on its way (after a loading screen) takes the stream with its own scope.
      if (this.pages === 0) {
        window.setTimeout(() => {
          if (this.pages > 0 || this.holds === 0) return;
          // A hidden tab's stream is gone (onVisibility): it comes back with this scope when shown.
          if (this.source) this.setScope(TOASTS_ONLY);
          else this.scope = TOASTS_ONLY;
        }, TOASTS_ONLY_AFTER_MS);
      }
    });
  }

  setScope(scope: StreamScope) {
    const same = scope.code === this.scope.code && scope.period === this.scope.period;
    this.scope = scope;
    const open = this.source !== null && this.source.readyState !== EventSource.CLOSED;
    if (same && open && carries(this.carried, scope.quotes)) return;
    this.connect();
  }

  onKline(listener: (k: KlineData) => void): () => void {
    this.klineListeners.add(listener);
    return () => void this.klineListeners.delete(listener);
  }

  onClosed(listener: (ids: number[]) => void): () => void {
    this.closedListeners.add(listener);
    return () => void this.closedListeners.delete(listener);
  }

  onAlert(listener: (alert: AlertData) => void): () => void {
    this.alertListeners.add(listener);
    return () => void this.alertListeners.delete(listener);
  }

  private connect() {
    this.disconnect();
    const params = new URLSearchParams();
    if (this.scope.code) params.set('code', this.scope.code);
    if (this.scope.period) params.set('period', this.scope.period);
    const wanted = namable(this.scope.quotes) ? this.scope.quotes : undefined;
    if (wanted) params.set('quotes', wanted.join(','));
    this.carried = wanted ? new Set(wanted) : null;
    if (wanted) this.forgetQuotesBut(this.carried!);
    // A fresh EventSource cannot send the Last-Event-ID header, so the id travels in the query.
    if (this.lastEventId) params.set('lastEventId', this.lastEventId);
    const query = params.toString();
    const source = new EventSource(`/stream${query ? `?${query}` : ''}`);
    this.source = source;
    this.setHealth('connecting');
    const on = <K extends StreamEventName>(name: K, handle: (data: never) => void) =>
      source.addEventListener(name, (e) => {
        const id = (e as MessageEvent<string>).lastEventId;
        if (id) this.lastEventId = id;
        try {
          handle(JSON.parse((e as MessageEvent<string>).data) as never);
        } catch {
          // A malformed event is dropped; the next one brings the state again.
        }
      });
    on('quote', (q: QuoteData) => {
      this.pendingQuotes.set(q.forex_id, q);
      this.schedule();
    });
    on('account', (a: AccountData) => {
      this.pendingAccount = a;
      this.schedule();
    });
    on('kline', (k: KlineData) => this.klineListeners.forEach((l) => l(k)));
    // Closed orders are handled at once, never batched away.
    on('closed', (c: { ids: number[] }) => this.closedListeners.forEach((l) => l(c.ids)));
    on('alert', (a: AlertData) => this.alertListeners.forEach((l) => l(a)));
    on('status', (s: { state: 'up' | 'stale' | 'down' }) => this.setHealth(s.state));
    // Announced on the window: the page shell (resync.tsx) reruns the loaders without loading this module.
    on('resync', () => window.dispatchEvent(new Event(RESYNC_EVENT)));
    source.onerror = () => this.setHealth(source.readyState === EventSource.CLOSED ? 'down' : 'stale');
  }

  /**
   * Quotes the new stream will not carry stop being live: left in place they would age unseen and later
   * outshine a page's fresher server data (a page that shows them again reconnects and gets them at once).
   */
  private forgetQuotesBut(keep: ReadonlySet<number>) {
    for (const id of this.pendingQuotes.keys()) if (!keep.has(id)) this.pendingQuotes.delete(id);
    if ([...this.quotes.value.keys()].every((id) => keep.has(id))) return;
    this.quotes.set(new Map([...this.quotes.value].filter(([id]) => keep.has(id))));
    for (const [id, slice] of this.quoteSlices) if (!keep.has(id)) slice.set(undefined);
  }

  private disconnect() {
    this.source?.close();
    this.source = null;
  }

  private hiddenTimer = 0;

  /**
   * A tab out of sight for a few seconds lets its stream go (parsing events nobody sees costs a phone's
   * battery); shown again, it reconnects naming its last event and gets every price at once.
   */
  private onVisibility = () => {
    clearTimeout(this.hiddenTimer);
    if (document.visibilityState === 'hidden') {
      this.hiddenTimer = window.setTimeout(() => this.disconnect(), HIDDEN_CLOSE_MS);
      return;
    }
    this.reconnectIfNeeded();
  };

  private reconnectIfNeeded = () => {
    if (this.pages + this.holds === 0 || document.visibilityState === 'hidden') return;
    if (!this.source || this.source.readyState !== EventSource.OPEN || this.health.value !== 'up') this.connect();
  };

  private wireWindowEvents() {
    if (this.wired) return;
    this.wired = true;
    document.addEventListener('visibilitychange', this.onVisibility);
    window.addEventListener('online', this.reconnectIfNeeded);
    window.addEventListener('pageshow', (e) => {
      if ((e as PageTransitionEvent).persisted) this.connect();
    });
    // The connection of a phone that lost its network can hang for minutes before it errors: drop it now
    // and reopen on 'online', naming the last event seen so that what happened meanwhile is replayed.
    window.addEventListener('offline', () => {
      this.disconnect();
      this.setHealth('down');
    });
  }

  private setHealth(health: FeedHealth) {
    this.pendingHealth = health;
    this.schedule();
  }

  private schedule() {
    if (this.frame) return;
    this.frame = requestAnimationFrame(() => {
      this.frame = 0;
      this.flush();
    });
  }

  private flush() {
    if (this.pendingQuotes.size > 0) {
      const next = new Map(this.quotes.value);
      for (const [id, q] of this.pendingQuotes) next.set(id, q);
      const changed = [...this.pendingQuotes.values()];
      this.pendingQuotes.clear();
      this.quotes.set(next);
      for (const q of changed) this.quoteSlices.get(q.forex_id)?.set(q);
    }
    if (this.pendingAccount) this.account.set(this.pendingAccount);
    this.pendingAccount = null;
    if (this.pendingHealth) this.health.set(this.pendingHealth);
    this.pendingHealth = null;
  }
}

/** One per tab. */
export const live = typeof window === 'undefined' ? null : new LiveStore();
