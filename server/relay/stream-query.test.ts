import type { IncomingMessage } from 'node:http';
import { describe, expect, test } from 'vitest';
import { STREAM_VERSION } from '../../contract/stream';
import { lastEventIdOf, parseStreamQuery, quotesKeyOf, type StreamQuery } from './stream-query';

/** The instruments a stream that asked this carries. */
const quotesOf = (query: StreamQuery) => {
  const asked = parseStreamQuery(query);
  if ('error' in asked) throw new Error(asked.error);
  return asked.quotes;
};
const request = (url: string, headers: Record<string, string> = {}) => ({ url, headers }) as unknown as IncomingMessage;

describe('parseStreamQuery', () => {
  test('no code: a stream without a chart, in the per-quote format unless it asks for v=2', () => {
    expect(parseStreamQuery({})).toEqual({ code: null, period: null, quotes: null, format: 1 });
    expect(parseStreamQuery({ code: '', v: '2' })).toEqual({ code: null, period: null, quotes: null, format: 2 });
    expect(parseStreamQuery({ v: '3' })).toMatchObject({ format: STREAM_VERSION });
    // A version this server does not know: a newer tab gets the newest this server speaks (and hears it in status);
    // anything unreadable is a tab from before versions.
    expect(parseStreamQuery({ v: '4' })).toMatchObject({ format: STREAM_VERSION });
    for (const v of ['1', '0', 'x', '', '3.0', ['3']]) expect(parseStreamQuery({ v }), String(v)).toMatchObject({ format: 1 });
  });

  test('a chart: a code of letters and digits with one of the chart periods', () => {
    expect(parseStreamQuery({ code: 'EURUSD', period: '1min' })).toMatchObject({ code: 'EURUSD', period: '1min' });
    expect(parseStreamQuery({ code: 'BTC1', period: '1day' })).toMatchObject({ code: 'BTC1', period: '1day' });
  });

  test('a code it cannot take, or a period missing or unknown, is an error', () => {
    for (const code of ['EUR-USD', 'A'.repeat(33), ['EURUSD', 'GBPUSD']]) {
      expect(parseStreamQuery({ code, period: '1min' }), String(code)).toEqual({ error: 'code must be 1 to 32 letters or digits' });
    }
    expect(parseStreamQuery({ code: 'A'.repeat(32), period: '1min' })).not.toHaveProperty('error');
    for (const period of [undefined, '2min', '']) {
      expect(parseStreamQuery({ code: 'EURUSD', period }), String(period)).toEqual({
        error: expect.stringMatching(/^period must be one of 1min, /),
      });
    }
  });

  test('quotes: the instruments named, none for an empty list, every instrument for a list it cannot take', () => {
    expect(quotesOf({ quotes: '1,7' })).toEqual(new Set([1, 7]));
    expect(quotesOf({ quotes: '' })).toEqual(new Set());
    const sixtyFour = Array.from({ length: 64 }, (_, i) => i + 1);
    expect(quotesOf({ quotes: sixtyFour.join(',') })).toEqual(new Set(sixtyFour));
    // A hint only: anything else gets every instrument rather than an error that would end the EventSource.
    for (const quotes of ['1,x', '0', '1,,2', '-1', [...sixtyFour, 65].join(','), ['1', '2']]) {
      expect(parseStreamQuery({ quotes }), String(quotes)).toEqual({ code: null, period: null, quotes: null, format: 1 });
    }
    // Also beside a code that is refused.
    expect(parseStreamQuery({ code: 'EUR-USD', period: '1min', quotes: '1' })).toHaveProperty('error');
  });
});

test('the same instruments in any order share one key; every instrument has none', () => {
  expect(quotesKeyOf(new Set([7, 1, 12]))).toBe('1,7,12');
  expect(quotesKeyOf(new Set([12, 7, 1]))).toBe(quotesKeyOf(new Set([1, 12, 7])));
  expect(quotesKeyOf(new Set())).toBe('');
  expect(quotesKeyOf(null)).toBeNull();
});

describe('lastEventIdOf', () => {
  test('the Last-Event-ID header of an EventSource that reconnects by itself comes first', () => {
    expect(lastEventIdOf(request('/stream?lastEventId=q.2', { 'last-event-id': 'h.1' }))).toBe('h.1');
  });

  test('a new EventSource names it in the query: the parsed one when given, else the URL', () => {
    expect(lastEventIdOf(request('/stream?lastEventId=abc.9'))).toBe('abc.9');
    expect(lastEventIdOf(request('/stream?lastEventId=url.1'), { lastEventId: 'given.2' })).toBe('given.2');
    expect(lastEventIdOf(request('/stream', { 'last-event-id': '' }), { lastEventId: 'given.3' })).toBe('given.3');
  });

  test('none, empty, or not a string: null; a long one is cut to 64 characters', () => {
    expect(lastEventIdOf(request('/stream'))).toBeNull();
    expect(lastEventIdOf(request('/stream?lastEventId='))).toBeNull();
    expect(lastEventIdOf(request('/stream'), { lastEventId: ['a', 'b'] })).toBeNull();
    expect(lastEventIdOf(request('/stream', { 'last-event-id': 'x'.repeat(100) }))).toBe('x'.repeat(64));
  });
});
