/**
 * One private upstream socket per signed-in user with an open stream (`FOREX_TRADE`, `FOREX_CLOSED`, `ALERT`),
 * shared by the user's tabs and closed `lingerMs` after their last stream closes. Its pushes become the user's
 * private events: written to the user's streams at once and kept for replay.
 *
 * A user signed in on several devices holds several tokens; the private socket logs in with the first and keeps it, and
 * each other token gets a socket that only logs in (a "watch"). When a token is revoked (logout, "sign out" of a device,
 * a password change) the upstream answers its sockets' login with 999: the streams of that token are told to
 * revalidate and ended, and the token is remembered as refused for a while, so their reconnects (as the web session
 * may still hold it) are a visitor's streams, not a loop (docs/decisions/0040-ending-sessions.md).
 */
import { PRIVATE_TOPICS, type ServerMessage } from '../../contract/ws';
import type { RelayOptions } from './relay-options';
import { ReplayRing, resync, type EventIds, type Frames } from './replay';
import { privatePushOf } from './upstream-mapping';
import { UpstreamSocket, type FeedState } from './upstream-socket';

export interface StreamUser {
  userId: number;
  /** The user's upstream token (never sent to the browser). */
  token: string;
}

/** One user's private socket and open streams (`C`: a stream). */
export interface UserFeed<C> {
  readonly userId: number;
  /** The token the private socket logs in with. */
  token: string;
  readonly clients: Set<C>;
  /** Each stream's token (a stream without one holds `token`). */
  readonly tokens: Map<C, string>;
  socket: UpstreamSocket | null;
  /** A login-only socket for each other token the user's streams hold: the upstream tells it when that token ends. */
  readonly watches: Map<string, UpstreamSocket>;
  /** The user's private events, for a reconnecting tab. */
  readonly replay: ReplayRing;
  wasUp: boolean;
  lingerTimer: NodeJS.Timeout | null;
}

export interface UserFeedOptions<C> {
  upstreamUrl: string;
  socket?: RelayOptions['socket'];
  /** How long a user's private socket outlives their last stream. */
  lingerMs: number;
  replayCapacity: number;
  ids: EventIds;
  log: (line: string) => void;
  /** Writes one event to each of these streams, in the shape each reads. */
  write(clients: ReadonlySet<C>, frames: Frames): void;
  /** Ends these streams: their token was revoked (they have been told to revalidate, and have left the feed). */
  end?(clients: readonly C[]): void;
}

/** How long a revoked token is remembered: its web session is gone or ends at its next page well before. */
const REFUSED_MS = 10 * 60_000;
const MAX_REFUSED = 10_000;

export class UserFeeds<C> {
  private readonly feeds = new Map<number, UserFeed<C>>();
  /** Tokens the upstream refused lately, with when to forget them. */
  private readonly refused = new Map<string, number>();
  private closed = false;

  constructor(private readonly options: UserFeedOptions<C>) {}

  /** The user's feed for a new stream: opened, kept from its linger, or opened again with this token after a refusal. */
  attach(who: StreamUser): UserFeed<C> {
    let feed = this.feeds.get(who.userId);
    if (!feed) {
      feed = {
        userId: who.userId,
        token: who.token,
        clients: new Set(),
        tokens: new Map(),
        socket: null,
        watches: new Map(),
        // Nothing was captured for this user before now: any Last-Event-ID gets resync.
        replay: new ReplayRing(this.options.replayCapacity, this.options.ids.seq + 1),
        wasUp: false,
        lingerTimer: null,
      };
      this.feeds.set(who.userId, feed);
      this.openSocket(feed);
      return feed;
    }
    if (feed.lingerTimer) {
      clearTimeout(feed.lingerTimer);
      feed.lingerTimer = null;
    }
    // A socket keeps the token it logged in with, so a 999 on it names that token; another token is watched (join).
    if (!feed.socket) {
      feed.token = who.token;
      this.openSocket(feed);
    }
    return feed;
  }

  get(userId: number): UserFeed<C> | undefined {
    return this.feeds.get(userId);
  }

  /** A stream joins its user's feed with its session's token. */
  join(feed: UserFeed<C>, c: C, token: string): void {
    feed.clients.add(c);
    feed.tokens.set(c, token);
    this.watch(feed);
  }

  /** One of the user's streams closed; the socket lingers after the last. */
  leave(feed: UserFeed<C>, c: C): void {
    feed.tokens.delete(c);
    if (!feed.clients.delete(c)) return;
    this.watch(feed);
    if (feed.clients.size === 0) this.linger(feed);
  }

  /** The upstream refused this token lately (revoked or expired): its streams are a visitor's. */
  isRefused(token: string): boolean {
    const until = this.refused.get(token);
    if (until === undefined) return false;
    if (until > Date.now()) return true;
    this.refused.delete(token);
    return false;
  }

  /** At logout: tells the user's upstream socket and closes it; returns the user's streams, for the caller to end. */
  logout(userId: number): C[] {
    const feed = this.feeds.get(userId);
    if (!feed) return [];
    feed.socket?.logout();
    const clients = [...feed.clients];
    this.drop(feed);
    return clients;
  }

  counts(): { users: number; privateSockets: number } {
    let users = 0;
    let privateSockets = 0;
    for (const feed of this.feeds.values()) {
      if (feed.clients.size > 0) users++;
      if (feed.socket) privateSockets++;
      privateSockets += feed.watches.size;
    }
    return { users, privateSockets };
  }

