/**
 * The live store's handling of stream events that go wrong (a listener that throws, a malformed event), and of the
 * stream's version (a tab reloads when the server speaks another), and of a stream gone silent (it is reopened). The browser's EventSource, window and location
 * are stand-ins; the store's module is loaded after them (it makes its store only where there is a window).
 */
import { afterAll, afterEach, describe, expect, test, vi } from 'vitest';
import { STREAM_SILENT_MS } from '#contract/stream';
import { TestEventSource } from './test-event-source';

vi.stubGlobal('EventSource', TestEventSource);
// The timers are kept for the test to run as if their time had passed: the one that runs out when the stream has been
// silent too long, and the last other one, which is the one before a frame (it hands on the live candles, and the frame
// follows at once) or the one after it (it measures the frame, and changes nothing these tests read).
let silenceRunsOut: (() => void) | null = null;
let beforeFrame: (() => void) | null = null;
vi.stubGlobal('window', {
  addEventListener() {},
  dispatchEvent() {},
  setTimeout: (run: () => void, ms: number) => (ms === STREAM_SILENT_MS ? (silenceRunsOut = run) : (beforeFrame = run), 1),
});
vi.stubGlobal('requestAnimationFrame', (draw: (time: number) => void) => (draw(0), 1));
/** The time before the next frame passes: live candles reach their listeners. */
const beforeTheFrame = () => {
  const run = beforeFrame;
  beforeFrame = null;
  run?.();
};
vi.stubGlobal('document', { addEventListener() {}, visibilityState: 'visible' });
const reload = vi.fn();
vi.stubGlobal('location', { reload });
const { STREAM_VERSION } = await import('#contract/stream');
const live = (await import('./store')).live!;
const release = live.retain({ code: 'EURUSD', period: '1' });
const source = TestEventSource.last!;
// The stream says first that it speaks this code's version: its events are read from then on.
source.send('status', JSON.stringify({ state: 'up', version: STREAM_VERSION }));

const logged = vi.spyOn(console, 'error').mockImplementation(() => {});
afterEach(() => {
  logged.mockClear();
  reload.mockClear();
});
afterAll(() => {
  release();
  vi.unstubAllGlobals();
});

test.each([
  ['kline', { instrumentId: 1, close: 1.1 }, { instrumentId: 1, close: 1.1 }],
  ['closed', { ids: [4, 5] }, [4, 5]],
  ['alert', { id: 9, code: 'EURUSD' }, { id: 9, code: 'EURUSD' }],
] as const)('a %s listener that throws is logged with its event, and the listeners after it still get the event', (name, data, given) => {
  const on = (listener: () => void) => live.hear(name, listener);
  const failure = new Error('a listener failed');
  const after = vi.fn();
  const offs = [
    on(() => {
      throw failure;
    }),
    on(after),
  ];
  source.send(name, JSON.stringify(data));
  beforeTheFrame();
  expect(after).toHaveBeenCalledWith(given);
  expect(logged).toHaveBeenCalledWith('[live]', name, failure);
  offs.forEach((off) => off());
});

test('a malformed event is dropped and logged; the stream goes on with the next one', () => {
  const listener = vi.fn();
  const off = live.hear('kline', listener);
  expect(() => source.send('kline', '{"instrumentId": 1,')).not.toThrow();
  expect(listener).not.toHaveBeenCalled();
  expect(logged).toHaveBeenCalledWith('[live]', 'kline', expect.any(SyntaxError));
  source.send('kline', '{"instrumentId": 1}');
  beforeTheFrame();
  expect(listener).toHaveBeenCalledWith({ instrumentId: 1 });
  off();
});

test('live candles are handed on before the frame that draws the quotes, oldest first, a candle once with its latest tick', () => {
  const candles: unknown[] = [];
  const off = live.hear('kline', (k) => candles.push(k));
  const kline = (time: number, close: number) => ({ code: 'EURUSD', period: '1', time, close });
  source.send('kline', JSON.stringify(kline(60, 1.1)));
  source.send('kline', JSON.stringify(kline(60, 1.2)));
  source.send('kline', JSON.stringify(kline(120, 1.3)));
  source.send('kline', JSON.stringify(kline(120, 1.4)));
  expect(candles).toEqual([]);
  beforeTheFrame();
  // The minute that closed keeps its last tick; the new one is handed on after it.
  expect(candles).toEqual([kline(60, 1.2), kline(120, 1.4)]);
  off();
});

describe('the stream’s version', () => {
  /** A new stream (another chart), as the store opens it. */
  const reconnect = (code: string) => {
    live.setScope({ code, period: '1min' });
    return TestEventSource.last!;
  };

  test('the tab asks for the version it was built with', () => {
    expect(new URL(source.url, 'http://localhost').searchParams.get('v')).toBe(String(STREAM_VERSION));
  });

  test('a server that names another version reloads the tab: its events are in shapes this code would misread', () => {
    const stream = reconnect('GBPUSD');
    const listener = vi.fn();
    const off = live.hear('alert', listener);
    stream.send('status', JSON.stringify({ state: 'up', version: STREAM_VERSION + 1 }));
    expect(reload).toHaveBeenCalledTimes(1);
    stream.send('alert', '{"id": 1}');
    expect(listener).not.toHaveBeenCalled();
    off();
  });

  test('the same version: no reload, and the events are read', () => {
    const stream = reconnect('USDJPY');
    const listener = vi.fn();
    const off = live.hear('alert', listener);
    stream.send('status', JSON.stringify({ state: 'up', version: STREAM_VERSION }));
    stream.send('alert', '{"id": 2}');
    expect(reload).not.toHaveBeenCalled();
    expect(listener).toHaveBeenCalledWith({ id: 2 });
    off();
  });

  test('a node of a release before versions (a rolling deploy): no reload, and none of its events are read', () => {
    const stream = reconnect('XAUUSD');
    const kline = vi.fn();
    const closed = vi.fn();
    const offs = [live.hear('kline', kline), live.hear('closed', closed)];
    // Its replays come before its status, in the old shapes; then its status, which names no version.
    stream.send('closed', '{"ids": [7]}');
    stream.send('status', JSON.stringify({ state: 'up' }));
    stream.send('kline', '{"forex_id": 1, "Close": 1.1}');
    beforeTheFrame();
    expect(reload).not.toHaveBeenCalled();
    expect(kline).not.toHaveBeenCalled();
    expect(closed).not.toHaveBeenCalled();
    offs.forEach((off) => off());
  });
});

describe('a stream gone silent', () => {
  test('a stream that says nothing, not even a ping, for STREAM_SILENT_MS is closed and another opened', () => {
    live.setScope({ code: 'AUDUSD', period: '1min' });
    const stream = TestEventSource.last!;
    silenceRunsOut!();
    expect(stream.readyState).toBe(2);
    expect(TestEventSource.last).not.toBe(stream);
  });

  test('each event, a ping too, starts the silence again', () => {
    live.setScope({ code: 'NZDUSD', period: '1min' });
    const stream = TestEventSource.last!;
    const first = silenceRunsOut;
    stream.send('ping', '{}');
    expect(silenceRunsOut).not.toBe(first);
    stream.send('status', JSON.stringify({ state: 'up', version: STREAM_VERSION }));
    const afterStatus = silenceRunsOut;
    expect(afterStatus).not.toBe(first);
  });
});
