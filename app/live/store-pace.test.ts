/**
 * The pace of the live store's frames of prices: a device whose frames cost much draws fewer of them, so that live
 * prices leave most of its main thread to the trader's taps; a fast one draws every round. The browser's EventSource,
 * window, animation frames and clock are stand-ins: each frame costs what the test says.
 */
import { afterAll, beforeEach, expect, test, vi } from 'vitest';
import { STREAM_SILENT_MS, STREAM_VERSION } from '#contract/stream';
import { TestEventSource } from './test-event-source';

let now = 0;
const timers: { run: () => void; ms: number | undefined }[] = [];
vi.stubGlobal('EventSource', TestEventSource);
vi.stubGlobal('window', {
  addEventListener() {},
  dispatchEvent() {},
  setTimeout: (run: () => void, ms?: number) => timers.push({ run, ms }),
});
vi.stubGlobal('requestAnimationFrame', (draw: (time: number) => void) => (draw(now), 1));
vi.stubGlobal('document', { addEventListener() {}, visibilityState: 'visible' });
vi.spyOn(performance, 'now').mockImplementation(() => now);
afterAll(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

/** Takes the first timer the store set that matches. */
function take(which: (ms: number | undefined) => boolean) {
  const index = timers.findIndex((t) => which(t.ms));
  expect(index).toBeGreaterThanOrEqual(0);
  return timers.splice(index, 1)[0]!;
}

let stream: TestEventSource;
beforeEach(() => {
  now = 1_000;
  timers.length = 0;
});

/** A fresh store (its measure of the device starts anew), on a page with this pace, its stream up. */
async function openPage(pace?: number) {
  vi.resetModules();
  const live = (await import('./store')).live!;
  live.retain({ code: 'EURUSD', period: '1', pace });
  stream = TestEventSource.last!;
  stream.send('status', JSON.stringify({ state: 'up', version: STREAM_VERSION }));
  return live;
}

/**
 * A round of prices comes, and the frame that draws it costs the main thread `cost` ms (measured by the store from
 * its timer to a task after the frame). Returns how long after the last frame's start this one started.
 */
let lastStart = 0;
function round(cost: number) {
  stream.send('quotes', JSON.stringify([{ instrumentId: 1, price: now }]));
  const frame = take((ms) => ms !== STREAM_SILENT_MS && ms !== undefined);
  now += Math.max(0, frame.ms!);
  const since = now - lastStart;
  lastStart = now;
  frame.run();
  now += cost;
  take((ms) => ms === undefined).run();
  return since;
}

/** The time between two frames' starts once the store has measured the device (each frame sets the next one's wait). */
function settledInterval(cost: number) {
  round(cost);
  return round(cost);
}

test('a fast device draws every round: its frames come as soon as prices do', async () => {
  await openPage();
  // A frame of 4 ms: the next may start 16 ms after it began, long before the upstream's next round (300 ms).
  expect(settledInterval(4)).toBeCloseTo(16, 0);
});

test('a slow phone draws fewer frames: those of prices take a quarter of its main thread', async () => {
  await openPage();
  // A frame of 150 ms (a low-tier phone's on the trade screen): one every 600 ms.
  expect(settledInterval(150)).toBeCloseTo(600, 0);
});

test('however slow the phone, prices are drawn at least once a second', async () => {
  await openPage();
  expect(settledInterval(400)).toBeCloseTo(1_000, 0);
});

test('a page with a pace of its own keeps it where the device is faster', async () => {
  // The market list draws twice a second at most.
  await openPage(500);
  expect(settledInterval(20)).toBeCloseTo(500, 0);
  expect(settledInterval(200)).toBeCloseTo(800, 0);
});

test('the measure follows the device: a phone that turns fast again soon draws every round again', async () => {
  await openPage();
  settledInterval(200);
  expect(settledInterval(4)).toBeCloseTo(16, 0);
});
