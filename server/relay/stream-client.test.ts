import type { IncomingMessage, ServerResponse } from 'node:http';
import { expect, test } from 'vitest';
import { bytesOf, streamClient, tally, wants } from './stream-client';
import { parseStreamQuery, type StreamAsk } from './stream-query';

const res = {} as ServerResponse;
const request = (
  headers: Record<string, string> = {},
  socket: object = { remoteAddress: '::ffff:10.0.0.9', remotePort: 51000, localPort: 3000 },
) => ({ headers, socket }) as unknown as IncomingMessage;
const asked = (query: Record<string, string>) => parseStreamQuery(query) as StreamAsk;

test('a stream takes each shared flush; a low-data one (Save-Data or the cookie) is owed, at most once per interval', () => {
  const normal = streamClient(request(), res, asked({}), null, 1000);
  expect(normal).toMatchObject({ minIntervalMs: 0, pendingQuotes: null, pendingKlines: null, blockedSince: 0, closed: false });
  for (const headers of [{ 'save-data': 'on' }, { cookie: 'lng=en; __Host-low-data=1' }] as Record<string, string>[]) {
    const low = streamClient(request(headers), res, asked({}), null, 1000);
    expect(low.minIntervalMs, JSON.stringify(headers)).toBe(1000);
    expect(low.pendingQuotes).toEqual(new Set());
  }
});

test('what it asked for: its chart, its quotes (a key shared by the same set in any order), its format', () => {
  const c = streamClient(request(), res, asked({ code: 'EURUSD', period: '1min', quotes: '7,1', v: '3' }), null, 1000);
  expect(c).toMatchObject({ code: 'EURUSD', period: '1min', quotesKey: '1,7', format: 3 });
  expect(streamClient(request(), res, asked({ quotes: '1,7' }), null, 1000).quotesKey).toBe(c.quotesKey);
  expect(wants(c, 7)).toBe(true);
  expect(wants(c, 2)).toBe(false);
  const every = streamClient(request(), res, asked({}), null, 1000);
  expect(every.quotesKey).toBeNull();
  expect(wants(every, 2)).toBe(true);
  expect(wants(streamClient(request(), res, asked({ quotes: '' }), null, 1000), 1)).toBe(false);
});

test('its peer as the kernel’s tables name it, or none when it is not a TCP connection', () => {
  expect(streamClient(request(), res, asked({}), null, 1000).peer).toEqual({ key: '10.0.0.9|51000', localPort: 3000 });
  expect(streamClient(request({}, {}), res, asked({}), null, 1000).peer).toBeNull();
});

test('each stream reads an event in its own shape, and the stats count who still reads the old ones', () => {
  const of = (v: string | undefined, writableLength = 0) =>
    streamClient(request(), { writableLength } as ServerResponse, asked(v ? { v } : {}), null, 1000);
  const [views, quotesEvent, perQuote] = [of('3', 10), of('2', 5), of(undefined)];
  const bytes = bytesOf({ text: 'new', legacy: 'old' });
  expect([views, quotesEvent, perQuote].map((c) => bytes(c).toString())).toEqual(['new', 'old', 'old']);
  expect(tally([views, quotesEvent, perQuote])).toEqual({ buffered: 15, oldFormatClients: 1, legacyClients: 2 });
});
