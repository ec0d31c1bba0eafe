/**
 * One managed websocket to the upstream's `/v1/ws` (architecture.md "The live stream"; spec §4, §9):
 * connect timeout, text `ping` heartbeat, reconnect with jittered exponential backoff after the
 * configured number of unanswered pings, and on every (re)connect a `login` (when it holds a token)
 * and a `sub` of every topic it holds. Pushes are validated with the contract's schemas; anything
 * malformed is counted and ignored.
 */
import WebSocket, { type RawData } from 'ws';
import {
  PING,
  PONG,
  ServerMessageSchema,
  WS_CONNECT_TIMEOUT_MS,
  WS_MISSED_PINGS_BEFORE_RECONNECT,
  WS_PATH,
  WS_PING_INTERVAL_MS,
  type ServerMessage,
} from '../../contract/ws';

/** up: open and answering; stale: open but at least one ping unanswered; down: not connected. */
export type { FeedState } from '../../contract/stream';
import type { FeedState } from '../../contract/stream';

export interface BackoffOptions {
  /** Delay before the first reconnect, before jitter. */
  initialMs: number;
  /** Cap of the (pre-jitter) delay. */
  maxMs: number;
  factor: number;
}

export interface UpstreamSocketOptions {
  /** The upstream's base URL (http(s)://host:port) or the websocket URL itself (ws(s)://…/v1/ws). */
  url: string;
  /** Sent as `login` on every (re)connect; null for the public socket. */
  token?: string | null;
  topics?: readonly string[];
  pingIntervalMs?: number;
  missedPingsBeforeReconnect?: number;
  connectTimeoutMs?: number;
  backoff?: Partial<BackoffOptions>;
  /** Jitter source, injectable for tests. */
  random?: () => number;
  /** A short name for log lines. */
  name?: string;
  log?: (line: string) => void;
}

export const DEFAULT_BACKOFF: BackoffOptions = { initialMs: 500, maxMs: 30_000, factor: 2 };

/** `http://h:p` → `ws://h:p/v1/ws`; a ws(s) URL with a path is kept as it is. */
export function upstreamWsUrl(base: string): string {
  const url = new URL(base);
  if (url.protocol === 'http:') url.protocol = 'ws:';
  else if (url.protocol === 'https:') url.protocol = 'wss:';
  if (url.pathname === '/' || url.pathname === '') url.pathname = WS_PATH;
  return url.toString();
}

type Listener<T extends unknown[]> = (...args: T) => void;

export class UpstreamSocket {
  private readonly url: string;
  private readonly pingIntervalMs: number;
  private readonly missedPingsBeforeReconnect: number;
  private readonly connectTimeoutMs: number;
  private readonly backoff: BackoffOptions;
  private readonly random: () => number;
  private readonly name: string;
  private readonly log: (line: string) => void;

  private token: string | null;
  private readonly held = new Set<string>();
  private ws: WebSocket | null = null;
  private current: FeedState = 'down';
  private closed = false;
  /** Pings sent since the last message of any kind. */
  private unanswered = 0;
  /** Consecutive failed attempts; reset once an open connection delivers a message. */
  private attempt = 0;
  private pingTimer: NodeJS.Timeout | null = null;
  private connectTimer: NodeJS.Timeout | null = null;
  private reconnectTimer: NodeJS.Timeout | null = null;
  private readonly messageListeners = new Set<Listener<[ServerMessage]>>();
  private readonly stateListeners = new Set<Listener<[FeedState, FeedState]>>();

  /** Epoch ms of the last message of any kind, and of the current connection's open (0: none yet). */
  lastMessageAt = 0;
  openedAt = 0;

  /** Counters for stats and tests. */
  readonly counters = { connects: 0, opens: 0, malformed: 0 };

  constructor(options: UpstreamSocketOptions) {
    this.url = upstreamWsUrl(options.url);
    this.token = options.token ?? null;
    for (const t of options.topics ?? []) this.held.add(t);
    this.pingIntervalMs = options.pingIntervalMs ?? WS_PING_INTERVAL_MS;
    this.missedPingsBeforeReconnect = options.missedPingsBeforeReconnect ?? WS_MISSED_PINGS_BEFORE_RECONNECT;
    this.connectTimeoutMs = options.connectTimeoutMs ?? WS_CONNECT_TIMEOUT_MS;
    this.backoff = { ...DEFAULT_BACKOFF, ...options.backoff };
    this.random = options.random ?? Math.random;
    this.name = options.name ?? 'upstream';
    this.log = options.log ?? (() => {});
    this.connect();
  }

  get state(): FeedState {
    return this.current;
  }

  get topics(): ReadonlySet<string> {
    return this.held;
  }

  /** Adds topics; the new ones are sent as one `sub` now if open, else on the next connect. */
  subscribe(topics: readonly string[]): void {
    const added = topics.filter((t) => !this.held.has(t));
    for (const t of added) this.held.add(t);
    if (added.length) this.send({ type: 'sub', params: added });
  }

  unsubscribe(topics: readonly string[]): void {
    const removed = topics.filter((t) => this.held.has(t));
    for (const t of removed) this.held.delete(t);
    if (removed.length) this.send({ type: 'unsub', params: removed });
  }

