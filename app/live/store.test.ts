/**
 * The live store's handling of stream events that go wrong: a listener that throws, a malformed event. The
 * browser's EventSource and window are stand-ins; the store's module is loaded after them (it makes its
 * store only where there is a window).
 */
import { afterAll, afterEach, expect, test, vi } from 'vitest';

/** An EventSource whose events the test sends. */
class TestEventSource {
  static last: TestEventSource | null = null;
  readyState = 0;
  onerror: (() => void) | null = null;
  private readonly handlers = new Map<string, ((e: MessageEvent<string>) => void)[]>();
  constructor(readonly url: string) {
    TestEventSource.last = this;
  }
  addEventListener(name: string, handler: (e: MessageEvent<string>) => void) {
    this.handlers.set(name, [...(this.handlers.get(name) ?? []), handler]);
  }
  close() {
    this.readyState = 2;
  }
  send(name: string, data: string) {
    for (const handler of this.handlers.get(name) ?? []) handler({ data, lastEventId: '' } as MessageEvent<string>);
  }
}

vi.stubGlobal('EventSource', TestEventSource);
// Frames are never drawn here: the events under test reach their listeners at once.
vi.stubGlobal('window', { addEventListener() {}, dispatchEvent() {}, setTimeout: () => 1 });
vi.stubGlobal('document', { addEventListener() {}, visibilityState: 'visible' });
const live = (await import('./store')).live!;
const release = live.retain({ code: 'EURUSD', period: '1' });
const source = TestEventSource.last!;

const logged = vi.spyOn(console, 'error').mockImplementation(() => {});
afterEach(() => logged.mockClear());
afterAll(() => {
  release();
  vi.unstubAllGlobals();
});

test.each([
  ['kline', live.onKline.bind(live), { forex_id: 1, Close: 1.1 }, { forex_id: 1, Close: 1.1 }],
  ['closed', live.onClosed.bind(live), { ids: [4, 5] }, [4, 5]],
  ['alert', live.onAlert.bind(live), { id: 9, code: 'EURUSD' }, { id: 9, code: 'EURUSD' }],
] as const)(
  'a %s listener that throws is logged with its event, and the listeners after it still get the event',
  (name, on, data, given) => {
    const failure = new Error('a listener failed');
    const after = vi.fn();
    const offs = [
      on(() => {
        throw failure;
      }),
      on(after),
    ];
    source.send(name, JSON.stringify(data));
    expect(after).toHaveBeenCalledWith(given);
    expect(logged).toHaveBeenCalledWith('[live]', name, failure);
    offs.forEach((off) => off());
  },
);

test('a malformed event is dropped and logged; the stream goes on with the next one', () => {
  const listener = vi.fn();
  const off = live.onKline(listener);
  expect(() => source.send('kline', '{"forex_id": 1,')).not.toThrow();
  expect(listener).not.toHaveBeenCalled();
  expect(logged).toHaveBeenCalledWith('[live]', 'kline', expect.any(SyntaxError));
  source.send('kline', '{"forex_id": 1}');
  expect(listener).toHaveBeenCalledWith({ forex_id: 1 });
  off();
});
