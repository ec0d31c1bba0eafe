/** The phone bench's calibration rules (bench/phone-calibration.ts): the slowdown, the median run, the wait for a quiet host. */
import { describe, expect, test } from 'vitest';
import { cpuMultiplier, loadMark, loadWaitDecision, LOW_TIER, medianRun, MID_TIER, waitForQuietHost } from './phone-calibration';

describe('the CPU slowdown from the host’s benchmark index', () => {
  test('host index ÷ the phone’s index', () => {
    expect(cpuMultiplier(2500, MID_TIER)).toBe(2.5);
    expect(cpuMultiplier(2500, LOW_TIER)).toBe(9.47);
    expect(cpuMultiplier(3960, LOW_TIER)).toBe(15);
  });
  test('a host slower than the phone is not sped up', () => {
    expect(cpuMultiplier(800, MID_TIER)).toBe(1);
    expect(cpuMultiplier(200, LOW_TIER)).toBe(1);
  });
  test('no index is an error, not a slowdown of NaN', () => {
    expect(() => cpuMultiplier(NaN, MID_TIER)).toThrow(/benchmark index/);
    expect(() => cpuMultiplier(0, LOW_TIER)).toThrow(/benchmark index/);
  });
});

test('the median run is Lighthouse’s: nearest the median FCP and TTI, not the median score', () => {
  const run = (name: string, fcp: number, tti: number, score: number) => ({
    name,
    lhr: {
      audits: { 'first-contentful-paint': { numericValue: fcp }, interactive: { numericValue: tti } },
      categories: { performance: { score } },
    } as unknown as Parameters<typeof medianRun>[0][number]['lhr'],
  });
  const runs = [
    run('a', 900, 3000, 0.99),
    run('b', 1000, 3200, 0.5),
    run('c', 1100, 3400, 0.95),
    run('d', 2000, 9000, 0.97),
    run('e', 950, 3100, 0.98),
  ];
  expect(medianRun(runs).name).toBe('b'); // median FCP 1,000 ms and TTI 3,200 ms, whatever its score
  expect(medianRun([runs[3]!]).name).toBe('d');
  expect(() => medianRun([])).toThrow();
});

describe('waiting for a quiet host', () => {
  test('measures at once below a load of 1.0', () => {
    expect(loadWaitDecision(0.4, 0)).toEqual({ action: 'measure', quiet: true });
  });
  test('looks again every 5 s, and after two minutes measures anyway, marked', () => {
    expect(loadWaitDecision(2.3, 0)).toEqual({ action: 'wait', forMs: 5000 });
    expect(loadWaitDecision(1.0, 118_000)).toEqual({ action: 'wait', forMs: 2000 });
    expect(loadWaitDecision(2.3, 120_000)).toEqual({ action: 'measure', quiet: false });
  });
  test('the wait ends when the load falls; the figures are marked only when it did not', async () => {
    const loads = [3, 2, 1.2, 0.9];
    const slept: number[] = [];
    const falling = await waitForQuietHost(
      () => loads.shift()!,
      async (ms) => void slept.push(ms),
    );
    expect(falling).toEqual({ quiet: true, load1: 0.9, waitedMs: 15_000 });
    expect(loadMark(falling)).toBe('');
    const busy = await waitForQuietHost(
      () => 2.5,
      async () => {},
    );
    expect(busy).toEqual({ quiet: false, load1: 2.5, waitedMs: 120_000 });
    expect(loadMark(busy)).toMatch(/host busy: 1-min load 2\.50/);
  });
});
