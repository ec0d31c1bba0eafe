/**
 * The candle chart as SVG, drawn on the server: what a phone shows before (or without) JavaScript.
 * Coordinates live in a fixed viewBox that scales to the container's width.
 */
import { memo } from 'react';
import type { ChartPeriod } from '#contract/enums';
import type { Candle } from './candles';
import type { ChartType } from './chart-types';
import type { DrawnIndicator } from './indicator-kinds';
import { formatAxisTime } from './london-time';
import type { ChartLine } from './order-lines';
import { OscillatorPane, OverlayLines, PANE_HEIGHT, shownIndicators } from './svg-indicators';

export const VIEW_WIDTH = 360;
export const VIEW_HEIGHT = 220;
/** About as many candles as a phone's width shows legibly. */
export const SHOWN_CANDLES = 64;
const TOP = 8;
const TIME_AXIS = 20;
const FONT = 10;
/** Fewer candles than this keep their width and sit at the right, as on the canvas chart. */
const MIN_SLOTS = 32;

interface CandleShape {
  time: number;
  up: boolean;
  x: number;
  width: number;
  wickTop: number;
  wickBottom: number;
  bodyTop: number;
  bodyHeight: number;
  /** Where the candle opened and closed (an OHLC bar's ticks, the line's point). */
  openY: number;
  closeY: number;
}

interface ChartLayout {
  candles: CandleShape[];
  priceTicks: { y: number; label: string }[];
  timeTicks: { x: number; time: number }[];
  last: { y: number; label: string; up: boolean } | null;
  /** Where the plot ends and the price axis begins. */
  plotRight: number;
  plotBottom: number;
  /** The price at the top and the bottom of the plot. */
  top: number;
  bottom: number;
  y(price: number): number;
}

const round = (n: number) => Math.round(n * 10) / 10;

/** A step of 1, 2 or 5 × 10ⁿ giving about `count` lines across `range`, never finer than one tick of the price. */
export function niceStep(range: number, count: number, precision: number): number {
  const raw = range / count;
  const magnitude = 10 ** Math.floor(Math.log10(raw));
  const norm = raw / magnitude;
  const step = (norm < 1.5 ? 1 : norm < 3 ? 2 : norm < 7 ? 5 : 10) * magnitude;
  return Math.max(step, 10 ** -precision);
}

/**
 * Places the last candles in the viewBox: price scale, bodies and wicks, axis labels, the last price.
 * The scale also takes in `levels` (the trader's lines), so each of them is on the picture.
 */
export function chartLayout(
  all: readonly Candle[],
  precision: number,
  formatPrice: (price: number) => string,
  levels: readonly number[],
): ChartLayout {
  const shown = all.slice(-SHOWN_CANDLES);
  const plotBottom = VIEW_HEIGHT - TIME_AXIS;
  const plotHeight = plotBottom - TOP;
  let low = Math.min(...shown.map((c) => c.low), ...levels);
  let high = Math.max(...shown.map((c) => c.high), ...levels);
  if (!(high > low)) {
    // One flat price (or no candles): open the scale around it.
    const mid = Number.isFinite(low) ? low : 0;
    const pad = Math.abs(mid) * 0.001 || 10 ** -precision || 1;
    low = mid - pad;
    high = mid + pad;
  }
  const margin = (high - low) * 0.08;
  const top = high + margin;
  const bottom = low - margin;
  const y = (price: number) => round(TOP + ((top - price) / (top - bottom)) * plotHeight);

  const step = niceStep(top - bottom, 4, precision);
  const priceTicks: { y: number; label: string }[] = [];
  for (let k = Math.ceil(bottom / step); k * step <= top; k++) {
    // Steps like 0.1 are inexact in binary; round to the instrument's precision before labelling.
    const price = Number((k * step).toFixed(Math.max(precision, 0)));
    priceTicks.push({ y: y(price), label: formatPrice(price) });
  }
  const lastCandle = shown[shown.length - 1];
  const lastLabel = lastCandle ? formatPrice(lastCandle.close) : '';
  const widest = Math.max(lastLabel.length, ...priceTicks.map((t) => t.label.length));
  const axisWidth = Math.ceil(widest * FONT * 0.62 + 12);
  const plotRight = VIEW_WIDTH - axisWidth;

  const slot = plotRight / Math.max(shown.length, MIN_SLOTS);
  const width = round(Math.max(1, slot * 0.7));
  const candles = shown.map((c, i): CandleShape => {
    const x = round(plotRight - slot * (shown.length - i - 0.5));
    const up = c.close >= c.open;
    const bodyTop = y(Math.max(c.open, c.close));
    return {
      time: c.time,
      up,
      x,
      width,
      wickTop: y(c.high),
      wickBottom: y(c.low),
      bodyTop,
      // A candle that closed where it opened still shows as a line.
      bodyHeight: Math.max(1, round(y(Math.min(c.open, c.close)) - bodyTop)),
      openY: y(c.open),
      closeY: y(c.close),
    };
  });

  // Four time labels, one in the middle of each quarter of the candles.
  const timeTicks: { x: number; time: number }[] = [];
  if (candles.length >= 4) {
    for (let q = 0; q < 4; q++) {
      const candle = candles[Math.floor((candles.length * (2 * q + 1)) / 8)]!;
      timeTicks.push({ x: candle.x, time: candle.time });
    }
  } else if (candles[0]) {
    timeTicks.push({ x: candles[0].x, time: candles[0].time });
  }

  return {
    candles,
    priceTicks,
    timeTicks,
    last: lastCandle ? { y: y(lastCandle.close), label: lastLabel, up: lastCandle.close >= lastCandle.open } : null,
    plotRight,
    plotBottom,
    top,
    bottom,
    y,
  };
}

