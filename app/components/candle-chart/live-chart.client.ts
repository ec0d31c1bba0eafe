/**
 * The interactive candle chart (lightweight-charts on a canvas). Loaded with a dynamic import when the
 * trader reaches for the chart (decision 0021), so the library stays out of the trade screen's first-load script.
 */
import {
  AreaSeries,
  BarSeries,
  CandlestickSeries,
  LineSeries,
  ColorType,
  createChart,
  TickMarkType,
  LineStyle,
  type AutoscaleInfo,
  type BarData,
  type IChartApi,
  type ISeriesApi,
  type LineData,
  type MouseEventParams,
  type SeriesType,
  type Time,
  type UTCTimestamp,
} from 'lightweight-charts';
import type { ChartPeriod } from '#contract/enums';
import type { Candle } from './candles';
import type { ChartType } from './chart-types';
import { attachLineDrag, type DraggedLine } from './line-drag.client';
import { createLondonTimeline, formatCandleTime, formatTickTime, type LondonTimeline } from './london-time';
import type { ChartLine, ChartOrders } from './order-lines';
import { createElement, type ReactElement } from 'react';
import CanvasLines from './canvas-lines';
import { canvasIndicators } from './canvas-indicators.client';
import { formatIndicator } from './indicator-format';
import type { Indicator, Reading } from './indicator-kinds';

export interface LiveChart {
  /** Replaces every candle (fresh data from the server). */
  setData(candles: readonly Candle[]): void;
  /** A live candle: same time replaces the last bar, a newer one appends. */
  update(candle: Candle): void;
  /** Another period, precision or language (the data follows with setData). */
  configure(options: LiveChartOptions): void;
  /** The trader's lines (all of them: the previous ones go). Returns the keys of the lines drawn. */
  setLines(lines: readonly ChartLine[]): string[];
  /** Shows a line at `price` (a drop waiting for its answer), or back at its own price with null. */
  moveLine(key: string, price: number | null): void;
  /** The trader's lines on this chart (a component that comes with the canvas, not in the first script). */
  Lines: (props: { orders: ChartOrders }) => ReactElement;
  /** The settings now (the price's precision and format). */
  options(): LiveChartOptions;
  /** Told when a take profit or stop loss is dragged to a new price and let go (null: nobody is told). */
  onLineDrop(listener: ((line: ChartLine, price: number) => void) | null): void;
  /** The chosen indicators (all of them: the previous ones go). */
  setIndicators(indicators: readonly Indicator[]): void;
  /** Told the last candle's indicator values, one per indicator, when they change (the legend's live values). */
  onReadings(listener: ((readings: (Reading | null)[]) => void) | null): void;
  /** Told when the trader has scrolled back to (near) the oldest candle drawn: time to load the page before it. */
  onNearOldest(listener: (() => void) | null): void;
  remove(): void;
}

export interface LiveChartOptions {
  period: ChartPeriod;
  precision: number;
  locale: string;
  formatPrice: (price: number) => string;
  /** The crosshair legend's names of the open, high, low and close, in the trader's language. */
  names: { open: string; high: string; low: string; close: string };
}

/** How close (in candles) to the oldest one drawn the trader may scroll before the page before it is asked for. */
const NEAR_OLDEST = 15;

const TICK_KIND = {
  [TickMarkType.Year]: 'year',
  [TickMarkType.Month]: 'month',
  [TickMarkType.DayOfMonth]: 'day',
  [TickMarkType.Time]: 'time',
  [TickMarkType.TimeWithSeconds]: 'seconds',
} as const;

/** The theme comes from app.css, so the canvas matches the page. */
function themeColour(host: HTMLElement, name: string, fallback: string): string {
  return getComputedStyle(host).getPropertyValue(name).trim() || fallback;
}

const FONT_SIZE = 11;

/** The candles' prices written by the app's formatter (per series: RSI's pane writes its own values). */
const priceFormatOf = (options: LiveChartOptions) =>
  ({ type: 'custom', formatter: (price: number) => options.formatPrice(price), minMove: 10 ** -options.precision }) as const;

/** Measures a time label as the canvas draws it (bold, the wider of its two weights). */
function labelMeasurer(fontFamily: string): (label: string) => number {
  const context = document.createElement('canvas').getContext('2d');
  if (!context) return (label) => label.length * FONT_SIZE;
  context.font = `bold ${FONT_SIZE}px ${fontFamily}`;
  const widths = new Map<string, number>();
  return (label) => {
    let width = widths.get(label);
    if (width === undefined) {
      width = context.measureText(label).width;
      widths.set(label, width);
    }
    return width;
  };
}

