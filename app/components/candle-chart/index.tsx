/**
 * The trade screen's candle chart (spec §2, architecture "Charts"). The server draws an SVG of the
 * last candles, so the chart is there with JavaScript off, and it follows live candles. lightweight-charts
 * (crosshair, dragging back in time, dragging the trader's lines) is loaded when the trader first reaches for
 * the chart, and its canvas takes the SVG's place (decision 0021): on a cheap phone its code and first drawing
 * cost two long tasks and 48 KiB that a trader who only looks never needed. Times are London's (spec §9).
 */
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { flushSync } from 'react-dom';
import { useTranslation } from '~/i18n/react';
import type { ChartPeriod } from '#contract/enums';
import { STREAM_VERSION } from '#contract/stream';
import { useLiveKline } from '~/live/state';
import type { KlineData } from '~/live/events';
import type { Instrument } from '#contract/views';
import chartCss from '~/styles/chart.css?inline';
import { formatPrice } from '~/utils/format';
import { useLocale } from '~/utils/locale';
import { whenIdle } from '~/utils/when-idle';
import { mergeCandle, withHistory, type Candle } from './candles';
import type { LiveChart, LiveChartOptions } from './live-chart.client';
import type { ChartOrders } from './order-lines';
import { SvgCandles } from './svg-candles';
import type { ChartType } from './chart-types';
import type { DrawnIndicator } from './indicator-kinds';
import { IndicatorLegend as ServerLegend } from './indicator-legend';
import { indicatorsKey, LEGEND_ID, readingsFeed } from './legend-feed';
import { hydrateLater } from '~/components/hydrate-later';

/** What the chart needs of an instrument; its symbol (BTC/USD) names the chart when given, else its code. */
type ChartInstrument = Pick<Instrument, 'code' | 'digits'> & Partial<Pick<Instrument, 'symbol'>>;

// The legend's code comes after the page (the server's legend stands until then), the canvas's live values with it.
const IndicatorLegend = hydrateLater(import.meta.env.SSR ? ServerLegend : null, () =>
  import('./indicator-legend').then((m) => m.IndicatorLegend),
);
/** For a screen reached from another (no server legend to keep): the legend's code with the screen's data. */
export const preloadIndicatorLegend = IndicatorLegend.preload;

const NO_INDICATORS: readonly DrawnIndicator[] = [];

/** Whether the trader has reached for a chart on this visit (decision 0021). */
let canvasUsed = false;

/**
 * The candles before `before` (the oldest the chart has: the loader sends only what the SVG draws), a page at a time
 * as the canvas scrolls back in time; null when they cannot be had (the chart then shows what it has).
 */
async function candleHistory(
  code: string,
  period: ChartPeriod,
  before: number | undefined,
  signal?: AbortSignal,
): Promise<Candle[] | null> {
  const params = new URLSearchParams({ code, period, v: String(STREAM_VERSION) });
  if (before !== undefined) params.set('before', String(before));
  try {
    const res = await fetch(`/candles?${params}`, { signal });
    return res.ok ? ((await res.json()) as Candle[]) : null;
  } catch {
    return null;
  }
}