export function SvgCandles({
  candles,
  period,
  precision,
  locale,
  label,
  formatPrice,
  lines = [],
  indicators = [],
  type = 'candles',
}: {
  candles: readonly Candle[];
  period: ChartPeriod;
  precision: number;
  locale: string;
  label: string;
  formatPrice: (price: number) => string;
  /** The trader's entries, targets, take profits and stop losses. */
  lines?: readonly ChartLine[];
  /** The chosen indicators, computed on the server (`drawnIndicator`): lines over the candles, panes under. */
  indicators?: readonly DrawnIndicator[];
  /** Candles, OHLC bars, a line of closes or its area (issue 40). */
  type?: ChartType;
}) {
  const shownCount = Math.min(candles.length, SHOWN_CANDLES);
  const { overlays, oscillators } = shownIndicators(
    indicators,
    candles.map((c) => c.time),
    shownCount,
  );
  // The price scale takes in the overlays too, so the bands are on the picture.
  const overlayValues = overlays.flatMap((o) => o.values.flat().filter((v): v is number => v !== null));
  const layout = chartLayout(candles, precision, formatPrice, [...lines.map((l) => l.price), ...overlayValues]);
  const labelX = layout.plotRight + 6;
  const height = VIEW_HEIGHT + oscillators.length * PANE_HEIGHT;
  const xs = layout.candles.map((c) => c.x);
  return (
    <svg className="candle-svg" viewBox={`0 0 ${VIEW_WIDTH} ${height}`} role="img" aria-label={label}>
      <g className="chart-grid">
        {layout.priceTicks.map((t) => (
          <line key={t.label} x1={0} x2={layout.plotRight} y1={t.y} y2={t.y} />
        ))}
        {layout.timeTicks.map((t) => (
          <line key={t.time} x1={t.x} x2={t.x} y1={TOP} y2={layout.plotBottom + oscillators.length * PANE_HEIGHT} />
        ))}
      </g>
      <g className="chart-candles" data-type={type}>
        <PriceMarks type={type} candles={layout.candles} bottom={layout.plotBottom} />
      </g>
      <OverlayLines overlays={overlays} xs={xs} y={layout.y} />
      {oscillators.map((o, k) => (
        <OscillatorPane
          key={`${o.drawn.indicator.kind}${o.nth}`}
          shown={o}
          xs={xs}
          barWidth={layout.candles[0]?.width ?? 1}
          top={layout.plotBottom + k * PANE_HEIGHT}
          plotRight={layout.plotRight}
          locale={locale}
        />
      ))}
      <g className="chart-axis" fontSize={FONT}>
        {layout.priceTicks.map((t) => (
          <text key={t.label} x={labelX} y={t.y} dominantBaseline="middle">
            {t.label}
          </text>
        ))}
        {layout.timeTicks.map((t) => (
          <TimeLabel
            key={t.time}
            x={Math.min(Math.max(t.x, 16), layout.plotRight - 16)}
            y={height - 6}
            time={t.time}
            period={period}
            locale={locale}
          />
        ))}
      </g>
      {lines.map((l) => {
        const y = layout.y(l.price);
        return (
          <g key={l.spoken} className={l.kind}>
            <line x2={layout.plotRight} y1={y} y2={y} />
            <text x={4} y={y - 3}>
              {l.label}
            </text>
          </g>
        );
      })}
      {layout.last ? (
        <g className={`chart-last ${layout.last.up ? 'up' : 'down'}`}>
          <line x1={0} x2={layout.plotRight} y1={layout.last.y} y2={layout.last.y} strokeDasharray="3 3" />
          <rect x={layout.plotRight + 1} y={layout.last.y - 8} width={VIEW_WIDTH - layout.plotRight - 1} height={16} rx={2} />
          <text x={labelX} y={layout.last.y} dominantBaseline="middle" fontSize={FONT}>
            {layout.last.label}
          </text>
        </g>
      ) : null}
    </svg>
  );
}

