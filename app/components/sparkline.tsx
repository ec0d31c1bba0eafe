type Trend = 'up' | 'down' | 'flat';

/** A small area chart of recent closes, as SVG: drawn on the server, so it costs the phone no script. */
export function Sparkline({ points, trend }: { points: number[]; trend: Trend }) {
  const [area, line] = paths(points);
  return (
    <svg className={`sparkline ${trend}`} width="72" height="28" viewBox="0 0 72 28" aria-hidden="true">
      {line && (
        <>
          <path d={area} className="sparkline-area" />
          <path d={line} className="sparkline-line" />
        </>
      )}
    </svg>
  );
}

/** Redraws a sparkline the server drew, in place (a tick moves its last point): its class and two `d`s. */
export function drawSparkline(svg: SVGSVGElement, points: number[], trend: Trend) {
  const [area, line] = svg.children;
  const d = paths(points);
  if (!line || !d[1]) return;
  // Each set, even to the same value, costs the phone a style recalculation and a layout of the SVG.
  const set = (e: Element, name: string, value: string) => e.getAttribute(name) !== value && e.setAttribute(name, value);
  set(svg, 'class', `sparkline ${trend}`);
  set(area!, 'd', d[0]!);
  set(line, 'd', d[1]);
}

/** The area's path and the line's (none for fewer than two points), in a 72 × 28 box. */
function paths(points: number[]): string[] {
  if (points.length < 2) return [];
  const line = linePath(points, 72, 28);
  return [`${line}L72,28L0,28Z`, line];
}

/**
 * `M x,y L x,y …` to half a pixel: one loop, no intermediate arrays (it runs for every row on a tick). Finer steps
 * would not show on a 28 px line, and most ticks move the last point by less: they then leave the paths as they
 * were, and the phone skips a style recalculation, a layout and a paint of the line.
 */
function linePath(points: number[], width: number, height: number): string {
  let min = Infinity;
  let max = -Infinity;
  for (const p of points) {
    if (p < min) min = p;
    if (p > max) max = p;
  }
  const scale = (height - 4) / (max - min || 1);
  const step = width / (points.length - 1);
  const half = (v: number) => Math.round(v * 2) / 2;
  let d = '';
  points.forEach((p, i) => (d += `${i ? 'L' : 'M'}${half(i * step)},${half(height - 2 - (p - min) * scale)}`));
  return d;
}

/** Points a sparkline draws: one each 3 px of its 72 is as much as the eye takes in, and half the page's bytes for them. */
export const SPARKLINE_POINTS = 24;

/** At most `n` of the points, evenly spread, with the first and the last (a live close replaces the last). */
export function thinPoints(points: readonly number[], n: number = SPARKLINE_POINTS): number[] {
  if (points.length <= n) return [...points];
  const step = (points.length - 1) / (n - 1);
  return Array.from({ length: n }, (_, i) => points[Math.round(i * step)]!);
}
