/**
 * The trade screen's candle chart (spec §2, architecture "Charts"). The server draws an SVG of the
 * last candles, so the chart is there with JavaScript off; after hydration, when the phone is idle,
 * lightweight-charts is loaded and its canvas takes the SVG's place. Times are London's (spec §9).
 *
 * The route adds the stylesheet: `export const links = () => [chartStylesheet, …]`.
 */
import type { HtmlLinkDescriptor } from '@remix-run/node';
import { lazy, Suspense, useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { ChartPeriod } from '#contract/enums';
import { useLiveKline } from '~/live/hooks';
import type { KlineData } from '~/live/events';
import styles from '~/styles/chart.css?url';
import { formatLots, formatPrice } from '~/utils/format';
import { useLocale } from '~/utils/locale';
import { mergeCandle, type Candle } from './candles';
import type { LiveChart, LiveChartHandlers, LiveChartOptions } from './live-chart.client';
import { chartLines, type ChartLine, type ChartOrder } from './order-lines';
import { SvgCandles } from './svg-candles';

export type { Candle } from './candles';
export type { ChartOrder } from './order-lines';

/** The confirmation and save of a dragged line: only a canvas chart with lines to drag loads it. */
const LineMove = lazy(() => import('./line-move'));

/** A take profit or stop loss let go at a new price, waiting for the trader's word. */
export interface LineDrop {
  line: ChartLine;
  price: number;
}

export const chartStylesheet: HtmlLinkDescriptor = { rel: 'stylesheet', href: styles };

/** What the chart needs of an instrument; ShowCode (BTC/USD) names the chart when given, else Code. */
export interface ChartInstrument {
  Code: string;
  PricePrecision: number;
  ShowCode?: string;
}

/** Runs `task` when the browser is idle (the page is painted and hydrated), or soon where that is unknown. */
function whenIdle(task: () => void): () => void {
  if (typeof window.requestIdleCallback === 'function') {
    const id = window.requestIdleCallback(task, { timeout: 2000 });
    return () => window.cancelIdleCallback(id);
  }
  const id = window.setTimeout(task, 200);
  return () => window.clearTimeout(id);
}

export function CandleChart({
  instrument,
  period,
  candles,
  orders = NO_ORDERS,
}: {
  instrument: ChartInstrument;
  period: ChartPeriod;
  candles: readonly Candle[];
  /** The signed-in trader's positions and pending orders of this instrument. */
  orders?: readonly ChartOrder[];
}) {
  const { t } = useTranslation('trade');
  const locale = useLocale();
  const { Code: code, PricePrecision: precision } = instrument;
  const label = t('chart.label', { symbol: instrument.ShowCode ?? code, period: t(`chart.periods.${period}`) });

  // The SVG's candles: the loader's, moved by live candles until the canvas takes over.
  const [shown, setShown] = useState({ from: candles, list: candles });
  if (shown.from !== candles) setShown({ from: candles, list: candles });
  const latest = useRef(candles);
  const chart = useRef<LiveChart | null>(null);
  const host = useRef<HTMLDivElement>(null);
  const [canvasReady, setCanvasReady] = useState(false);

  const options = useMemo<LiveChartOptions>(
    () => ({ period, precision, locale, formatPrice: (price) => formatPrice(price, precision, locale) }),
    [period, precision, locale],
  );
  const currentOptions = useRef(options);
  const hasCandles = shown.list.length > 0;

  const lines = useMemo(
    () => chartLines(orders, t, options.formatPrice, (lots) => formatLots(lots, locale)),
    [orders, t, options.formatPrice, locale],
  );
  const currentLines = useRef(lines);
  // The lines the canvas drew (by key): what the screen reader's list names once the canvas shows.
  const [drawnKeys, setDrawnKeys] = useState<readonly string[]>([]);
  const [drop, setDrop] = useState<LineDrop | null>(null);
  const [dragging, setDragging] = useState(false);
  const handlers = useMemo<LiveChartHandlers>(
    () => ({ onLineDrop: (line, price) => setDrop({ line, price }), onDragging: setDragging }),
    [],
  );

  useEffect(() => {
    if (!hasCandles) return;
    let cancelled = false;
    let mounted: LiveChart | null = null;
    const cancelIdle = whenIdle(() => {
      import('./live-chart.client').then(
        ({ mountLiveChart }) => {
          if (cancelled || !host.current) return;
          mounted = mountLiveChart(host.current, latest.current, currentOptions.current, handlers);
          chart.current = mounted;
          setDrawnKeys(mounted.setLines(currentLines.current));
          setCanvasReady(true);
        },
        // Without the canvas the SVG stays, and it still follows live candles.
        () => undefined,
      );
    });
    return () => {
      cancelled = true;
      cancelIdle();
      mounted?.remove();
      chart.current = null;
      setCanvasReady(false);
    };
  }, [hasCandles, handlers]);

  // New lines (a revalidation after an order changed): drawn again, any dragged one at its own price.
  useEffect(() => {
    if (currentLines.current === lines) return;
    currentLines.current = lines;
    if (chart.current) setDrawnKeys(chart.current.setLines(lines));
    setDrop(null);
  }, [lines]);

  /** The dragged line goes back to its price (cancelled or refused), or stays where it was let go while saving. */
  const settleDrop = useCallback((outcome: 'back' | 'saving') => {
    setDrop((d) => {
      if (d) chart.current?.moveLine(d.line.key, outcome === 'back' ? null : d.price);
      return outcome === 'back' ? null : d;
    });
  }, []);

  // Another instrument or period, or another language: same canvas, new settings (before the new data).
  useEffect(() => {
    currentOptions.current = options;
    chart.current?.configure(options);
  }, [options]);

  // New candles from the loader (another instrument or period, or a revalidation).
  useEffect(() => {
    if (latest.current === candles) return;
    latest.current = candles;
    chart.current?.setData(candles);
  }, [candles]);

  const onLiveCandle = useCallback(
    (k: KlineData) => {
      // The stream may still carry the previous instrument or period for a moment.
      if (k.symbol !== code || k.Period !== period) return;
      const merged = mergeCandle(latest.current, k);
      if (!merged) return;
      latest.current = merged;
      if (chart.current) chart.current.update(k);
      else setShown((s) => ({ from: s.from, list: mergeCandle(s.list, k) ?? s.list }));
    },
    [code, period],
  );
  useLiveKline(onLiveCandle);

  const listed = canvasReady ? lines.filter((l) => drawnKeys.includes(l.key)) : lines;
  const figureClass = ['candle-chart', canvasReady ? 'canvas-ready' : '', dragging ? 'dragging-line' : ''].filter(Boolean).join(' ');
  return (
    <>
      <figure className={figureClass} aria-label={label} dir="ltr">
        {hasCandles ? (
          <>
            <SvgCandles
              candles={shown.list}
              period={period}
              precision={precision}
              locale={locale}
              label={label}
              formatPrice={options.formatPrice}
              lines={lines}
            />
            <div ref={host} className="candle-canvas" />
          </>
        ) : (
          <p className="empty">{t('chart.empty')}</p>
        )}
        {hasCandles && listed.length > 0 ? (
          <ul className="visually-hidden" aria-label={t('chart.lines.list')}>
            {listed.map((l) => (
              <li key={l.key}>{l.description}</li>
            ))}
          </ul>
        ) : null}
      </figure>
      {canvasReady && lines.some((l) => l.draggable) ? (
        <Suspense fallback={null}>
          <LineMove drop={drop} orders={orders} formatPrice={options.formatPrice} precision={precision} onSettle={settleDrop} />
        </Suspense>
      ) : null}
    </>
  );
}

const NO_ORDERS: readonly ChartOrder[] = [];
