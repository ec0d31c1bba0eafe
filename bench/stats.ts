/** Small helpers for printing benchmark figures. */
export function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return NaN;
  const i = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[i]!;
}

export function summary(samples: number[]) {
  const s = [...samples].sort((a, b) => a - b);
  return { n: s.length, median: percentile(s, 50), p99: percentile(s, 99), max: s[s.length - 1] ?? NaN };
}

export function fmt(x: number, digits = 2): string {
  return Number.isFinite(x) ? x.toFixed(digits) : String(x);
}
