/**
 * One private upstream socket per signed-in user with an open stream (`FOREX_TRADE`, `FOREX_CLOSED`, `ALERT`),
 * shared by the user's tabs and closed `lingerMs` after their last stream closes. Its pushes become the user's
 * private events: written to the user's streams at once and kept for replay.
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
  token: string;
  readonly clients: Set<C>;
  socket: UpstreamSocket | null;
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
}

export class UserFeeds<C> {
  private readonly feeds = new Map<number, UserFeed<C>>();
  private closed = false;

  constructor(private readonly options: UserFeedOptions<C>) {}

  /** The user's feed for a new stream: opened, kept from its linger, or logged in again with a new token. */
  attach(who: StreamUser): UserFeed<C> {
    let feed = this.feeds.get(who.userId);
    if (!feed) {
      feed = {
        userId: who.userId,
        token: who.token,
        clients: new Set(),
        socket: null,
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
    if (feed.token !== who.token) {
      feed.token = who.token;
      if (feed.socket) feed.socket.setToken(who.token);
      else this.openSocket(feed);
    }
    return feed;
  }

  get(userId: number): UserFeed<C> | undefined {
    return this.feeds.get(userId);
  }

  /** One of the user's streams closed; the socket lingers after the last. */
  leave(feed: UserFeed<C>, c: C): void {
    if (feed.clients.delete(c) && feed.clients.size === 0) this.linger(feed);
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
      // The token no longer works upstream: stop this socket and let the pages revalidate (their loaders
      // get code 999 and sign the user out). A stream with a new token opens a new socket.
      this.options.log(`user ${feed.userId}: upstream login refused (code ${push.code})`);
      socket.close();
      feed.socket = null;
      return this.options.write(feed.clients, resync(this.options.ids, 'login-failed'));
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
    if (this.feeds.get(feed.userId) === feed) this.feeds.delete(feed.userId);
  }
}
