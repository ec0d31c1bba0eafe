/**
 * Slow clients are ended, so that one never grows the server's memory nor stays behind for long: a client whose
 * socket stays backed up for `maxBackedUpMs` (the hub also ends one holding more than `maxBufferedBytes` at its
 * write), and one whose peer has left bytes unacknowledged in the kernel for `maxBehindMs` (./unacked-bytes.ts),
 * even while node's own buffer stays empty. Its EventSource reconnects and gets its private events replayed.
 */
import type { Socket } from 'node:net';
import type { ServerResponse } from 'node:http';
import { connectionKey, readUnacked } from './unacked-bytes';

/** The peer as the kernel's tables name it. */
export interface Peer {
  key: string;
  localPort: number;
}

/** What the eviction looks at in a stream client. */
export interface WatchedClient {
  res: ServerResponse;
  /** performance.now() when a write last returned false; 0 while the socket keeps up. */
  blockedSince: number;
  /** The peer as the kernel's tables name it (null when it is not a TCP connection). */
  peer: Peer | null;
  /** performance.now() since which the peer has had bytes unacknowledged; 0 while it keeps up. */
  behindSince: number;
  closed: boolean;
}

export interface SlowClientOptions {
  maxBackedUpMs: number;
  maxBehindMs: number;
  behindCheckMs: number;
  log: (line: string) => void;
  /** The kernel's unacknowledged bytes by peer of a local port (null: not Linux); tests give their own. */
  readUnacked?: (localPort: number) => Promise<ReadonlyMap<string, number> | null>;
}

export function peerOf(socket: Socket): Peer | null {
  const { remoteAddress, remotePort, localPort } = socket;
  return remoteAddress && remotePort && localPort ? { key: connectionKey(remoteAddress, remotePort), localPort } : null;
}

/**
 * The kernel's tables list every socket of the machine, so reading them costs in proportion: the next look waits
 * 20 times as long as the last one took, within `behindCheckMs` and a quarter of `maxBehindMs` (decision 0023).
 */
export function nextBehindCheckMs(
  lastCostMs: number,
  { behindCheckMs, maxBehindMs }: { behindCheckMs: number; maxBehindMs: number },
): number {
  return Math.max(behindCheckMs, Math.min(lastCostMs * 20, maxBehindMs / 4));
}

export class SlowClients<C extends WatchedClient> {
  /** Clients whose socket is backed up. */
  readonly blocked = new Set<C>();
  /** Clients ended for being slow. */
  evicted = 0;
  private behindTimer: NodeJS.Timeout | null = null;
  private stopped = false;
  private readonly readUnacked: NonNullable<SlowClientOptions['readUnacked']>;

  /** `clients`: every open stream (the hub's own set); `detach`: forgets an ended one. */
  constructor(
    private readonly options: SlowClientOptions,
    private readonly clients: ReadonlySet<C>,
    private readonly detach: (c: C) => void,
  ) {
    this.readUnacked = options.readUnacked ?? readUnacked;
    this.scheduleBehindCheck(0);
  }

  /** A write did not fit in the socket's buffer at `now`. */
  backedUp(c: C, now: number): void {
    c.blockedSince = now || 1;
    this.blocked.add(c);
  }

  /** Its socket took everything written to it. */
  drained(c: C): void {
    c.blockedSince = 0;
    this.blocked.delete(c);
  }

  /** Ends a client that cannot keep up. */
  evict(c: C): void {
    if (c.closed) return;
    this.evicted++;
    c.res.destroy();
    this.detach(c);
  }

  /** Ends the clients whose socket has stayed backed up for longer than `maxBackedUpMs`. */
  evictBackedUp(now: number): void {
    for (const c of this.blocked) if (now - c.blockedSince > this.options.maxBackedUpMs) this.evict(c);
  }

  stop(): void {
    this.stopped = true;
    if (this.behindTimer) clearTimeout(this.behindTimer);
  }

  /** Looks at the kernel's tables again after `nextBehindCheckMs`. */
  private scheduleBehindCheck(lastCostMs: number): void {
    if (this.stopped) return;
    const wait = nextBehindCheckMs(lastCostMs, this.options);
    this.behindTimer = setTimeout(() => {
      const started = performance.now();
      void this.checkBehind()
        .catch((error: unknown) => {
          try {
            this.options.log(`kernel table check failed: ${String(error)}`);
          } catch {
            // a log that fails must not stop the checks (nor become an unhandled rejection)
          }
        })
        .then(() => this.scheduleBehindCheck(performance.now() - started));
    }, wait);
    this.behindTimer.unref();
  }

  /** Asks the kernel which peers have bytes unacknowledged; ends those that have stayed behind too long. */
  private async checkBehind(): Promise<void> {
    if (this.clients.size === 0) return;
    const ports = new Set<number>();
    for (const c of this.clients) if (c.peer) ports.add(c.peer.localPort);
    for (const port of ports) {
      const unacked = await this.readUnacked(port);
      if (!unacked) return; // not Linux: the byte and back-pressure bounds still hold
      const now = performance.now();
      for (const c of this.clients) {
        if (c.peer?.localPort !== port) continue;
        if (!unacked.has(c.peer.key) && c.res.writableLength === 0) c.behindSince = 0;
        else if (c.behindSince === 0) c.behindSince = now;
        else if (now - c.behindSince > this.options.maxBehindMs) this.evict(c);
      }
    }
  }
}
