/**
 * The browser side of `GET /stream`: one EventSource per tab, shared by every component. Updates are
 * collected and drawn once per animation frame (or at a page's slower pace), so a round of prices and its candle
 * cost one frame on a weak phone: React's render of what shows them, or a market row's own writes (useLiveQuoteDraw).
 * Reconnects when the tab comes back (visibilitychange), the network returns (online) or the page is restored
 * from the back-forward cache (pageshow); shows the feed as stale meanwhile.
 */
import { STREAM_SILENT_MS, STREAM_VERSION } from '#contract/stream';
import type { LiveAccount, PriceAlert, Quote } from '#contract/views';
import { RESYNC_EVENT, type KlineData, type StatusData, type StreamEventName } from './events';

export type FeedHealth = 'connecting' | 'up' | 'stale' | 'down';

type Listener = () => void;

/** What the stream should carry: the candles of one code and period, and the quotes a page shows. */
export interface StreamScope {
  code?: string;
  period?: string;
  /** The ids of the instruments whose quotes the page shows; absent: every instrument. */
  quotes?: readonly number[];
  /** At least this many milliseconds between two frames of prices (a list glanced at needs two a second). */
  pace?: number;
}

/**
 * Whether a stream that carries `carried` (null: every instrument) has every quote `wanted` needs. A page that
 * wants fewer quotes than the open stream carries keeps it: a reconnect would briefly leave its prices waiting.
 * (The hub reads a list it cannot take, too long or malformed, as every instrument: no check is needed here.)
 */
function carries(carried: ReadonlySet<number> | null, wanted: readonly number[] | undefined): boolean {
  return !carried || (!!wanted && wanted.every((id) => carried.has(id)));
}

/**
 * Listeners by slice, so that a tick redraws only what shows it: one instrument's quote (a list follows
 * each row's own), the account, the feed's health. Each slice keeps its value's identity until it changes.
 */
class Slice<T> {
  private readonly listeners = new Set<Listener>();
  constructor(public value: T) {}
  subscribe = (listener: Listener): (() => void) => listen(this.listeners, listener);
  get = (): T => this.value;
  set(value: T) {
    if (Object.is(value, this.value)) return;
    this.value = value;
    this.listeners.forEach((l) => l());
  }
}

/** Adds a listener to a set; the function returned removes it. */
function listen<T>(listeners: Set<T>, listener: T): () => void {
  listeners.add(listener);
  return () => void listeners.delete(listener);
}

/** Runs `task`; if it throws, the error is logged with the stream event it was handling and nothing else stops. */
function report(name: string, task: () => void) {
  try {
    task();
  } catch (error) {
    console.error('[live]', name, error);
  }
}

/** The stream's news that its listeners hear at once (a candle with the frame of its round), by kind. */
interface Told {
  kline: KlineData;
  closed: number[];
  alert: PriceAlert;
}

/** EventSource.OPEN and .CLOSED, as literals the minifier can fold (the page's first-load bytes count). */
const OPEN = 1;
const CLOSED = 2;

/** Quotes of a connect's snapshot handed to React per animation frame (at most). */
const SNAPSHOT_QUOTES_PER_FRAME = 6;

/**
 * The frames that draw live prices take at most this share of the main thread: a phone too slow to draw every round
 * of ticks draws every other, or every third (a frame's cost is measured on the device; a fast one draws them all).
 */
const PRICES_SHARE = 0.25;
/** However slow the phone, prices are drawn at least this often. */
const SLOWEST_PACE_MS = 1000;

/** How long a hidden tab keeps its stream. */
const HIDDEN_CLOSE_MS = 5000;

