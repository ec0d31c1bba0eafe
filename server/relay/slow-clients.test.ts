import type { ServerResponse } from 'node:http';
import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest';
import { SlowClients, nextBehindCheckMs, type WatchedClient } from './slow-clients';

interface FakeClient extends WatchedClient {
  name: string;
}

const OPTIONS = { maxBackedUpMs: 300, maxBehindMs: 400, behindCheckMs: 100 };

let clients: Set<FakeClient>;
let ended: string[];
let logged: string[];
/** What the kernel's tables say, by local port (null: not Linux). */
let unacked: Map<number, Map<string, number>> | null;
let guard: SlowClients<FakeClient> | null;

function client(name: string, peer: string | null = null): FakeClient {
  const c: FakeClient = {
    name,
    res: { writableLength: 0, destroy: () => ended.push(name) } as unknown as ServerResponse,
    blockedSince: 0,
    peer: peer ? { key: peer, localPort: 3000 } : null,
    behindSince: 0,
    closed: false,
  };
  clients.add(c);
  return c;
}

function start(options: Partial<ConstructorParameters<typeof SlowClients>[0]> = {}) {
  guard = new SlowClients<FakeClient>(
    {
      ...OPTIONS,
      log: (line) => logged.push(line),
      readUnacked: async (port) => (unacked ? (unacked.get(port) ?? new Map()) : null),
      ...options,
    },
    clients,
    (c) => {
      c.closed = true;
      clients.delete(c);
    },
  );
  return guard;
}

beforeEach(() => {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'Date', 'performance'] });
  clients = new Set();
  ended = [];
  logged = [];
  unacked = new Map();
  guard = null;
});
afterEach(() => {
  guard?.stop();
  vi.useRealTimers();
});

describe('backed-up sockets', () => {
  test('a client backed up for longer than maxBackedUpMs is ended, once; one that drained in time is not', () => {
    const slow = start();
    const [stuck, drains, fine] = [client('stuck'), client('drains'), client('fine')];
    slow.backedUp(stuck, 1000);
    slow.backedUp(drains, 1000);
    slow.evictBackedUp(1300);
    expect(ended).toEqual([]);
    slow.drained(drains);
    expect(drains.blockedSince).toBe(0);
    slow.evictBackedUp(1301);
    slow.evictBackedUp(2000);
    expect(ended).toEqual(['stuck']);
    expect(slow.evicted).toBe(1);
    expect([...clients]).toEqual([drains, fine]);
  });

  test('a client already gone is not ended again', () => {
    const slow = start();
    const c = client('gone');
    c.closed = true;
    slow.evict(c);
    expect(ended).toEqual([]);
    expect(slow.evicted).toBe(0);
  });
});

describe('clients behind in the kernel', () => {
  test('a peer that leaves bytes unacknowledged for longer than maxBehindMs is ended; one that keeps up stays', async () => {
    start();
    client('stalled', '10.0.0.1|5000');
    client('reader', '10.0.0.2|5000');
    client('not tcp');
    unacked = new Map([[3000, new Map([['10.0.0.1|5000', 4096]])]]);
    // Looks every behindCheckMs (100 ms): behind since the first look, at 100 ms.
    await vi.advanceTimersByTimeAsync(500);
    expect(ended).toEqual([]);
    await vi.advanceTimersByTimeAsync(100);
    expect(ended).toEqual(['stalled']);
    await vi.advanceTimersByTimeAsync(2000);
    expect(ended).toEqual(['stalled']);
  });

  test('a peer that catches up starts over; bytes still in node’s own buffer count as behind', async () => {
    start();
    const c = client('slow', '10.0.0.1|5000');
    unacked = new Map([[3000, new Map([['10.0.0.1|5000', 1]])]]);
    await vi.advanceTimersByTimeAsync(400);
    unacked = new Map();
    await vi.advanceTimersByTimeAsync(100);
    expect(c.behindSince).toBe(0);
    (c.res as { writableLength: number }).writableLength = 10;
    await vi.advanceTimersByTimeAsync(500);
    expect(ended).toEqual([]);
    await vi.advanceTimersByTimeAsync(100);
    expect(ended).toEqual(['slow']);
  });

  test('without the kernel’s tables (not Linux) nobody is ended for being behind', async () => {
    start();
    client('stalled', '10.0.0.1|5000');
    unacked = null;
    await vi.advanceTimersByTimeAsync(5000);
    expect(ended).toEqual([]);
  });

  test('a failed read is logged and the checks go on, even when the log throws; stop() ends them', async () => {
    let reads = 0;
    start({
      readUnacked: async () => {
        reads++;
        throw new Error('EACCES');
      },
      log: () => {
        throw new Error('log down');
      },
    });
    client('a', '10.0.0.1|5000');
    await vi.advanceTimersByTimeAsync(350);
    expect(reads).toBe(3);
    guard!.stop();
    await vi.advanceTimersByTimeAsync(1000);
    expect(reads).toBe(3);
  });

  test('the failure is logged', async () => {
    start({ readUnacked: () => Promise.reject(new Error('EACCES')) });
    client('a', '10.0.0.1|5000');
    await vi.advanceTimersByTimeAsync(100);
    expect(logged).toEqual(['kernel table check failed: Error: EACCES']);
  });
});

test('the kernel tables are read less often as reading them costs more, never past a quarter of the time to stay behind', () => {
  const options = { behindCheckMs: 2000, maxBehindMs: 20_000 };
  expect(nextBehindCheckMs(5, options)).toBe(2000);
  // 0.17 s a read beside 20,000 streams (measured): every 3.4 s, a twentieth of a core.
  expect(nextBehindCheckMs(170, options)).toBe(3400);
  // However slow the machine, a stalled client is still found within 1.25 × maxBehindMs.
  expect(nextBehindCheckMs(10_000, options)).toBe(5000);
});
