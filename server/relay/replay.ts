/**
 * Event ids and the replay of a user's private events (account, closed, alert) after `Last-Event-ID`: a tab
 * that reconnects gets what it missed with the events' own ids, or `resync` when they are gone.
 */
import crypto from 'node:crypto';
import type { ResyncData, StreamEventName } from './events';
import { sseFrame, type PrivateEventName } from './upstream-mapping';

/**
 * A private event's frame as each stream reads it, under one id: `text` in the views (version 3), `legacy` in the
 * shapes before them (./upstream-mapping.ts). Events whose data is the same in both (closed, resync) have one text.
 */
export interface Frames {
  text: string;
  legacy: string;
}

/** This process's event ids, `<boot>.<seq>`, increasing across every stream. */
export class EventIds {
  /** Distinguishes ids of this process from an earlier one's (a Last-Event-ID after a restart is unknown). */
  private readonly boot = crypto.randomBytes(4).toString('hex');
  /** The seq of the latest id issued. */
  seq = 0;

  /** The event with the next id, as the stream carries it. */
  frame(event: StreamEventName, data: string): string {
    return sseFrame(this.next(), event, data);
  }

  /** The event with the next id in both shapes of its data. */
  frames(event: StreamEventName, data: { data: string; legacy: string }): Frames {
    const id = this.next();
    const text = sseFrame(id, event, data.data);
    return { text, legacy: data.legacy === data.data ? text : sseFrame(id, event, data.legacy) };
  }

  private next(): string {
    return `${this.boot}.${++this.seq}`;
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
  frames: Frames;
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

  keep(seq: number, event: PrivateEventName, frames: Frames): void {
    // Only the newest account figures are worth replaying: they replace the previous ones.
    if (event === 'account') return void (this.account = { seq, frames });
    this.events.push({ seq, frames });
    if (this.events.length > this.capacity) this.heldFrom = Math.max(this.heldFrom, this.events.shift()!.seq);
  }

  /** Nothing before `seq` can be replayed any more (pushes lost upstream while its socket was down). */
  restartAt(seq: number): void {
    this.heldFrom = seq;
  }

  /** The frames after `seq` in order, in both shapes, or null when some of them are gone. */
  after(seq: number): Frames | null {
    if (seq < this.heldFrom) return null;
    const missed = this.events.filter((e) => e.seq > seq);
    if (this.account && this.account.seq > seq) missed.push(this.account);
    missed.sort((a, b) => a.seq - b.seq);
    return { text: missed.map((e) => e.frames.text).join(''), legacy: missed.map((e) => e.frames.legacy).join('') };
  }
}

/**
 * What a stream that names `lastEventId` gets first: the private events it missed (none for a signed-out
 * stream), or `resync` when the id is not this process's or what came after it is gone.
 */
export function replay(ids: EventIds, ring: ReplayRing | null, lastEventId: string): Frames {
  const seq = ids.seqOf(lastEventId);
  if (seq === null) return resync(ids, 'unknown-id');
  if (!ring) return { text: '', legacy: '' };
  return ring.after(seq) ?? resync(ids, 'gone');
}

/** `resync`, the same in both shapes. */
export function resync(ids: EventIds, reason: ResyncData['reason']): Frames {
  const text = ids.frame('resync', JSON.stringify({ reason } satisfies ResyncData));
  return { text, legacy: text };
}

/**
 * A replay made for another process's stream (server/web.ts and the cluster's messages carry it as one opaque
 * string): both shapes, for whichever that stream reads.
 */
export function packReplay(frames: Frames): string {
  return JSON.stringify(frames);
}

/** The frames of a packed replay for a stream that reads `legacy` shapes or not; null for one it cannot read. */
export function unpackReplay(packed: string, legacy: boolean): string | null {
  try {
    const frames = JSON.parse(packed) as Partial<Frames>;
    const text = legacy ? frames.legacy : frames.text;
    return typeof text === 'string' ? text : null;
  } catch {
    return null;
  }
}