export function mountLiveChart(
  host: HTMLElement,
  candles: readonly Candle[],
  options: LiveChartOptions,
  type: ChartType = 'candles',
): LiveChart {
  // The formatters read the current settings, so configure() needs no new chart.
  let settings = options;
  const background = themeColour(host, '--bg', '#0b1220');
  const text = themeColour(host, '--text', '#e6ebf5');
  const grid = themeColour(host, '--line', '#1e293b');
  const up = themeColour(host, '--up', '#16c784');
  const down = themeColour(host, '--down', '#f3525b');
  const accent = themeColour(host, '--accent', '#3b82f6');
  let timeline: LondonTimeline = createLondonTimeline();
  const utcOf = (time: Time) => timeline.toUtc(time as number);
  const fontFamily = getComputedStyle(host).fontFamily;
  const labelWidth = labelMeasurer(fontFamily);

  // lightweight-charts centres a time label on its candle and lets the axis cut what passes its
  // ends (the leftmost label on a phone, or the newest beside the price scale): a label that would
  // not fit whole is left out instead, as the price scale does with `entireTextOnly`.
  let chart: IChartApi | null = null;
  const fitsWhole = (time: Time, label: string) => {
    const axis = chart?.timeScale();
    const x = axis?.timeToCoordinate(time) ?? null;
    if (!axis || x === null) return true;
    const half = labelWidth(label) / 2;
    return x - half >= 1 && x + half <= axis.width() - 1;
  };

  chart = createChart(host, {
    autoSize: true,
    layout: {
      background: { type: ColorType.Solid, color: background },
      textColor: text,
      fontFamily,
      fontSize: FONT_SIZE,
    },
    grid: { vertLines: { color: grid }, horzLines: { color: grid } },
    // A finger moving up or down over the chart scrolls the page, as on the rest of the screen.
    handleScroll: { vertTouchDrag: false },
    // Only whole price labels (none half off the top or bottom), and room above and below the candles.
    rightPriceScale: { borderColor: grid, entireTextOnly: true, scaleMargins: { top: 0.15, bottom: 0.12 } },
    timeScale: {
      borderColor: grid,
      timeVisible: options.period !== '1day',
      secondsVisible: false,
      // The newest candle keeps some room from the price scale; history ends at the first candle.
      rightOffset: 4,
      fixLeftEdge: true,
      tickMarkFormatter: (time: Time, type: TickMarkType) => {
        const label = formatTickTime(utcOf(time), TICK_KIND[type], settings.locale);
        return fitsWhole(time, label) ? label : '';
      },
    },
    localization: {
      locale: options.locale,
      timeFormatter: (time: Time) => formatCandleTime(utcOf(time), settings.period, settings.locale),
    },
  });
  let drawn: DraggedLine[] = [];
  // The scale takes in the trader's lines too, so each of them is on the chart.
  const autoscaleInfoProvider = (original: () => AutoscaleInfo | null) => {
    const info = original();
    if (!info?.priceRange || drawn.length === 0) return info;
    const prices = drawn.map((d) => d.line.price);
    const { minValue, maxValue } = info.priceRange;
    return { ...info, priceRange: { minValue: Math.min(minValue, ...prices), maxValue: Math.max(maxValue, ...prices) } };
  };
  const common = { priceFormat: priceFormatOf(options), autoscaleInfoProvider };
  const series: ISeriesApi<SeriesType> =
    type === 'bars'
      ? chart.addSeries(BarSeries, { ...common, upColor: up, downColor: down, thinBars: false })
      : type === 'line'
        ? chart.addSeries(LineSeries, { ...common, color: accent, lineWidth: 2 })
        : type === 'area'
          ? chart.addSeries(AreaSeries, { ...common, lineColor: accent, lineWidth: 2, topColor: `${accent}55`, bottomColor: `${accent}05` })
          : chart.addSeries(CandlestickSeries, {
              ...common,
              upColor: up,
              downColor: down,
              wickUpColor: up,
              wickDownColor: down,
              borderVisible: false,
            });
  // The canvas keeps no other trace of its type in the page (the browser tests read the library's own name of it).
  host.dataset.series = series.seriesType();

  const colourOf = (line: ChartLine) => (line.kind === 'takeProfit' ? up : line.kind === 'stopLoss' ? down : accent);
  const setLines = (lines: readonly ChartLine[]) => {
    for (const d of drawn) series.removePriceLine(d.priceLine);
    drawn = lines.map((line) => ({
      line,
      priceLine: series.createPriceLine({
        price: line.price,
        color: colourOf(line),
        lineWidth: line.draggable ? 2 : 1,
        lineStyle: line.kind === 'entry' ? LineStyle.Solid : LineStyle.Dashed,
        axisLabelVisible: true,
        title: line.title,
      }),
    }));
    // Read back from the canvas's own lines: what the screen reader's list names is what was drawn.
    return drawn.filter((d) => d.priceLine.options().price === d.line.price).map((d) => d.line.key);
  };
  let dropListener: ((line: ChartLine, price: number) => void) | null = null;
  const detachDrag = attachLineDrag(host, series, {
    lines: () => drawn,
    plotWidth: () => chart.timeScale().width(),
    precision: () => settings.precision,
    onDrop: (line, price) => (dropListener ? dropListener(line, price) : setLines(drawn.map((d) => d.line))),
  });

  // The axis keeps each label it formatted while the chart scrolls: after a move or a resize it is
  // told to format them again, so a label that left an end comes back and one that reached it goes.
  let relabel = 0;
  const relabelSoon = () => {
    if (relabel) return;
    relabel = requestAnimationFrame(() => {
      relabel = 0;
      chart.timeScale().applyOptions({});
    });
  };
  chart.timeScale().subscribeVisibleLogicalRangeChange(relabelSoon);
  chart.timeScale().subscribeSizeChange(relabelSoon);

  const ohlc = type === 'candles' || type === 'bars';
  const bar = (c: Candle): BarData<Time> | LineData<Time> => {
    const time = timeline.toChart(c.time) as UTCTimestamp;
    return ohlc ? { time, open: c.open, high: c.high, low: c.low, close: c.close } : { time, value: c.close };
  };
  let lastTime = -Infinity;
  /** The canvas's candles, for indicators chosen later (kept in place: a tick does not copy the list). */
  let shownCandles: Candle[] = [];
  const indicators = canvasIndicators(chart, {
    up,
    down,
    guide: themeColour(host, '--muted', '#94a3b8'),
    format: (indicator, value) => formatIndicator(indicator, value, settings.precision, settings.locale),
    time: (utc) => timeline.toChart(utc) as UTCTimestamp,
  });
  let readingsListener: ((readings: (Reading | null)[]) => void) | null = null;
  const tellReadings = () => readingsListener?.(indicators.readings());

  // The crosshair's legend: the hovered candle's open, high, low and close and its time, by the app's formatters. The
  // canvas's candles by chart time, since a line or area series holds only the close.
  const byTime = new Map<number, Candle>();
  const legend = document.createElement('p');
  legend.className = 'crosshair-legend';
  legend.hidden = true;
  legend.setAttribute('aria-hidden', 'true');
  host.append(legend);
  const showLegend = (param: MouseEventParams<Time>) => {
    const candle = param.time === undefined ? undefined : byTime.get(param.time as number);
    legend.hidden = !candle;
    if (!candle) return;
    const { names } = settings;
    const part = (name: string, value: string, className: string) => {
      const span = document.createElement('span');
      span.className = className;
      const label = document.createElement('span');
      label.className = 'name';
      label.textContent = name;
      span.append(label, value);
      return span;
    };
    legend.replaceChildren(
      part('', formatCandleTime(candle.time, settings.period, settings.locale), 'time'),
      part(names.open, settings.formatPrice(candle.open), 'open'),
      part(names.high, settings.formatPrice(candle.high), 'high'),
      part(names.low, settings.formatPrice(candle.low), 'low'),
      part(names.close, settings.formatPrice(candle.close), 'close'),
    );
  };
  chart.subscribeCrosshairMove(showLegend);

  let nearOldest: (() => void) | null = null;
  const watchOldest = (range: { from: number } | null) => {
    if (range && range.from < NEAR_OLDEST) nearOldest?.();
  };
  chart.timeScale().subscribeVisibleLogicalRangeChange(watchOldest);

  const setData = (list: readonly Candle[]) => {
    timeline = createLondonTimeline();
    byTime.clear();
    for (const c of list) byTime.set(timeline.toChart(c.time), c);
    series.setData(list.map(bar));
    indicators.setData(list);
    shownCandles = [...list];
    lastTime = list[list.length - 1]?.time ?? -Infinity;
    tellReadings();
  };
  setData(candles);

  const live: LiveChart = {
    setData,
    update(candle) {
      // The canvas refuses a bar older than its last one.
      if (candle.time < lastTime) return;
      series.update(bar(candle));
      byTime.set(timeline.toChart(candle.time), candle);
      indicators.update(candle);
      lastTime = candle.time;
      if (shownCandles[shownCandles.length - 1]?.time === candle.time) shownCandles[shownCandles.length - 1] = candle;
      else shownCandles.push(candle);
      tellReadings();
    },
    configure(next) {
      settings = next;
      chart.applyOptions({ timeScale: { timeVisible: next.period !== '1day' }, localization: { locale: next.locale } });
      series.applyOptions({ priceFormat: priceFormatOf(next) });
    },
    Lines: ({ orders }) => createElement(CanvasLines, { chart: live, orders }),
    options: () => settings,
    setLines,
    setIndicators(list) {
      indicators.set(list, shownCandles);
      // The canvas keeps no other trace of its panes in the page (the browser tests read it).
      host.dataset.panes = String(indicators.panes());
      tellReadings();
    },
    onReadings(listener) {
      readingsListener = listener;
      tellReadings();
    },
    onLineDrop(listener) {
      dropListener = listener;
    },
    onNearOldest(listener) {
      nearOldest = listener;
    },
    moveLine(key, price) {
      const d = drawn.find((l) => l.line.key === key);
      d?.priceLine.applyOptions({ price: price ?? d.line.price });
    },
    remove() {
      detachDrag();
      cancelAnimationFrame(relabel);
      chart.timeScale().unsubscribeVisibleLogicalRangeChange(relabelSoon);
      chart.timeScale().unsubscribeSizeChange(relabelSoon);
      chart.timeScale().unsubscribeVisibleLogicalRangeChange(watchOldest);
      chart.unsubscribeCrosshairMove(showLegend);
      legend.remove();
      chart.remove();
    },
  };
  return live;
}
