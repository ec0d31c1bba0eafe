/**
 * The phone benchmark (issues 12 and 39): Lighthouse 12's mobile preset (simulated slow 4G) with the CPU slowed to
 * a mid-tier and a low-tier phone, calibrated to this host's benchmark index (phone-calibration.ts), on `/`,
 * `/trade`, `/login` as a first visit, then on `/order` and `/mine` signed in to a demo account with five open
 * positions, opened in the same Chromium the way a visitor does it; taps on the low-tier phone (interactions.ts);
 * first visits through a shared slow link, as Chromium measures them (shared-link.ts); and the steady state with
 * live prices (steady-state.ts). All against the built app with its embedded upstream on a fresh data folder.
 * The machine's load shows in Lighthouse's figures: simulated throttling scales the tasks it observed, so the bench
 * first waits for a quiet host and marks its figures when it was not.
 */
import { chromium } from '@playwright/test';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import lighthouse from 'lighthouse';
import { throttling } from 'lighthouse/core/config/constants.js';
import { buildDirectory } from '../server/build-directory';
import { connectCdp, freePort, launchChromium, type Cdp } from './browser';
import { interactionBenchmarks } from './interactions';
import { openDemoWithPositions } from './phone-account';
import { cpuMultiplier, DEVICES, LOW_TIER, loadMark, medianRun, waitForQuietHost, type Device } from './phone-calibration';
import { fmt } from './stats';
import { sharedLinkBenchmarks } from './shared-link';
import { steadyStateBenchmarks } from './steady-state';
import { startServer } from './server';

type LhResult = NonNullable<Awaited<ReturnType<typeof lighthouse>>>['lhr'];

// Five runs, as Lighthouse's guide to variability advises (docs/variability.md): a median of five is about twice as
// stable as one run, where three still let one slow moment of this shared machine decide a page's verdict.
const RUNS = Number(process.env.BENCH_LIGHTHOUSE_RUNS ?? 5);
const POSITIONS = 5;
const verdict = (ok: boolean) => (ok ? 'met' : 'NOT met');

interface Figures {
  /** The run's whole result, for Lighthouse's median-run choice. */
  lhr: LhResult;
  score: number;
  tbt: number;
  lcp: number;
  cls: number;
  benchmarkIndex: number;
  warnings: string[];
  breakdown: { label: string; ms: number }[];
  bootup: { url: string; ms: number; scripting: number }[];
  lcpElement: string;
  longTasks: { url: string; ms: number; at: number }[];
}

/**
 * One Lighthouse run; `cpu` the CPU slowdown (Lighthouse's own 4× when not given). `noScript`: the page's floor,
 * its HTML and CSS with every script file blocked (the inline data script still runs; nothing hydrates).
 */
async function audit(port: number, url: string, signedIn: boolean, cpu?: number, noScript = false): Promise<Figures> {
  const result = await lighthouse(url, {
    port,
    output: 'json',
    logLevel: 'error',
    onlyCategories: ['performance'],
    disableStorageReset: signedIn,
    ...(cpu === undefined ? {} : { throttling: { ...throttling.mobileSlow4G, cpuSlowdownMultiplier: cpu } }),
    ...(noScript ? { blockedUrlPatterns: ['*.js'] } : {}),
  });
  if (!result) throw new Error(`lighthouse gave no result for ${url}`);
  const { lhr } = result;
  if (lhr.runtimeError) throw new Error(`lighthouse on ${url}: ${lhr.runtimeError.message}`);
  const value = (id: string) => lhr.audits[id]?.numericValue ?? NaN;
  type Items<T> = { details?: { items?: T[] } } | undefined;
  const breakdown = (
    (lhr.audits['mainthread-work-breakdown'] as Items<{ groupLabel: string; duration: number }>)?.details?.items ?? []
  ).map((i) => ({ label: i.groupLabel, ms: i.duration }));
  const bootup = ((lhr.audits['bootup-time'] as Items<{ url: string; total: number; scripting: number }>)?.details?.items ?? []).map(
    (i) => ({
      url: i.url,
      ms: i.total,
      scripting: i.scripting,
    }),
  );
  const lcpTables = (
    lhr.audits['largest-contentful-paint-element'] as Items<{ items?: { node?: { snippet?: string }; phase?: string; timing?: number }[] }>
  )?.details?.items;
  const lcpItem = lcpTables?.[0]?.items?.[0];
  // Where the LCP's time goes: time to first byte, resource load delay and time, render delay.
  const lcpPhases = (lcpTables?.[1]?.items ?? []).map((i) => `${i.phase} ${fmt(i.timing ?? NaN, 0)} ms`).join(', ');
  const longTasks = ((lhr.audits['long-tasks'] as Items<{ url: string; duration: number; startTime: number }>)?.details?.items ?? []).map(
    (i) => ({ url: i.url, ms: i.duration, at: i.startTime }),
  );
  return {
    lhr,
    longTasks,
    lcpElement: `${lcpItem?.node?.snippet ?? '?'}${lcpPhases ? ` (${lcpPhases})` : ''}`,
    score: (lhr.categories.performance?.score ?? NaN) * 100,
    tbt: value('total-blocking-time'),
    lcp: value('largest-contentful-paint'),
    cls: value('cumulative-layout-shift'),
    benchmarkIndex: lhr.environment.benchmarkIndex,
    warnings: lhr.runWarnings,
    breakdown,
    bootup,
  };
}

