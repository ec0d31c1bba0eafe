/**
 * The chart's candles as a table (issue 40), in a "Data" disclosure under the chart: what the picture shows, for a
 * screen reader and for a trader without JavaScript who wants the figures. Server-rendered; the SVG keeps its few
 * paths (decision 0029). Newest first; times in London (spec §9), figures by the app's own formatters (decision 0015).
 */
import type { ChartPeriod } from '#contract/enums';
import { useTranslation } from '~/i18n/react';
import { formatPrice } from '~/utils/format';
import type { Candle } from './candles';
import { formatCandleTime } from './london-time';

export function CandleTable({
  candles,
  period,
  precision,
  locale,
  label,
}: {
  candles: readonly Candle[];
  period: ChartPeriod;
  precision: number;
  locale: string;
  /** The chart's name (its symbol and period), the table's caption. */
  label: string;
}) {
  const { t } = useTranslation('trade');
  if (candles.length === 0) return null;
  const price = (p: number) => formatPrice(p, precision, locale);
  return (
    <details className="chart-data">
      <summary>{t('chart.data.summary')}</summary>
      {/* A scrolled box a keyboard can reach and scroll. */}
      <div className="chart-data-scroll" tabIndex={0} role="region" aria-label={t('chart.data.summary')}>
        <table>
          <caption>{label}</caption>
          <thead>
            <tr>
              <th scope="col">{t('chart.data.time')}</th>
              <th scope="col">{t('chart.data.open')}</th>
              <th scope="col">{t('chart.data.high')}</th>
              <th scope="col">{t('chart.data.low')}</th>
              <th scope="col">{t('chart.data.close')}</th>
            </tr>
          </thead>
          <tbody>
            {[...candles].reverse().map((c) => (
              <tr key={c.time}>
                <th scope="row">
                  <time dateTime={new Date(c.time * 1000).toISOString()}>{formatCandleTime(c.time, period, locale)}</time>
                </th>
                <td>{price(c.open)}</td>
                <td>{price(c.high)}</td>
                <td>{price(c.low)}</td>
                <td>{price(c.close)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </details>
  );
}
