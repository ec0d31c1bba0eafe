/** A small area chart of recent closes, as SVG: drawn on the server, so it costs the phone no script. */
export function Sparkline({ points, trend, label }: { points: number[]; trend: 'up' | 'down' | 'flat'; label?: string }) {
  const width = 72;
  const height = 28;
  if (points.length < 2) return <svg className="sparkline" width={width} height={height} aria-hidden="true" />;
  const min = Math.min(...points);
  const max = Math.max(...points);
  const span = max - min || 1;
  const step = width / (points.length - 1);
  const coords = points.map((p, i) => `${(i * step).toFixed(1)},${(height - 2 - ((p - min) / span) * (height - 4)).toFixed(1)}`);
  const line = `M${coords.join('L')}`;
  const area = `${line}L${width},${height}L0,${height}Z`;
  return (
    <svg
      className={`sparkline ${trend}`}
      width={width}
      height={height}
      viewBox={`0 0 ${width} ${height}`}
      role={label ? 'img' : undefined}
      aria-label={label}
      aria-hidden={label ? undefined : true}
    >
      <path d={area} className="sparkline-area" />
      <path d={line} className="sparkline-line" fill="none" />
    </svg>
  );
}