/** Lighthouse keeps the HTTP cache when told not to reset storage (signed-in runs): empty it, keep the cookies. */
async function clearHttpCache(cdp: Cdp) {
  const { targetId } = await cdp.send('Target.createTarget', { url: 'about:blank', newWindow: false });
  const { sessionId } = await cdp.send('Target.attachToTarget', { targetId, flatten: true });
  await cdp.send('Network.enable', {}, sessionId);
  await cdp.send('Network.clearBrowserCache', {}, sessionId);
  await cdp.send('Target.closeTarget', { targetId });
}

/** Lighthouse sometimes misses the navigation start in its trace on a loaded machine and asks to run again. */
async function auditOnce(port: number, url: string, signedIn: boolean, cpu?: number, noScript = false): Promise<Figures> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await audit(port, url, signedIn, cpu, noScript);
    } catch (error) {
      if (attempt >= 3 || !String(error).includes('NO_NAVSTART')) throw error;
    }
  }
}

interface Phone {
  device: Device;
  /** The CPU slowdown that makes this host that phone. */
  cpu: number;
}

async function lighthouseOf(
  port: number,
  cdp: Cdp,
  origin: string,
  page: string,
  signedIn: boolean,
  { device, cpu }: Phone,
  diagnostics: boolean,
  mark: string,
): Promise<string[]> {
  const runs: Figures[] = [];
  for (let i = 0; i < RUNS; i++) {
    if (signedIn) await clearHttpCache(cdp);
    runs.push(await auditOnce(port, origin + page, signedIn, cpu));
  }
  // Lighthouse's median run (the run nearest the median FCP and the median TTI, so that no single metric's outlier
  // picks it): its score, TBT, LCP and CLS are the verdict (LCP to the millisecond: a median run at 2,504 ms is not
  // met), with every run's score, TBT and LCP beside them.
  const m = medianRun(runs);
  const g = device.goals;
  const lines = [
    `lighthouse ${page}${signedIn ? ' (signed in)' : ''} on a ${device.name} (${cpu}× CPU, slow 4G, load ${fmt(os.loadavg()[0]!, 2)}): ` +
      `performance ${fmt(m.score, 0)} (goal ≥ ${g.score}: ${verdict(m.score >= g.score)}), ` +
      `TBT ${fmt(m.tbt, 0)} ms (goal ≤ ${g.tbtMs} ms: ${verdict(m.tbt <= g.tbtMs)}), LCP ${fmt(m.lcp / 1000, 3)} s (goal ≤ ${g.lcpMs / 1000} s: ${verdict(m.lcp <= g.lcpMs)}), ` +
      `CLS ${fmt(m.cls, 3)} (goal ≤ ${g.cls}: ${verdict(m.cls <= g.cls)}); Lighthouse's median of ${runs.length} runs (run ${runs.indexOf(m) + 1}); every run's score ${runs.map((r) => fmt(r.score, 0)).join(' ')}, TBT ${runs.map((r) => fmt(r.tbt, 0)).join(' ')} ms, LCP ${runs.map((r) => fmt(r.lcp / 1000, 2)).join(' ')} s, ` +
      `Lighthouse's CPU benchmark index ${runs.map((r) => fmt(r.benchmarkIndex, 0)).join(' ')}${mark}`,
  ];
  for (const w of new Set(runs.flatMap((r) => r.warnings))) lines.push(`  warning: ${w}`);
  const met = m.score >= g.score && m.tbt <= g.tbtMs && m.lcp <= g.lcpMs && m.cls <= g.cls;
  if (diagnostics && !met) {
    // A goal not met: the floor is the same page with no script at all at the same rate (issue 39), run as often.
    const floors: Figures[] = [];
    for (let i = 0; i < RUNS; i++) {
      if (signedIn) await clearHttpCache(cdp);
      floors.push(await auditOnce(port, origin + page, signedIn, cpu, true));
    }
    const f = medianRun(floors);
    // A goal the page with no script misses is out of any script's reach at this rate on this box: said in the line.
    const beyond = [
      f.score < g.score && `performance ≥ ${g.score}`,
      f.tbt > g.tbtMs && `TBT ≤ ${g.tbtMs} ms`,
      f.lcp > g.lcpMs && `LCP ≤ ${g.lcpMs / 1000} s`,
      f.cls > g.cls && `CLS ≤ ${g.cls}`,
    ].filter(Boolean);
    lines.push(
      `  floor (no script, same phone): performance ${fmt(f.score, 0)}, TBT ${fmt(f.tbt, 0)} ms, LCP ${fmt(f.lcp / 1000, 3)} s, ` +
        `CLS ${fmt(f.cls, 3)}; the page is ${fmt(f.score - m.score, 0)} points, ${fmt(m.tbt - f.tbt, 0)} ms of TBT and ` +
        `${fmt((m.lcp - f.lcp) / 1000, 3)} s of LCP above it (median of ${floors.length}); ` +
        (beyond.length ? `the floor itself misses ${beyond.join(', ')}: no script can meet that here` : 'the floor meets every goal'),
    );
  }
  if (diagnostics) {
    lines.push(`  LCP element: ${m.lcpElement.slice(0, 120)}`);
    lines.push(
      `  long tasks: ${m.longTasks.map((l) => `${l.url.replace(origin, '')} ${fmt(l.ms, 0)} ms at ${fmt(l.at, 0)} ms`).join(', ') || 'none'}`,
    );
    lines.push(`  main-thread work: ${m.breakdown.map((b) => `${b.label} ${fmt(b.ms, 0)} ms`).join(', ')}`);
    lines.push(
      `  bootup time: ${m.bootup
        .slice(0, 5)
        .map((b) => `${b.url.replace(origin, '')} ${fmt(b.ms, 0)} ms (script ${fmt(b.scripting, 0)})`)
        .join(', ')}`,
    );
  }
  return lines;
}