  /** A new token is sent as `login` at once if open (and on every later connect). */
  setToken(token: string): void {
    if (token === this.token) return;
    this.token = token;
    this.send({ type: 'login', params: token });
  }

  /** Sends `logout` (spec §4: logout is told to the realtime channel) and forgets the token. */
  logout(): void {
    this.token = null;
    this.send({ type: 'logout' });
  }

  onMessage(listener: (message: ServerMessage) => void): () => void {
    this.messageListeners.add(listener);
    return () => this.messageListeners.delete(listener);
  }

  onState(listener: (state: FeedState, previous: FeedState) => void): () => void {
    this.stateListeners.add(listener);
    return () => this.stateListeners.delete(listener);
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.clearTimers();
    const ws = this.ws;
    this.ws = null;
    // Listeners stay attached so the 'error' that terminate() may emit is handled.
    ws?.terminate();
    this.current = 'down';
    this.messageListeners.clear();
    this.stateListeners.clear();
  }

  private connect(): void {
    if (this.closed) return;
    this.counters.connects++;
    // No compression: pushes are small and frequent, and inflate is asynchronous in ws.
    const ws = new WebSocket(this.url, { perMessageDeflate: false });
    this.ws = ws;
    // ws's handshakeTimeout does not cover every stall (e.g. a TCP connect to a black hole), so a timer of our own.
    this.connectTimer = setTimeout(() => {
      if (this.ws === ws && ws.readyState === WebSocket.CONNECTING) {
        this.log(`${this.name}: connect timed out after ${this.connectTimeoutMs} ms`);
        ws.terminate();
      }
    }, this.connectTimeoutMs);
    ws.on('open', () => {
      if (this.ws !== ws) return;
      this.clearTimer('connectTimer');
      this.counters.opens++;
      this.openedAt = Date.now();
      this.unanswered = 0;
      this.setState('up');
      if (this.token) this.send({ type: 'login', params: this.token });
      if (this.held.size) this.send({ type: 'sub', params: [...this.held] });
      this.pingTimer = setInterval(() => this.heartbeat(ws), this.pingIntervalMs);
    });
    ws.on('message', (data, isBinary) => {
      if (this.ws === ws) this.onData(data, isBinary);
    });
    // Every error is followed by 'close', where the reconnect is scheduled.
    ws.on('error', (err) => {
      if (this.ws === ws) this.log(`${this.name}: ${err.message}`);
    });
    ws.on('close', () => {
      if (this.ws !== ws) return;
      this.ws = null;
      this.clearTimer('connectTimer');
      this.clearTimer('pingTimer');
      this.setState('down');
      this.scheduleReconnect();
    });
  }

  private heartbeat(ws: WebSocket): void {
    if (this.ws !== ws) return;
    if (this.unanswered >= this.missedPingsBeforeReconnect) {
      this.log(`${this.name}: ${this.unanswered} pings unanswered, reconnecting`);
      // terminate(), not close(): a black-holed peer would never complete a closing handshake.
      ws.terminate();
      return;
    }
    if (this.unanswered > 0) this.setState('stale');
    this.unanswered++;
    ws.send(PING);
  }

  private scheduleReconnect(): void {
    if (this.closed || this.reconnectTimer) return;
    const { initialMs, maxMs, factor } = this.backoff;
    const ceiling = Math.min(maxMs, initialMs * factor ** this.attempt);
    this.attempt++;
    // "Equal jitter": half fixed, half random, so a fleet of relays does not reconnect in lockstep.
    const delay = ceiling / 2 + (this.random() * ceiling) / 2;
    this.reconnectTimer = setTimeout(() => {
      this.reconnectTimer = null;
      this.connect();
    }, delay);
  }

  private onData(data: RawData, isBinary: boolean): void {
    // Any message at all proves the connection alive (spec: a ping is unanswered only if nothing came back).
    this.lastMessageAt = Date.now();
    this.unanswered = 0;
    this.attempt = 0;
    if (this.current === 'stale') this.setState('up');
    if (isBinary) {
      this.counters.malformed++;
      return;
    }
    const text = data.toString();
    if (text === PONG) return;
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      this.counters.malformed++;
      return;
    }
    const parsed = ServerMessageSchema.safeParse(json);
    if (!parsed.success) {
      this.counters.malformed++;
      return;
    }
    for (const listener of this.messageListeners) {
      try {
        listener(parsed.data);
      } catch (err) {
        this.log(`${this.name}: message listener failed: ${(err as Error).message}`);
      }
    }
  }

  private send(message: { type: string; params?: unknown }): void {
    const ws = this.ws;
    if (ws && ws.readyState === WebSocket.OPEN) ws.send(JSON.stringify(message));
  }

  private setState(next: FeedState): void {
    const previous = this.current;
    if (next === previous) return;
    this.current = next;
    for (const listener of this.stateListeners) listener(next, previous);
  }

  private clearTimer(which: 'pingTimer' | 'connectTimer' | 'reconnectTimer'): void {
    const t = this[which];
    if (t) {
      clearTimeout(t);
      this[which] = null;
    }
  }

  private clearTimers(): void {
    this.clearTimer('pingTimer');
    this.clearTimer('connectTimer');
    this.clearTimer('reconnectTimer');
  }
}
