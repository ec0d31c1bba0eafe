/**
 * A phone on a slow link, for real (issue 12): a proxy in front of the app that gives every connection of the
 * browser one shared link of 150 ms round trip, 1.6 Mbit/s down and 750 kbit/s up, and splits it fairly between
 * the connections in flight (segment by segment, as TCP flows sharing a bottleneck roughly do). DevTools'
 * throttling cannot show this: it slows each request on its own, so a script downloading beside the stylesheet
 * never delays it. Lighthouse's simulation models the sharing but starts from the unthrottled run's order of
 * events. Here the browser's own scheduler meets a real shared link; the figures are what Chromium measures:
 * first and largest contentful paint, and when the page is hydrated (live prices start from then). No slow start
 * is modelled, and connection set-up costs one round trip.
 */
import { chromium } from '@playwright/test';
import net from 'node:net';
import { CHROMIUM, CHROMIUM_FLAGS } from '../tests/chromium';
import { fmt, summary } from './stats';

const SEGMENT = 1460;

interface Link {
  send(to: net.Socket, data: Buffer): void;
  idle(to: net.Socket): boolean;
  drop(to: net.Socket): void;
}

/** One direction of the link: queued segments leave one per connection in turn, at the link's rate, and arrive half a round trip later. */
function link(kbps: number, oneWayMs: number): Link {
  const bytesPerMs = kbps / 8;
  const queues = new Map<net.Socket, Buffer[]>();
  let busy = false;
  function pump() {
    if (busy) return;
    const turn: [net.Socket, Buffer][] = [];
    for (const [socket, queue] of queues) if (queue.length) turn.push([socket, queue.shift()!]);
    if (!turn.length) return;
    busy = true;
    const bytes = turn.reduce((n, [, segment]) => n + segment.length, 0);
    setTimeout(() => {
      busy = false;
      for (const [socket, segment] of turn) setTimeout(() => socket.destroyed || socket.write(segment), oneWayMs);
      pump();
    }, bytes / bytesPerMs);
  }
  return {
    send(to, data) {
      let queue = queues.get(to);
      if (!queue) queues.set(to, (queue = []));
      for (let i = 0; i < data.length; i += SEGMENT) queue.push(data.subarray(i, i + SEGMENT));
      pump();
    },
    idle: (to) => !queues.get(to)?.length,
    drop: (to) => void queues.delete(to),
  };
}

export function sharedLinkProxy(targetPort: number, { rttMs = 150, downKbps = 1600, upKbps = 750 } = {}) {
  const down = link(downKbps, rttMs / 2);
  const up = link(upKbps, rttMs / 2);
  const server = net.createServer((client) => {
    const origin = net.connect(targetPort, '127.0.0.1');
    const early: Buffer[] = [];
    let open = false;
    // The handshake: one round trip before the first request leaves.
    setTimeout(() => {
      open = true;
      for (const b of early) up.send(origin, b);
    }, rttMs);
    client.on('data', (b: Buffer) => (open ? up.send(origin, b) : early.push(b)));
    origin.on('data', (b: Buffer) => down.send(client, b));
    const close = () => {
      client.destroy();
      origin.destroy();
      down.drop(client);
      up.drop(origin);
    };
    client.on('close', close).on('error', close);
    origin.on('error', close).on('close', () => {
      // What the server sent before closing is still on the link.
      const wait = setInterval(() => down.idle(client) && (clearInterval(wait), setTimeout(close, rttMs)), 20);
    });
  });
  return new Promise<{ port: number; close: () => void }>((resolve) =>
    server.listen(0, '127.0.0.1', () => resolve({ port: (server.address() as net.AddressInfo).port, close: () => server.close() })),
  );
}

/** Records the paints and the moment the page says it is hydrated (html[data-hydrated]), as the page sees them. */
const WATCH = () => {
  const w = window as unknown as { __link: { lcp: number; hydrated: number } };
  w.__link = { lcp: NaN, hydrated: NaN };
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) w.__link.lcp = e.startTime;
  }).observe({ type: 'largest-contentful-paint', buffered: true });
  const poll = setInterval(() => {
    if (document.documentElement?.dataset.hydrated) {
      w.__link.hydrated = performance.now();
      clearInterval(poll);
    }
  }, 10);
};

const LOADS = 5;

/** First visits of each page through the shared link with the CPU slowed 4×: medians of five loads. */
export async function sharedLinkBenchmarks(appPort: number, pages: string[]): Promise<string[]> {
  const proxy = await sharedLinkProxy(appPort);
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: [...CHROMIUM_FLAGS, '--headless=new'] });
  const lines: string[] = [];
  try {
    for (const path of pages) {
      const runs: { fcp: number; lcp: number; hydrated: number }[] = [];
      for (let i = 0; i < LOADS; i++) {
        const context = await browser.newContext({ viewport: { width: 412, height: 823 }, isMobile: true, locale: 'en-US' });
        const page = await context.newPage();
        const cdp = await context.newCDPSession(page);
        await cdp.send('Emulation.setCPUThrottlingRate', { rate: 4 });
        await page.addInitScript(WATCH);
        await page.goto(`http://localhost:${proxy.port}${path}`, { waitUntil: 'load', timeout: 60_000 });
        await page.waitForFunction(() => !Number.isNaN((window as unknown as { __link: { hydrated: number } }).__link.hydrated), null, {
          timeout: 60_000,
        });
        runs.push(
          await page.evaluate(() => {
            const w = window as unknown as { __link: { lcp: number; hydrated: number } };
            const fcp = performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? NaN;
            return { fcp, lcp: w.__link.lcp, hydrated: w.__link.hydrated };
          }),
        );
        await context.close();
      }
      const s = (k: 'fcp' | 'lcp' | 'hydrated') => fmt(summary(runs.map((r) => r[k])).median / 1000, 2);
      lines.push(
        `shared slow link ${path}: first paint ${s('fcp')} s, LCP ${s('lcp')} s, hydrated ${s('hydrated')} s ` +
          `(medians of ${LOADS} first visits; 150 ms RTT, 1.6 Mbit/s shared, 4× CPU; LCPs ${runs.map((r) => fmt(r.lcp / 1000, 2)).join(' ')})`,
      );
    }
  } finally {
    await browser.close();
    proxy.close();
  }
  return lines;
}