/** The demo account with positions in the bench's own Chromium (its cookie jar is Lighthouse's). */
async function signInOverCdp(cdpPort: number, origin: string, positions: number) {
  const browser = await chromium.connectOverCDP(`http://127.0.0.1:${cdpPort}`);
  try {
    const page = await browser.contexts()[0]!.newPage();
    await openDemoWithPositions(page, origin, positions);
    await page.close();
  } finally {
    await browser.close(); // disconnects; the pages' visibility is real again
  }
}

async function admin(dataDir: string, urlPath: string, body: Record<string, unknown>) {
  const base = fs.readFileSync(path.join(dataDir, 'upstream.url'), 'utf8').trim();
  const key = fs.readFileSync(path.join(dataDir, 'admin.key'), 'utf8').trim();
  const res = await fetch(new URL(urlPath, base), {
    method: 'POST',
    headers: { 'x-admin-key': key, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  if (!res.ok) throw new Error(`admin ${urlPath}: HTTP ${res.status} ${await res.text()}`);
}

/**
 * `BENCH_PHONE_ONLY=/order,steady,link` runs only those pages (a page's Lighthouse runs and its taps; `inp` all the
 * taps alone, `steady` the steady-state runs, `link` the shared slow link), while working on one.
 */
const only = process.env.BENCH_PHONE_ONLY?.split(',');
const wanted = (page: string) => !only || only.includes(page);

export async function phoneBenchmarks(): Promise<string[]> {
  const build = buildDirectory(process.env.BUILD_DIR);
  if (!fs.existsSync(path.resolve(build, 'server-bin/index.js'))) return [`phone: no ${build}/ (run npm run build first)`];
  const lines: string[] = [];
  // A port the system says is free now (a fixed range met a port still held after the fan-out bench's 20,000 sockets).
  const port = await freePort();
  const origin = `http://localhost:${port}`; // __Host- cookies need https or localhost
  const web = await startServer(port, os.availableParallelism());
  // Without Chromium (not installed) the server must not outlive the bench: it holds the caller's pipes open.
  const browser = await launchChromium().catch(async (error: unknown) => {
    await web.stop();
    throw error;
  });
  const cdp = await connectCdp(browser.port);
  try {
    await admin(web.dataDir, '/admin/market', { code: 'EURUSD', status: 'open' });
    await admin(web.dataDir, '/admin/setting', { key: 'demos_per_ip_per_hour', value: '100000' });
    // After the build, the host quiets down before anything is measured; then Lighthouse's benchmark index of it.
    const host = await waitForQuietHost(() => os.loadavg()[0]!);
    const mark = loadMark(host);
    const hostIndex = (await auditOnce(browser.port, `${origin}/`, false)).benchmarkIndex;
    const phones: Phone[] = DEVICES.map((device) => ({ device, cpu: cpuMultiplier(hostIndex, device) }));
    const loads = os
      .loadavg()
      .map((l) => fmt(l, 2))
      .join(' ');
    lines.push(
      `phone: host benchmark index ${fmt(hostIndex, 0)} (Lighthouse's warm-up run): ` +
        phones
          .map(
            (p) =>
              `${p.device.name} (index ${p.device.benchmarkIndex}) = ${p.cpu}× CPU` +
              (hostIndex < p.device.benchmarkIndex ? ' (this host is slower than that phone: its figures flatter the phone)' : ''),
          )
          .join(', ') +
        `; load average ${loads} after waiting ${host.waitedMs / 1000} s for the 1-minute figure to fall below 1.0 ` +
        `(${host.quiet ? 'it did' : 'it did NOT: figures inflated'})`,
    );
    const low = phones.find((p) => p.device === LOW_TIER)!;
    const lighthouseOfPage = async (page: string, signedIn: boolean) => {
      // Diagnostics (LCP element, long tasks, main-thread work) for the low-tier phone, where they matter.
      for (const phone of phones)
        lines.push(...(await lighthouseOf(browser.port, cdp, origin, page, signedIn, phone, phone === low, mark)));
    };
    for (const page of ['/', '/trade?code=EURUSD', '/login'].filter(wanted)) await lighthouseOfPage(page, false);
    if (['/', '/trade?code=EURUSD', '/order', 'tick'].some((p) => wanted(p) || wanted('inp')))
      lines.push(...(await interactionBenchmarks({ origin, cpu: low.cpu, wanted: (p) => wanted(p) || wanted('inp'), mark })));
    // What Chromium itself measures on a real shared slow link, beside Lighthouse's simulation of one.
    const linked = ['/', '/trade?code=EURUSD', '/login'].filter((p) => wanted(`link:${p}`) || wanted('link'));
    if (linked.length) lines.push(...(await sharedLinkBenchmarks(port, linked)));
    if (wanted('steady')) lines.push(...(await steadyStateBenchmarks(cdp, origin)));
    const signedIn = ['/order', '/mine'].filter(wanted);
    if (signedIn.length) await signInOverCdp(browser.port, origin, POSITIONS);
    for (const page of signedIn) await lighthouseOfPage(page, true);
  } finally {
    cdp.close();
    await browser.stop();
    await web.stop();
  }
  return lines;
}
