/**
 * The indicators on the server's SVG: MA, EMA and Bollinger lines over the candles, and a pane under them per
 * oscillator (MACD, RSI with its 30/70 guides, KDJ). The values come computed (`DrawnIndicator`, from
 * indicators.ts on the server): this file, in the trade screen's first-load script, computes nothing.
 */
import { formatInteger } from '~/utils/format';
import { type DrawnIndicator, type Indicator, isOverlay, LINES, RSI_GUIDES } from './indicator-kinds';

/** The height each oscillator's pane adds under the price. */
export const PANE_HEIGHT = 60;
const PANE_TITLE = 14;
const PANE_FOOT = 4;

const round = (n: number) => Math.round(n * 10) / 10;

/** Values of each line at the shown candles (the last `shown` of `candles`), null where the indicator has none. */
export function valuesAtShown(drawn: DrawnIndicator, candleTimes: readonly number[], shown: number): (number | null)[][] {
  const at = candleTimes.lastIndexOf(drawn.from);
  const first = candleTimes.length - shown;
  return drawn.lines.map((line) => Array.from({ length: shown }, (_, k) => (at < 0 ? null : (line[first + k - at] ?? null))));
}

/** A line through the values that have one: a gap (no value) lifts the pen. */
export function linePath(xs: readonly number[], values: readonly (number | null)[], y: (v: number) => number): string {
  let d = '';
  let pen = false;
  values.forEach((v, k) => {
    if (v === null) {
      pen = false;
      return;
    }
    d += `${pen ? 'L' : 'M'}${xs[k]} ${y(v)}`;
    pen = true;
  });
  return d;
}

/** The class naming an indicator's line for its colour (chart.css): MA and EMA numbered in the order chosen. */
function lineClass(indicator: Indicator, line: string, nth: number): string {
  return indicator.kind === 'ma' || indicator.kind === 'ema'
    ? `indicator ${indicator.kind} n${nth}`
    : `indicator ${indicator.kind} ${line}`;
}

export interface ShownIndicator {
  drawn: DrawnIndicator;
  /** One array per line, one value per shown candle. */
  values: (number | null)[][];
  /** Its place among the chosen of its kind (MA and EMA have up to three lines), from 1. */
  nth: number;
}

/** The chosen indicators with their values at the shown candles, overlays and oscillators apart. */
export function shownIndicators(
  indicators: readonly DrawnIndicator[],
  candleTimes: readonly number[],
  shown: number,
): { overlays: ShownIndicator[]; oscillators: ShownIndicator[] } {
  const counts = new Map<string, number>();
  const all = indicators.map((drawn): ShownIndicator => {
    const nth = (counts.get(drawn.indicator.kind) ?? 0) + 1;
    counts.set(drawn.indicator.kind, nth);
    return { drawn, values: valuesAtShown(drawn, candleTimes, shown), nth };
  });
  return {
    overlays: all.filter((s) => isOverlay(s.drawn.indicator)),
    oscillators: all.filter((s) => !isOverlay(s.drawn.indicator)),
  };
}

export function OverlayLines({
  overlays,
  xs,
  y,
}: {
  overlays: readonly ShownIndicator[];
  xs: readonly number[];
  y: (price: number) => number;
}) {
  if (!overlays.length) return null;
  return (
    <g className="chart-indicators">
      {overlays.map(({ drawn, values, nth }) =>
        values.map((line, i) => {
          const name = LINES[drawn.indicator.kind][i]!;
          const d = linePath(xs, line, y);
          return d ? <path key={`${drawn.indicator.kind}${nth}-${name}`} className={lineClass(drawn.indicator, name, nth)} d={d} /> : null;
        }),
      )}
    </g>
  );
}

/** An oscillator's pane: its title, its scale (RSI's fixed 0–100 with guides, the others' own range) and lines. */
export function OscillatorPane({
  shown: { drawn, values },
  xs,
  barWidth,
  top,
  plotRight,
  locale,
}: {
  shown: ShownIndicator;
  xs: readonly number[];
  barWidth: number;
  top: number;
  plotRight: number;
  locale: string;
}) {
  const { kind } = drawn.indicator;
  const plotTop = top + PANE_TITLE;
  const plotBottom = top + PANE_HEIGHT - PANE_FOOT;
  const finite = values.flat().filter((v): v is number => v !== null);
  // RSI reads against fixed levels; KDJ's K and D live in 0–100 (J leaves it); MACD turns around zero.
  const fixed = kind === 'rsi' || kind === 'kdj' ? [0, 100] : [0];
  let low = kind === 'rsi' ? 0 : Math.min(...finite, ...fixed);
  let high = kind === 'rsi' ? 100 : Math.max(...finite, ...fixed);
  if (!(high > low)) {
    low -= 1;
    high += 1;
  }
  const y = (v: number) => round(plotTop + ((high - v) / (high - low)) * (plotBottom - plotTop));
  const lines = LINES[kind];
  return (
    <g className={`chart-pane ${kind}`}>
      <line className="pane-edge" x1={0} x2={plotRight} y1={top} y2={top} />
      <text className="pane-title" x={4} y={top + 10}>
        {drawn.label}
      </text>
      {kind === 'rsi'
        ? RSI_GUIDES.map((level) => (
            <g key={level} className="guide">
              <line x1={0} x2={plotRight} y1={y(level)} y2={y(level)} />
              <text x={plotRight + 6} y={y(level)} dominantBaseline="middle">
                {formatInteger(level, locale)}
              </text>
            </g>
          ))
        : null}
      {kind === 'macd' ? (
        <>
          <line className="guide" x1={0} x2={plotRight} y1={y(0)} y2={y(0)} />
          <Histogram values={values[LINES.macd.indexOf('histogram')] ?? []} xs={xs} y={y} width={barWidth} />
        </>
      ) : null}
      {values.map((line, i) => {
        const name = lines[i]!;
        if (name === 'histogram') return null;
        const d = linePath(xs, line, y);
        return d ? <path key={name} className={lineClass(drawn.indicator, name, 1)} d={d} /> : null;
      })}
    </g>
  );
}

/** MACD's histogram: a bar from zero per candle, rising ones in one path and falling ones in another. */
function Histogram({
  values,
  xs,
  y,
  width,
}: {
  values: readonly (number | null)[];
  xs: readonly number[];
  y: (v: number) => number;
  width: number;
}) {
  let up = '';
  let down = '';
  const zero = y(0);
  values.forEach((v, k) => {
    if (v === null || v === 0) return;
    const bar = `M${xs[k]} ${zero}V${y(v)}`;
    if (v > 0) up += bar;
    else down += bar;
  });
  return (
    <g className="histogram" strokeWidth={width}>
      {up ? <path className="up" d={up} /> : null}
      {down ? <path className="down" d={down} /> : null}
    </g>
  );
}