  close(): void {
    this.closed = true;
    for (const feed of [...this.feeds.values()]) this.drop(feed);
  }

  private openSocket(feed: UserFeed<C>): void {
    const socket = new UpstreamSocket({
      ...this.options.socket,
      url: this.options.upstreamUrl,
      token: feed.token,
      topics: PRIVATE_TOPICS,
      name: `user ${feed.userId} socket`,
      // Per-user socket trouble is visible in the public feed's log already; keep the log readable.
      log: () => {},
    });
    feed.socket = socket;
    feed.wasUp = false;
    socket.onMessage((m) => this.onMessage(feed, socket, m));
    socket.onState((state, previous) => this.onState(feed, socket, state, previous));
  }

  private onMessage(feed: UserFeed<C>, socket: UpstreamSocket, m: ServerMessage): void {
    if (feed.socket !== socket) return;
    const push = privatePushOf(m);
    if (!push) return;
    if (push.kind === 'login-refused') {
      // The token no longer works upstream: stop this socket and end that token's streams. A stream with a new
      // token opens a new socket; another device's token takes over at once.
      this.options.log(`user ${feed.userId}: upstream login refused (code ${push.code})`);
      socket.close();
      feed.socket = null;
      return this.signedOut(feed, feed.token);
    }
    const { ids } = this.options;
    const frames = ids.frames(push.kind, push);
    feed.replay.keep(ids.seq, push.kind, frames);
    // Private events are always written (never coalesced); a client that cannot take them is ended by the
    // buffer bounds and gets them back by replay when it reconnects.
    this.options.write(feed.clients, frames);
  }

  private onState(feed: UserFeed<C>, socket: UpstreamSocket, state: FeedState, previous: FeedState): void {
    if (feed.socket !== socket || state !== 'up' || previous !== 'down') return;
    if (feed.wasUp) {
      // Pushes during the outage are lost upstream: nothing before now can be replayed, and open pages revalidate.
      feed.replay.restartAt(this.options.ids.seq + 1);
      this.options.write(feed.clients, resync(this.options.ids, 'reconnected'));
    }
    feed.wasUp = true;
  }

  /** Opens a watch for every other token the streams hold, and closes those no stream holds any more. */
  private watch(feed: UserFeed<C>): void {
    const held = new Set<string>();
    for (const token of feed.tokens.values()) if (token !== feed.token) held.add(token);
    for (const [token, socket] of feed.watches) {
      if (held.has(token)) continue;
      socket.close();
      feed.watches.delete(token);
    }
    for (const token of held) if (!feed.watches.has(token)) this.openWatch(feed, token);
  }

  private openWatch(feed: UserFeed<C>, token: string): void {
    const socket = new UpstreamSocket({
      ...this.options.socket,
      url: this.options.upstreamUrl,
      token,
      topics: [],
      name: `user ${feed.userId} watch`,
      log: () => {},
    });
    feed.watches.set(token, socket);
    socket.onMessage((m) => {
      if (feed.watches.get(token) !== socket || privatePushOf(m)?.kind !== 'login-refused') return;
      socket.close();
      feed.watches.delete(token);
      this.signedOut(feed, token);
    });
  }

  /** A token was refused: its streams are told to revalidate and ended; if it was the private socket's, another token takes it. */
  private signedOut(feed: UserFeed<C>, token: string): void {
    this.refuse(token);
    const ended = [...feed.clients].filter((c) => (feed.tokens.get(c) ?? feed.token) === token);
    for (const c of ended) {
      feed.clients.delete(c);
      feed.tokens.delete(c);
    }
    const { ids } = this.options;
    if (ended.length) {
      this.options.write(new Set(ended), resync(ids, 'login-failed'));
      this.options.end?.(ended);
    }
    const next = token === feed.token ? [...feed.tokens.values()].find((t) => t !== token && !this.isRefused(t)) : undefined;
    if (next) {
      feed.watches.get(next)?.close();
      feed.watches.delete(next);
      feed.token = next;
      this.openSocket(feed);
      // Pushes between the two sockets are lost: nothing before now can be replayed, and the other device's pages revalidate.
      feed.replay.restartAt(ids.seq + 1);
      this.options.write(feed.clients, resync(ids, 'reconnected'));
    }
    if (ended.length && feed.clients.size === 0) this.linger(feed);
  }

  private refuse(token: string): void {
    if (this.refused.size >= MAX_REFUSED) this.refused.delete(this.refused.keys().next().value!);
    this.refused.set(token, Date.now() + REFUSED_MS);
  }

  private linger(feed: UserFeed<C>): void {
    if (this.closed || this.feeds.get(feed.userId) !== feed) return;
    if (this.options.lingerMs <= 0) return this.drop(feed);
    feed.lingerTimer = setTimeout(() => {
      feed.lingerTimer = null;
      if (feed.clients.size === 0) this.drop(feed);
    }, this.options.lingerMs);
    feed.lingerTimer.unref();
  }

  private drop(feed: UserFeed<C>): void {
    if (feed.lingerTimer) clearTimeout(feed.lingerTimer);
    feed.lingerTimer = null;
    feed.socket?.close();
    feed.socket = null;
    for (const socket of feed.watches.values()) socket.close();
    feed.watches.clear();
    if (this.feeds.get(feed.userId) === feed) this.feeds.delete(feed.userId);
  }
}
