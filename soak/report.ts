/**
 * The soak's figures: per-minute rows (page and order latency, failures, memory, held streams, faults), the closing
 * table on stdout, the rows as CSV and an SVG chart (latency, RSS, clients; faults marked).
 */
import type { FaultWindow, RequestSample } from './record';

/** A reading taken every few seconds: memory of each process group and the streams held. */
export interface Reading {
  at: number;
  webRss: number;
  upstreamRss: number;
  clientsRss: number;
  /** Σ V8 heap used of the web processes (read every HEAP_EVERY readings), NaN when not read. */
  webHeap: number;
  held: number;
  /**
   * Each process's RSS, its anonymous part, V8 heap in use and committed, and V8's external memory (the last three NaN
   * when not read): the web's primary and workers, the upstream, the stream clients.
   */
  processes: { name: string; pid: number; rss: number; anonymous: number; heap: number; committed: number; external: number }[];
}

export interface MinuteRow {
  minute: number;
  pageP50: number;
  pageP99: number;
  orderP50: number;
  orderP99: number;
  requests: number;
  failed: number;
  failedOutsideFaults: number;
  webRssMb: number;
  upstreamRssMb: number;
  webHeapMb: number;
  held: number;
  faults: string;
}

export function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]!;
}

const mb = (b: number) => Math.round(b / 1024 / 1024);

/** One row per minute of the run (a request counts in the minute it ended; a reading in the minute it was taken). */
export function minuteRows(
  start: number,
  minutes: number,
  requests: readonly RequestSample[],
  outside: ReadonlySet<RequestSample>,
  readings: readonly Reading[],
  faults: readonly FaultWindow[],
): MinuteRow[] {
  const rows: MinuteRow[] = [];
  for (let m = 0; m < minutes; m++) {
    const from = start + m * 60_000;
    const to = from + 60_000;
    const inMinute = requests.filter((r) => r.ended >= from && r.ended < to && !r.abandoned);
    const times = (kind: string) =>
      inMinute
        .filter((r) => !r.failed && (kind === 'page' ? r.kind === 'page' : r.kind === 'order'))
        .map((r) => r.ended - r.started)
        .sort((a, b) => a - b);
    const pages = times('page');
    const orders = times('order');
    const last = [...readings].reverse().find((r) => r.at >= from && r.at < to);
    const lastHeap = [...readings].reverse().find((r) => r.at >= from && r.at < to && !Number.isNaN(r.webHeap));
    rows.push({
      minute: m + 1,
      pageP50: percentile(pages, 50),
      pageP99: percentile(pages, 99),
      orderP50: percentile(orders, 50),
      orderP99: percentile(orders, 99),
      requests: inMinute.length,
      failed: inMinute.filter((r) => r.failed).length,
      failedOutsideFaults: inMinute.filter((r) => outside.has(r)).length,
      webRssMb: last ? mb(last.webRss) : NaN,
      upstreamRssMb: last ? mb(last.upstreamRss) : NaN,
      webHeapMb: lastHeap ? mb(lastHeap.webHeap) : NaN,
      held: last?.held ?? NaN,
      faults: faults
        .filter((f) => f.start >= from && f.start < to)
        .map((f) => f.kind)
        .join(' '),
    });
  }
  return rows;
}

const COLUMNS: [keyof MinuteRow, string][] = [
  ['minute', 'min'],
  ['pageP50', 'page p50 ms'],
  ['pageP99', 'page p99 ms'],
  ['orderP50', 'order p50 ms'],
  ['orderP99', 'order p99 ms'],
  ['requests', 'requests'],
  ['failed', 'failed'],
  ['failedOutsideFaults', 'failed outside faults'],
  ['webRssMb', 'web RSS MB'],
  ['webHeapMb', 'web heap MB'],
  ['upstreamRssMb', 'upstream RSS MB'],
  ['held', 'streams held'],
  ['faults', 'faults'],
];

const cell = (v: number | string) => (typeof v === 'number' ? (Number.isFinite(v) ? String(Math.round(v)) : '–') : v);