export function CandleChart({
  instrument,
  period,
  candles,
  orders,
  indicators = NO_INDICATORS,
  type = 'candles',
  live = true,
}: {
  instrument: ChartInstrument;
  period: ChartPeriod;
  candles: readonly Candle[];
  /** The signed-in trader's lines of this instrument (null for a visitor). */
  orders?: ChartOrders | null;
  /** The chosen indicators with the server's values (the SVG's lines and the legend's first values). */
  indicators?: readonly DrawnIndicator[];
  /** Candles, OHLC bars, line or area (issue 40). */
  type?: ChartType;
  /** False for a window back in history (the address's `before`): live candles do not belong on it. */
  live?: boolean;
}) {
  const { t } = useTranslation('trade');
  const locale = useLocale();
  const { code, digits: precision } = instrument;
  const label = t('chart.label', { symbol: instrument.symbol ?? code, period: t(`chart.periods.${period}`) });

  // The SVG's candles: the loader's, moved by live candles until the canvas takes over.
  const [shown, setShown] = useState({ from: candles, list: candles });
  if (shown.from !== candles) setShown({ from: candles, list: candles });
  const latest = useRef(candles);
  const chart = useRef<LiveChart | null>(null);
  const host = useRef<HTMLDivElement>(null);
  const [canvasReady, setCanvasReady] = useState(false);
  // Once wanted, the canvas comes at once on the next trade screens too.
  const [canvasReached, setCanvasWanted] = useState(canvasUsed);
  const wantCanvas = () => setCanvasWanted((canvasUsed = true));
  // A trader who chose indicators gets them live: the canvas comes once the page is idle (decision 0044).
  const canvasWanted = canvasReached || indicators.length > 0;
  const chosen = useMemo(() => indicators.map((d) => d.indicator), [indicators]);
  const chosenKey = indicatorsKey(chosen);
  const currentChosen = useRef(chosen);
  currentChosen.current = chosen;
  const [feed] = useState(readingsFeed);

  const options = useMemo<LiveChartOptions>(
    () => ({
      period,
      precision,
      locale,
      formatPrice: (price) => formatPrice(price, precision, locale),
      names: { open: t('chart.data.open'), high: t('chart.data.high'), low: t('chart.data.low'), close: t('chart.data.close') },
    }),
    [period, precision, locale, t],
  );
  const currentOptions = useRef(options);
  const hasCandles = shown.list.length > 0;
  /** The instrument and period the chart's candles belong to. */
  const chartKey = `${code}|${period}`;
  const current = useRef({ code, period, key: chartKey });
  current.current = { code, period, key: chartKey };
  /** The key whose history `latest` already carries. */
  const historyOf = useRef('');
  /** The key whose oldest candle the canvas has reached (no older page to ask for), and whether a page is coming. */
  const oldestOf = useRef('');
  const paging = useRef(false);
  const currentType = useRef(type);
  currentType.current = type;
  const isLive = useRef(live);
  isLive.current = live;

  useEffect(() => {
    if (!hasCandles || !canvasWanted) return;
    let cancelled = false;
    let mounted: LiveChart | null = null;
    let cancelMount = () => {};
    const cancelIdle = whenIdle(() => {
      const { code, period, key } = current.current;
      // The history comes while the library loads, so the canvas is drawn once with all of it.
      Promise.all([import('./live-chart.client'), candleHistory(code, period, latest.current[0]?.time)]).then(
        ([{ mountLiveChart }, history]) => {
          // The library's evaluation was one task; drawing the canvas is another, when the phone is idle again
          // (together they made one long task that a tap would wait for).
          if (!cancelled)
            cancelMount = whenIdle(() => {
              if (cancelled || !host.current) return;
              if (history && current.current.key === key) {
                latest.current = withHistory(latest.current, history);
                historyOf.current = key;
              }
              mounted = mountLiveChart(host.current, latest.current, currentOptions.current, currentType.current);
              mounted.setIndicators(currentChosen.current);
              mounted.onNearOldest(() => void olderPage());
              const shownKey = () => indicatorsKey(currentChosen.current);
              mounted.onReadings((readings) => feed.set({ key: shownKey(), readings }));
              chart.current = mounted;
              setCanvasReady(true);
            });
        },
        // Without the canvas the SVG stays, and it still follows live candles.
        () => undefined,
      );
    });
    return () => {
      cancelled = true;
      cancelIdle();
      cancelMount();
      mounted?.remove();
      feed.set(null);
      chart.current = null;
      setCanvasReady(false);
    };
    // Another type is another series: the canvas is drawn anew (the SVG, drawn in that type, stands meanwhile).
  }, [hasCandles, canvasWanted, feed, type]);

  // Another instrument or period, or another language: same canvas, new settings (before the new data).
  useEffect(() => {
    currentOptions.current = options;
    chart.current?.configure(options);
  }, [options]);

  // Other indicators chosen on a drawn canvas (before its new candles, which follow).
  useEffect(() => {
    chart.current?.setIndicators(currentChosen.current);
  }, [chosenKey]);

  // New candles from the loader (another instrument or period, or a revalidation: that one keeps the history).
  useEffect(() => {
    if (latest.current === candles) return;
    const same = historyOf.current === chartKey;
    latest.current = same ? withHistory(candles, latest.current) : candles;
    if (!same) historyOf.current = '';
    chart.current?.setData(latest.current);
  }, [candles]); // eslint-disable-line react-hooks/exhaustive-deps

  // Another instrument or period on a drawn canvas: its history too.
  useEffect(() => {
    if (!canvasReady || historyOf.current === chartKey) return;
    const controller = new AbortController();
    void candleHistory(code, period, latest.current[0]?.time, controller.signal).then((history) => {
      if (!history || controller.signal.aborted || current.current.key !== chartKey) return;
      latest.current = withHistory(latest.current, history);
      historyOf.current = chartKey;
      chart.current?.setData(latest.current);
    });
    return () => controller.abort();
  }, [canvasReady, chartKey]); // eslint-disable-line react-hooks/exhaustive-deps -- code and period make chartKey

  /**
   * The page of candles before the oldest the canvas has, once the trader scrolls back near it: one page at a time
   * (the library tells of every move), none once the upstream has no older ones.
   */
  async function olderPage() {
    const { code, period, key } = current.current;
    const oldest = latest.current[0]?.time;
    if (paging.current || oldestOf.current === key || historyOf.current !== key || oldest === undefined) return;
    paging.current = true;
    const older = await candleHistory(code, period, oldest);
    paging.current = false;
    if (!older || current.current.key !== key || latest.current[0]?.time !== oldest) return;
    if (older.length === 0) oldestOf.current = key;
    else {
      latest.current = withHistory(latest.current, older);
      chart.current?.setData(latest.current);
    }
  }

  const onLiveCandle = useCallback(
    (k: KlineData) => {
      // The stream may still carry the previous instrument or period for a moment; a window in history takes none.
      if (k.code !== code || k.period !== period || !isLive.current) return;
      const merged = mergeCandle(latest.current, k);
      if (!merged) return;
      latest.current = merged;
      if (chart.current) chart.current.update(k);
      // A hidden tab draws nothing (the canvas's frames wait too); it catches up when shown (below). Rendered now, so
      // that the store's next frame lays out and paints the candle with the quotes (live/store.ts).
      else if (!document.hidden) flushSync(() => setShown((s) => ({ from: s.from, list: merged })));
    },
    [code, period],
  );
  useLiveKline(onLiveCandle);
  useEffect(() => {
    const onShown = () => {
      if (!document.hidden && !chart.current) setShown((s) => ({ from: s.from, list: latest.current }));
    };
    document.addEventListener('visibilitychange', onShown);
    return () => document.removeEventListener('visibilitychange', onShown);
  }, []);

  return (
    <>
      {/* The screen's stylesheet comes with its markup (decision 0020). */}
      <style dangerouslySetInnerHTML={{ __html: chartCss }} />
      {/* A finger or a mouse reaching the chart brings the canvas. */}
      <figure
        className={canvasReady ? 'candle-chart canvas-ready' : 'candle-chart'}
        aria-label={label}
        aria-describedby={indicators.length && hasCandles ? LEGEND_ID : undefined}
        dir="ltr"
        onPointerEnter={wantCanvas}
        onPointerDown={wantCanvas}
      >
        {hasCandles ? (
          <>
            <SvgCandles
              candles={shown.list}
              period={period}
              precision={precision}
              locale={locale}
              label={label}
              formatPrice={options.formatPrice}
              lines={orders?.lines}
              indicators={indicators}
              type={type}
            />
            <div ref={host} className="candle-canvas" />
            {orders ? (
              chart.current ? (
                // Once drawn, the canvas brings the trader's lines on it (drawn, dragged, saved): none of that is in
                // the first script. (`chart` is set just before `canvasReady`, which renders this, and cleared with it.)
                <chart.current.Lines orders={orders} />
              ) : (
                // What the SVG draws, for screen readers; the canvas's own list replaces it.
                <ul aria-label={orders.label} className="visually-hidden">
                  {orders.lines.map((l) => (
                    <li key={l.spoken}>{l.spoken}</li>
                  ))}
                </ul>
              )
            ) : null}
          </>
        ) : (
          <p className="empty">{t('chart.empty')}</p>
        )}
      </figure>
      {indicators.length && hasCandles ? <IndicatorLegend drawn={indicators} precision={precision} locale={locale} feed={feed} /> : null}
    </>
  );
}
