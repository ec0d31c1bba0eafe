/**
 * What one round of prices costs the main thread of `/trade` on the low-tier phone (issue 40: all six indicators
 * on add ≤ 1 ms a tick): Chromium throttled to the phone's rate, the main thread's task time (CDP `TaskDuration`)
 * over a window divided by the stream events the page received in it. The page without indicators and with all six
 * are measured in turn, three times each, so the host's noise falls on both.
 */
import type { Page } from '@playwright/test';
import os from 'node:os';
import { fmt } from './stats';

const WINDOW_MS = 15_000;
const ROUNDS = 3;
/** All six kinds, one line each of the averages (the sheet's tokens: routes/trade/indicator-fields.ts). */
export const SIX_INDICATORS = 'ma20-ema12-boll-macd-rsi-kdj';

/** Counts the stream's events as the page's listeners get them (an event with two listeners counts once). */
export const COUNT_STREAM_EVENTS = `
window.__streamEvents = 0;
{
  const add = EventSource.prototype.addEventListener;
  const seen = new WeakSet();
  EventSource.prototype.addEventListener = function (type, listener, options) {
    const counted = function (event) {
      if (!seen.has(event)) { seen.add(event); window.__streamEvents++; }
      return typeof listener === 'function' ? listener.call(this, event) : listener.handleEvent(event);
    };
    return add.call(this, type, counted, options);
  };
}`;

interface Opened {
  page: Page;
  close: () => Promise<void>;
}

/** Main-thread ms per stream event over one window on an opened, settled page. */
async function msPerEvent({ page }: Opened): Promise<{ ms: number; events: number }> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Performance.enable');
  const sample = async () => {
    const { metrics } = await cdp.send('Performance.getMetrics');
    const task = metrics.find((m) => m.name === 'TaskDuration')!.value;
    return { task, events: await page.evaluate(() => (window as unknown as { __streamEvents: number }).__streamEvents) };
  };
  const start = await sample();
  await page.waitForTimeout(WINDOW_MS);
  const end = await sample();
  const events = end.events - start.events;
  return { ms: events ? ((end.task - start.task) * 1000) / events : NaN, events };
}

export async function tickCostBenchmarks(options: {
  origin: string;
  cpu: number;
  mark: string;
  /** A page throttled to the phone (with COUNT_STREAM_EVENTS installed), loaded and settled. */
  open: (url: string) => Promise<Opened>;
}): Promise<string[]> {
  const { origin, cpu, mark, open } = options;
  const plain = `${origin}/trade?code=EURUSD`;
  const six = `${plain}&ind=${SIX_INDICATORS}`;
  const runs: Record<'plain' | 'six', number[]> = { plain: [], six: [] };
  let events = 0;
  for (let round = 0; round < ROUNDS; round++) {
    for (const which of round % 2 ? (['six', 'plain'] as const) : (['plain', 'six'] as const)) {
      const opened = await open(which === 'six' ? six : plain);
      try {
        const measured = await msPerEvent(opened);
        runs[which].push(measured.ms);
        events += measured.events;
      } finally {
        await opened.close();
      }
    }
  }
  const median = (v: number[]) => [...v].sort((a, b) => a - b)[Math.floor(v.length / 2)]!;
  const spread = (v: number[]) => Math.max(...v) - Math.min(...v);
  const added = median(runs.six) - median(runs.plain);
  // A difference inside the windows' own spread is noise: no verdict on it (decision 0044). Nor on one below zero:
  // indicators cannot make a tick cheaper, so the page's own swings between windows outweighed them.
  const separable = Math.abs(added) > Math.max(spread(runs.plain), spread(runs.six));
  const verdict = !separable
    ? "within the windows' spread: not separable"
    : added < 0
      ? 'cheaper with them, so noise: not separable'
      : added <= 1
        ? 'met'
        : 'NOT met';
  return [
    `tick cost /trade (low-tier phone: ${cpu}× CPU, load ${fmt(os.loadavg()[0]!, 2)}; ${events} stream events in ${ROUNDS * 2} windows of ${WINDOW_MS / 1000} s): ` +
      `${fmt(median(runs.plain), 1)} ms of main thread per event without indicators (${runs.plain.map((v) => fmt(v, 1)).join(', ')}), ` +
      `${fmt(median(runs.six), 1)} ms with all six (${runs.six.map((v) => fmt(v, 1)).join(', ')}): ` +
      `the indicators add ${fmt(added, 2)} ms (goal ≤ 1 ms: ${verdict})${mark}`,
  ];
}