class LiveStore {
  private source: EventSource | null = null;
  /** Until a page says what it shows, the stream carries no quotes (the price alerts' toasts need none). */
  private scope: StreamScope = { quotes: [] };
  /** The quotes the open stream carries (null: every instrument). */
  private carried: ReadonlySet<number> | null = null;
  /** The latest quote of every instrument the stream carries (a slice starts from it). */
  private readonly latest = new Map<number, Quote>();
  readonly account = new Slice<LiveAccount | null>(null);
  readonly health = new Slice<FeedHealth>('connecting');
  private readonly quoteSlices = new Map<number, Slice<Quote | undefined>>();
  private pendingQuotes = new Map<number, Quote>();
  private pendingAccount: LiveAccount | null = null;
  private pendingHealth: FeedHealth | null = null;
  /** Live candles not yet handed on, by time: oldest first, a candle once with its latest tick. */
  private pendingKlines = new Map<number, KlineData>();
  private frame = 0;
  private lastFlush = 0;
  /** What the last frame of prices cost this device's main thread (ms): sets the pace below. */
  private frameCost = 0;
  /** Set by a connect until its snapshot is drawn. */
  private snapshot = false;
  private readonly told: { [K in keyof Told]: Set<(news: Told[K]) => void> } = { kline: new Set(), closed: new Set(), alert: new Set() };
  private users = 0;
  private wired = false;
  /** The id of the last event received: a new EventSource sends it so the hub replays what was missed. */
  private lastEventId = '';
  /** Runs out when the open stream has said nothing for STREAM_SILENT_MS (it pings every STREAM_HEARTBEAT_MS). */
  private silence = 0;

  /** One instrument's quote: its listeners run only when that instrument ticks. */
  quote(id: number): Slice<Quote | undefined> {
    let slice = this.quoteSlices.get(id);
    if (!slice) this.quoteSlices.set(id, (slice = new Slice(this.latest.get(id))));
    return slice;
  }

  /**
   * A page that shows live data holds the stream open while mounted, scoped to what it shows; without a scope,
   * it keeps the stream open as it is (the price alerts' toasts on every page).
   */
  retain(scope?: StreamScope): () => void {
    this.users += 1;
    if (scope) this.setScope(scope);
    else if (!this.source) this.connect();
    this.wireWindowEvents();
    return this.release;
  }

  /**
   * An effect that runs again (its page's scope changed) releases and retains in one go: the stream is let go
   * only if nobody took it back meanwhile, so a wider stream stays for a page that now wants less.
   */
  private release = () => {
    this.users -= 1;
    queueMicrotask(() => this.users || this.disconnect());
  };

  setScope(scope: StreamScope) {
    const same = scope.code === this.scope.code && scope.period === this.scope.period;
    this.scope = scope;
    // An EventSource that gave up (CLOSED) is not kept for anything.
    if (same && (this.source?.readyState ?? CLOSED) < CLOSED && carries(this.carried, scope.quotes)) return;
    this.connect();
  }

  /** Listens to one kind of the stream's news; the function returned stops listening. */
  hear<K extends keyof Told>(kind: K, listener: (news: Told[K]) => void): () => void {
    return listen(this.told[kind], listener);
  }

  /** Each listener runs on its own: one that throws leaves the others their news. */
  private tell<K extends keyof Told>(kind: K, news: Told[K]) {
    this.told[kind].forEach((listener) => report(kind, () => listener(news)));
  }

