/**
 * Event ids and the replay of a user's private events (account, closed, alert) after `Last-Event-ID`: a tab
 * that reconnects gets what it missed with the events' own ids, or `resync` when they are gone.
 */
import crypto from 'node:crypto';
import type { ResyncData, StreamEventName } from './events';
import { sseFrame, type PrivateEventName } from './upstream-mapping';

/** This process's event ids, `<boot>.<seq>`, increasing across every stream. */
export class EventIds {
  /** Distinguishes ids of this process from an earlier one's (a Last-Event-ID after a restart is unknown). */
  private readonly boot = crypto.randomBytes(4).toString('hex');
  /** The seq of the latest id issued. */
  seq = 0;

  /** The event with the next id, as the stream carries it. */
  frame(event: StreamEventName, data: string): string {
    return sseFrame(`${this.boot}.${++this.seq}`, event, data);
  }

  /** The seq of an id this process issued, or null (another process's, a garbled one, one not issued yet). */
  seqOf(id: string): number | null {
    const dot = id.indexOf('.');
    if (dot < 0 || id.slice(0, dot) !== this.boot) return null;
    const digits = id.slice(dot + 1);
    if (!/^\d{1,15}$/.test(digits)) return null;
    const seq = Number(digits);
    return seq <= this.seq ? seq : null;
  }
}

interface Kept {
  seq: number;
  text: string;
}

/** One user's latest private events, as their frames were written. */
export class ReplayRing {
  /** The latest `closed` and `alert` events, at most `capacity`. */
  private readonly events: Kept[] = [];
  /** The latest `account` event (older ones are superseded, not lost). */
  private account: Kept | null = null;

  /** `heldFrom`: the ring holds every private event from this seq on (nothing was captured before it). */
  constructor(
    private readonly capacity: number,
    private heldFrom: number,
  ) {}

  keep(seq: number, event: PrivateEventName, text: string): void {
    // Only the newest account figures are worth replaying: they replace the previous ones.
    if (event === 'account') return void (this.account = { seq, text });
    this.events.push({ seq, text });
    if (this.events.length > this.capacity) this.heldFrom = Math.max(this.heldFrom, this.events.shift()!.seq);
  }

  /** Nothing before `seq` can be replayed any more (pushes lost upstream while its socket was down). */
  restartAt(seq: number): void {
    this.heldFrom = seq;
  }

  /** The frames after `seq` in order, or null when some of them are gone. */
  after(seq: number): string | null {
    if (seq < this.heldFrom) return null;
    const missed = this.events.filter((e) => e.seq > seq);
    if (this.account && this.account.seq > seq) missed.push(this.account);
    return missed
      .sort((a, b) => a.seq - b.seq)
      .map((e) => e.text)
      .join('');
  }
}

/**
 * What a stream that names `lastEventId` gets first: the private events it missed (none for a signed-out
 * stream), or `resync` when the id is not this process's or what came after it is gone.
 */
export function replay(ids: EventIds, ring: ReplayRing | null, lastEventId: string): string {
  const seq = ids.seqOf(lastEventId);
  if (seq === null) return resync(ids, 'unknown-id');
  if (!ring) return '';
  return ring.after(seq) ?? resync(ids, 'gone');
}

export function resync(ids: EventIds, reason: ResyncData['reason']): string {
  return ids.frame('resync', JSON.stringify({ reason } satisfies ResyncData));
}