/** The price drawn as the chosen type: a few paths for the candles before the last, and the last one apart. */
function PriceMarks({ type, candles, bottom }: { type: ChartType; candles: readonly CandleShape[]; bottom: number }) {
  const before = candles.slice(0, -1);
  const last = candles[candles.length - 1];
  if (type === 'candles')
    return (
      <>
        <CandlePaths candles={before} up />
        <CandlePaths candles={before} up={false} />
        {last ? <CandleMark {...last} /> : null}
      </>
    );
  if (type === 'bars')
    return (
      <>
        <BarPaths candles={before} up />
        <BarPaths candles={before} up={false} />
        {last ? <BarPaths candles={[last]} up={last.up} /> : null}
      </>
    );
  // Line and area: the closes joined; the last segment (the one live prices move) apart.
  const previous = candles[candles.length - 2];
  const lastSegment = previous && last ? `M${previous.x} ${previous.closeY}L${last.x} ${last.closeY}` : '';
  return (
    <>
      {type === 'area' ? (
        <>
          <CloseArea candles={before} bottom={bottom} />
          {previous && last ? (
            <path className="price-area" d={`M${previous.x} ${bottom}V${previous.closeY}L${last.x} ${last.closeY}V${bottom}Z`} />
          ) : null}
        </>
      ) : null}
      <CloseLine candles={before} />
      {lastSegment ? <path className="price-line" d={lastSegment} /> : null}
    </>
  );
}

/** OHLC bars, rising or falling ones, in one path: the high–low stroke, the open's tick left, the close's right. */
function BarPaths({ candles, up }: { candles: readonly CandleShape[]; up: boolean }) {
  let d = '';
  for (const c of candles) {
    if (c.up !== up) continue;
    const tick = round(Math.max(1, c.width / 2));
    d += `M${c.x} ${c.wickTop}V${c.wickBottom}M${round(c.x - tick)} ${c.openY}H${c.x}M${c.x} ${c.closeY}H${round(c.x + tick)}`;
  }
  return <MemoPath className={`ohlc ${up ? 'up' : 'down'}`} d={d} />;
}

function CloseLine({ candles }: { candles: readonly CandleShape[] }) {
  return <MemoPath className="price-line" d={candles.map((c, i) => `${i ? 'L' : 'M'}${c.x} ${c.closeY}`).join('')} />;
}

function CloseArea({ candles, bottom }: { candles: readonly CandleShape[]; bottom: number }) {
  const first = candles[0];
  const last = candles[candles.length - 1];
  if (!first || !last) return null;
  return (
    <MemoPath
      className="price-area"
      d={`M${first.x} ${bottom}${candles.map((c) => `L${c.x} ${c.closeY}`).join('')}L${last.x} ${bottom}Z`}
    />
  );
}

/** A path whose string a tick leaves as it was: React leaves it alone. */
const MemoPath = memo(function MemoPath({ className, d }: { className: string; d: string }) {
  return d ? <path className={className} d={d} /> : null;
});

/**
 * The candles before the last, rising or falling ones: their wicks in one path and their bodies in another (a
 * body is a stroke as wide as the candle). Two elements instead of three per candle: the page carries about
 * 2 KB of SVG instead of 8 for 64 candles, and a phone lays out and paints two shapes, not 190.
 */
function CandlePaths({ candles, up }: { candles: readonly CandleShape[]; up: boolean }) {
  let wicks = '';
  let bodies = '';
  for (const c of candles) {
    if (c.up !== up) continue;
    wicks += `M${c.x} ${c.wickTop}V${c.wickBottom}`;
    bodies += `M${c.x} ${c.bodyTop}v${c.bodyHeight}`;
  }
  return <CandleGroup up={up} wicks={wicks} bodies={bodies} width={candles[0]?.width ?? 1} />;
}

/**
 * A live tick moves the last candle only (unless it stretches the scale): the paths' strings stay the same and
 * React leaves them alone, so a tick's render on a weak phone is one candle, not 64.
 */
const CandleGroup = memo(function CandleGroup({ up, wicks, bodies, width }: { up: boolean; wicks: string; bodies: string; width: number }) {
  if (!wicks) return null;
  return (
    <g className={`candles ${up ? 'up' : 'down'}`}>
      <path className="wicks" d={wicks} />
      <path className="bodies" d={bodies} strokeWidth={width} />
    </g>
  );
});

/** The last candle, the one live prices move. */
const CandleMark = memo(function CandleMark({ up, x, width, wickTop, wickBottom, bodyTop, bodyHeight }: CandleShape) {
  return (
    <g className={`candle ${up ? 'up' : 'down'}`}>
      <line x1={x} x2={x} y1={wickTop} y2={wickBottom} />
      <rect x={round(x - width / 2)} y={bodyTop} width={width} height={bodyHeight} />
    </g>
  );
});

/** A time axis label: formatted when its place or time changes, not on every tick. */
const TimeLabel = memo(function TimeLabel({
  x,
  y,
  time,
  period,
  locale,
}: {
  x: number;
  y: number;
  time: number;
  period: ChartPeriod;
  locale: string;
}) {
  return (
    <text x={x} y={y} textAnchor="middle">
      {formatAxisTime(time, period, locale)}
    </text>
  );
});
