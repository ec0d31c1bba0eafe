/** For the live store's tests: an EventSource whose events the test sends (the store opens one per stream). */
export class TestEventSource {
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