  private connect() {
    this.disconnect();
    // The shapes this code reads (a round's quotes come in one `quotes` event).
    const params = new URLSearchParams({ v: String(STREAM_VERSION) });
    if (this.scope.code) params.set('code', this.scope.code);
    if (this.scope.period) params.set('period', this.scope.period);
    const wanted = this.scope.quotes;
    this.carried = null;
    // The quotes not yet drawn are the old stream's: the new one's snapshot brings those it carries (and the
    // snapshot flag below then waits for it, not for these).
    this.pendingQuotes.clear();
    if (wanted) {
      params.set('quotes', String(wanted));
      const keep = (this.carried = new Set(wanted));
      // Quotes the new stream will not carry stop being live: left in place they would age unseen and later
      // outshine a page's fresher server data (a page that shows them again reconnects and gets them at once).
      for (const id of this.latest.keys()) {
        if (keep.has(id)) continue;
        this.latest.delete(id);
        this.quoteSlices.get(id)?.set(undefined);
      }
    }
    // A fresh EventSource cannot send the Last-Event-ID header, so the id travels in the query.
    if (this.lastEventId) params.set('lastEventId', this.lastEventId);
    const source = new EventSource(`/stream?${params}`);
    this.source = source;
    // A stream silent that long died without a word (a phone that changed networks can keep a dead connection open
    // for minutes): its prices are stale, and another stream brings them back.
    const heard = () => {
      clearTimeout(this.silence);
      this.silence = window.setTimeout(() => {
        this.connect();
        this.setHealth('stale');
      }, STREAM_SILENT_MS);
    };
    heard();
    this.snapshot = true;
    // A frame the last page's pace held back is not waited for: the snapshot and the health go out at once.
    clearTimeout(this.frame);
    this.frame = 0;
    this.setHealth('connecting');
    // The stream's data is read once its status says it speaks this code's version: a node of an earlier release
    // (a rolling deploy) sends the shapes before it, and its replays come before its status.
    let speaks = false;
    const on = <K extends StreamEventName>(name: K, handle: (data: never) => void, always?: boolean) =>
      source.addEventListener(name, (e) => {
        heard();
        const id = (e as MessageEvent<string>).lastEventId;
        if (id) this.lastEventId = id;
        // A malformed event is dropped (the next one brings the state again).
        if (speaks || always) report(name, () => handle(JSON.parse((e as MessageEvent<string>).data) as never));
      });
    on('quotes', (quotes: Quote[]) => {
      for (const q of quotes) this.pendingQuotes.set(q.instrumentId, q);
      this.schedule();
    });
    on('account', (a: LiveAccount) => {
      this.pendingAccount = a;
      this.schedule();
    });
    // (An old stream's candle still waiting is handed on too: the chart leaves another code's or period's.)
    on('kline', (k: KlineData) => {
      this.pendingKlines.set(k.time, k);
      this.schedule();
    });
    // Closed orders are handled at once, never batched away.
    on('closed', (c: { ids: number[] }) => this.tell('closed', c.ids));
    on('alert', (a: PriceAlert) => this.tell('alert', a));
    on(
      'status',
      (s: StatusData) => {
        // The server speaks another version: this tab's code would misread it, so the tab loads the new code.
        if (s.version && s.version !== STREAM_VERSION) return location.reload();
        // A node of a release before versions: its prices stay "connecting" until the stream lands on another.
        if ((speaks = s.version === STREAM_VERSION)) this.setHealth(s.state);
      },
      true,
    );
    // Announced on the window: the page shell (resync.tsx) reruns the loaders without loading this module.
    on('resync', () => window.dispatchEvent(new Event(RESYNC_EVENT)));
    on('ping', () => {}, true);
    source.onerror = () => this.setHealth(source.readyState === CLOSED ? 'down' : 'stale');
  }

  private disconnect() {
    this.source?.close();
    this.source = null;
    clearTimeout(this.silence);
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
    if (this.users === 0 || document.visibilityState === 'hidden') return;
    if (this.source?.readyState !== OPEN || this.health.value !== 'up') this.connect();
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
    // The page's pace holds the next frame back; a connect's snapshot is drawn at once (a few quotes a frame).
    const pace = Math.max(this.scope.pace ?? 0, Math.min(SLOWEST_PACE_MS, this.frameCost / PRICES_SHARE));
    this.frame = window.setTimeout(
      () => {
        const start = performance.now();
        // Candles first, so that the chart's own drawing (the canvas asks for a frame of its own, the SVG renders at
        // once) falls in the frame that draws the quotes: one layout and paint a round of prices, not two. (Candles
        // that come while the frame waits, a hidden tab's, go with the next round.)
        this.pendingKlines.forEach((k) => this.tell('kline', k));
        this.pendingKlines.clear();
        requestAnimationFrame(() => {
          this.frame = 0;
          this.flush();
          // A task queued in the frame runs once it is laid out and painted: the frame's whole cost to the main thread.
          window.setTimeout(() => (this.frameCost = performance.now() - start));
        });
      },
      this.snapshot ? 0 : this.lastFlush + pace - performance.now(),
    );
  }

  private flush() {
    this.lastFlush = performance.now();
    // A connect's snapshot brings every quote at once: drawn a few per frame, it makes no long task. Ticks are
    // drawn in one frame (each frame's layout costs the same, however many rows changed).
    const limit = this.snapshot ? SNAPSHOT_QUOTES_PER_FRAME : Infinity;
    let drawn = 0;
    for (const [id, q] of this.pendingQuotes) {
      if (drawn === limit) break;
      drawn++;
      this.pendingQuotes.delete(id);
      this.latest.set(id, q);
      this.quoteSlices.get(id)?.set(q);
    }
    if (this.pendingQuotes.size) this.schedule();
    // (A frame before the first quote, the health's, leaves the snapshot still to come.)
    else if (drawn) this.snapshot = false;
    if (this.pendingAccount) this.account.set(this.pendingAccount);
    this.pendingAccount = null;
    if (this.pendingHealth) this.health.set(this.pendingHealth);
    this.pendingHealth = null;
  }
}

/** One per tab. */
export const live = typeof window === 'undefined' ? null : new LiveStore();
