import { describe, expect, test } from 'vitest';
import { EventIds, packReplay, ReplayRing, replay, unpackReplay, type Frames } from './replay';

/** The SSE frames in a text, as [event, data] pairs with their ids' seqs. */
const framesIn = (text: string) =>
  [...text.matchAll(/^id: \w+\.(\d+)\nevent: (\w+)\ndata: (.*)\n\n/gm)].map(([, seq, event, data]) => ({ seq: Number(seq), event, data }));

describe('EventIds', () => {
  test('each frame carries the next id, `<boot>.<seq>`, in the SSE format', () => {
    const ids = new EventIds();
    const first = ids.frame('status', '{"state":"up"}');
    expect(first).toMatch(/^id: [0-9a-f]{8}\.1\nevent: status\ndata: \{"state":"up"\}\n\n$/);
    expect(framesIn(ids.frame('closed', '{"ids":[1]}'))).toEqual([{ seq: 2, event: 'closed', data: '{"ids":[1]}' }]);
    expect(ids.seq).toBe(2);
  });

  test('only an id this process issued has a seq: not another process’s, a garbled one, or one not issued yet', () => {
    const ids = new EventIds();
    const id = /^id: (\S+)/.exec(ids.frame('status', '{}'))![1]!;
    expect(ids.seqOf(id)).toBe(1);
    const boot = id.split('.')[0]!;
    for (const other of [
      `${boot}.2`,
      `${boot}.`,
      `${boot}.x1`,
      `${boot}.1.1`,
      `${boot}1`,
      '00000000.1',
      '1',
      'garbage',
      `${boot}.${'9'.repeat(16)}`,
    ]) {
      expect(ids.seqOf(other), other).toBeNull();
    }
    expect(new EventIds().seqOf(id)).toBeNull();
  });
});

describe('ReplayRing', () => {
  /** A ring that keeps texts; `after` gives the views' (the shapes before them are `legacy` + the same). */
  const ring = (capacity: number, heldFrom = 1) => {
    const r = new ReplayRing(capacity, heldFrom);
    return {
      keep: (seq: number, event: 'account' | 'closed' | 'alert', text: string) => r.keep(seq, event, { text, legacy: `old ${text}` }),
      after: (seq: number) => r.after(seq)?.text ?? null,
      restartAt: (seq: number) => r.restartAt(seq),
      ring: r,
    };
  };

  test('each event in both shapes, in the same order', () => {
    const r = ring(8);
    r.keep(2, 'account', 'a2 ');
    r.keep(3, 'closed', 'c3 ');
    expect(r.ring.after(1)).toEqual({ text: 'a2 c3 ', legacy: 'old a2 old c3 ' });
  });

  test('the events after a seq, in order; the latest account figures only', () => {
    const r = ring(8);
    r.keep(2, 'account', 'a2 ');
    r.keep(3, 'closed', 'c3 ');
    r.keep(4, 'account', 'a4 ');
    r.keep(5, 'alert', 'x5 ');
    expect(r.after(1)).toBe('c3 a4 x5 ');
    expect(r.after(3)).toBe('a4 x5 ');
    expect(r.after(4)).toBe('x5 ');
    expect(r.after(5)).toBe('');
  });

  test('bounded: once a close falls out of the ring, a seq before it is gone', () => {
    const r = ring(2);
    for (let seq = 1; seq <= 4; seq++) r.keep(seq, 'closed', `c${seq} `);
    expect(r.after(0)).toBeNull();
    expect(r.after(1)).toBeNull();
    // Whoever saw close 2 (the last to fall out) misses nothing the ring no longer holds.
    expect(r.after(2)).toBe('c3 c4 ');
    // Account figures do not count against the bound.
    for (let seq = 5; seq <= 20; seq++) r.keep(seq, 'account', `a${seq} `);
    expect(r.after(2)).toBe('c3 c4 a20 ');
  });

  test('nothing from before it was made, nor from before a restart, can be replayed', () => {
    const r = ring(8, 5);
    expect(r.after(4)).toBeNull();
    expect(r.after(5)).toBe('');
    r.keep(6, 'closed', 'c6 ');
    r.restartAt(10);
    r.keep(10, 'closed', 'c10 ');
    expect(r.after(6)).toBeNull();
    expect(r.after(10)).toBe('');
    expect(r.after(9)).toBeNull();
  });
});

describe('replay', () => {
  test('a known id gets what the user missed; a signed-out stream nothing', () => {
    const ids = new EventIds();
    const r = new ReplayRing(8, ids.seq + 1);
    const seen = /^id: (\S+)/.exec(ids.frame('status', '{}'))![1]!;
    const missed = ids.frames('alert', { data: '{"level":1}', legacy: '{"price":1}' });
    expect(missed.legacy).toBe(missed.text.replace('{"level":1}', '{"price":1}'));
    r.keep(ids.seq, 'alert', missed);
    expect(replay(ids, r, seen)).toEqual(missed);
    expect(replay(ids, null, seen)).toEqual({ text: '', legacy: '' });
  });

  test('an event whose data is the same in both shapes has one frame', () => {
    const frames = new EventIds().frames('closed', { data: '{"ids":[1]}', legacy: '{"ids":[1]}' });
    expect(frames.legacy).toBe(frames.text);
  });

  test('packed for another process, a replay gives each stream its shape; one it cannot read gives nothing', () => {
    const frames: Frames = { text: 'views ', legacy: 'old ' };
    expect(unpackReplay(packReplay(frames), false)).toBe('views ');
    expect(unpackReplay(packReplay(frames), true)).toBe('old ');
    for (const bad of ['', 'views ', '{"text":1}', 'null']) expect(unpackReplay(bad, false), bad).toBeNull();
  });

  test('an unknown id gets resync (unknown-id), signed in or not; an id older than the ring gets resync (gone)', () => {
    const ids = new EventIds();
    const old = /^id: (\S+)/.exec(ids.frame('status', '{}'))![1]!;
    const r = new ReplayRing(8, ids.seq + 1);
    for (const ring of [r, null]) {
      expect(framesIn(replay(ids, ring, 'garbage').text)).toEqual([{ seq: ids.seq, event: 'resync', data: '{"reason":"unknown-id"}' }]);
    }
    // The user's ring was made after `old` was issued: what came between is not known.
    ids.frame('closed', '{"ids":[1]}');
    expect(framesIn(replay(ids, new ReplayRing(8, ids.seq + 1), old).legacy)).toEqual([
      { seq: ids.seq, event: 'resync', data: '{"reason":"gone"}' },
    ]);
  });
});
