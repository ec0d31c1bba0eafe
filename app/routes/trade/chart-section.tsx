/**
 * The trade screen's chart and what goes with it (issue 40): the period and type bars, the "Indicators" sheet, the
 * chart, "Earlier"/"Later", and the "Data" table of the candles shown. One memoised part: a tick re-renders the
 * screen's prices, not this.
 */
import { memo } from 'react';
import type { ChartPeriod } from '#contract/enums';
import type { Instrument } from '#contract/views';
import { CandleChart } from '~/components/candle-chart';
import { CandleTable } from '~/components/candle-chart/candle-table';
import type { Candle } from '~/components/candle-chart/candles';
import type { DrawnIndicator } from '~/components/candle-chart/indicator-kinds';
import type { ChartOrders } from '~/components/candle-chart/order-lines';
import { hydrateLater } from '~/components/hydrate-later';
import { useTranslation } from '~/i18n/react';
import { useLocale } from '~/utils/locale';
import { ChartPager } from './chart-pager';
import type { ChartType } from './chart-type';
import { ChartTypeBar } from './chart-type-bar';
import { IndicatorSheet as ServerIndicatorSheet } from './indicator-sheet';
import { PeriodBar } from './period-bar';

// The "Indicators" sheet works as the server drew it (a GET form) until its code comes, after the page.
export const IndicatorSheet = hydrateLater(import.meta.env.SSR ? ServerIndicatorSheet : null, () =>
  import('./indicator-sheet').then((m) => m.IndicatorSheet),
);

export const ChartSection = memo(function ChartSection({
  instrument,
  period,
  type,
  candles,
  orders,
  indicators,
  carry,
  history,
}: {
  instrument: Pick<Instrument, 'code' | 'digits' | 'symbol'>;
  period: ChartPeriod;
  type: ChartType;
  candles: readonly Candle[];
  orders: ChartOrders | null;
  indicators: readonly DrawnIndicator[];
  /** The address's own choices (`ind`, `type`), carried by the chart's links. */
  carry: Record<string, string>;
  /** The window's cursor (null: the newest candles, live) and its neighbours' (chart-window.server.ts). */
  history: { before: number | null; earlier: number | null; later: number | 'newest' | null };
}) {
  const { t } = useTranslation('trade');
  const locale = useLocale();
  const { code } = instrument;
  // A window back in history keeps its place when the type changes.
  const before = history.before === null ? null : String(history.before);
  const label = t('chart.label', { symbol: instrument.symbol, period: t(`chart.periods.${period}`) });
  return (
    <>
      <PeriodBar code={code} period={period} carry={carry} />
      <ChartTypeBar code={code} period={period} type={type} carry={carry} before={before} />
      <IndicatorSheet code={code} period={period} indicators={indicators} />
      <CandleChart
        instrument={instrument}
        period={period}
        type={type}
        candles={candles}
        orders={orders}
        indicators={indicators}
        live={history.before === null}
      />
      <ChartPager code={code} period={period} carry={carry} earlier={history.earlier} later={history.later} />
      <CandleTable candles={candles} period={period} precision={instrument.digits} locale={locale} label={label} />
    </>
  );
});