export function table(rows: readonly MinuteRow[]): string {
  const head = COLUMNS.map(([, h]) => h);
  const body = rows.map((r) => COLUMNS.map(([k]) => cell(r[k])));
  const widths = head.map((h, i) => Math.max(h.length, ...body.map((b) => b[i]!.length)));
  const line = (cells: string[]) => cells.map((c, i) => c.padStart(widths[i]!)).join('  ');
  return [line(head), ...body.map(line)].join('\n');
}

export function csv(rows: readonly MinuteRow[]): string {
  return [COLUMNS.map(([k]) => k).join(','), ...rows.map((r) => COLUMNS.map(([k]) => cell(r[k])).join(','))].join('\n') + '\n';
}

/** Three stacked panels over the run's minutes: p50/p99 latency, RSS, streams held; a red line at each fault. */
export function svg(rows: readonly MinuteRow[], faults: readonly FaultWindow[], start: number): string {
  const W = 900;
  const PANEL = 160;
  const PAD = 50;
  const minutes = Math.max(1, rows.length);
  const x = (minute: number) => PAD + ((minute - 0.5) / minutes) * (W - 2 * PAD);
  const panels: { title: string; series: { name: string; color: string; values: number[] }[] }[] = [
    {
      title: 'latency, ms',
      series: [
        { name: 'page p50', color: '#7fa7d9', values: rows.map((r) => r.pageP50) },
        { name: 'page p99', color: '#1f5fae', values: rows.map((r) => r.pageP99) },
        { name: 'order p50', color: '#9fd49f', values: rows.map((r) => r.orderP50) },
        { name: 'order p99', color: '#2e8b2e', values: rows.map((r) => r.orderP99) },
      ],
    },
    {
      title: 'RSS, MB',
      series: [
        { name: 'web', color: '#1f5fae', values: rows.map((r) => r.webRssMb) },
        { name: 'upstream', color: '#b0641f', values: rows.map((r) => r.upstreamRssMb) },
      ],
    },
    { title: 'stream clients held', series: [{ name: 'held', color: '#6a3d9a', values: rows.map((r) => r.held) }] },
  ];
  const parts: string[] = [];
  panels.forEach((panel, i) => {
    const top = 20 + i * (PANEL + 40);
    const all = panel.series.flatMap((s) => s.values).filter(Number.isFinite);
    const max = Math.max(1, ...all) * 1.1;
    const y = (v: number) => top + PANEL - (v / max) * PANEL;
    parts.push(`<text x="${PAD}" y="${top - 5}" font-size="12">${panel.title} (max ${Math.round(max / 1.1)})</text>`);
    parts.push(`<rect x="${PAD}" y="${top}" width="${W - 2 * PAD}" height="${PANEL}" fill="none" stroke="#ccc"/>`);
    panel.series.forEach((s, k) => {
      const points = s.values.map((v, m) => (Number.isFinite(v) ? `${x(m + 1).toFixed(1)},${y(v).toFixed(1)}` : null)).filter(Boolean);
      parts.push(`<polyline fill="none" stroke="${s.color}" stroke-width="2" points="${points.join(' ')}"/>`);
      parts.push(`<text x="${W - PAD - 110}" y="${top + 14 + k * 14}" font-size="11" fill="${s.color}">${s.name}</text>`);
    });
    for (const f of faults) {
      const fx = PAD + ((f.start - start) / 60_000 / minutes) * (W - 2 * PAD);
      parts.push(
        `<line x1="${fx.toFixed(1)}" x2="${fx.toFixed(1)}" y1="${top}" y2="${top + PANEL}" stroke="#d62728" stroke-dasharray="4 3"/>`,
      );
      if (i === 0) parts.push(`<text x="${(fx + 3).toFixed(1)}" y="${top + PANEL - 4}" font-size="10" fill="#d62728">${f.kind}</text>`);
    }
  });
  const height = 20 + panels.length * (PANEL + 40);
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${height}" font-family="sans-serif">\n${parts.join('\n')}\n</svg>\n`;
}
