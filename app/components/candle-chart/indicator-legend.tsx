/**
 * The chosen indicators named with their parameters and their value at the last candle: the server's values
 * first, the canvas chart's live ones once it is drawn. Its code is not in the first-load script: the server's
 * markup stays until it comes (components/hydrate-later). It is also the chart's text for a screen reader (the
 * figure points to it), so each line is named in words as well as drawn in colour.
 */
import { useSyncExternalStore } from 'react';
import { useTranslation } from '~/i18n/react';
import legendCss from '~/styles/indicator-legend.css?inline';
import { formatIndicator } from './indicator-format';
import { type DrawnIndicator, type Indicator, indicatorToken, LINES, type Reading } from './indicator-kinds';
import { indicatorsKey, LEGEND_ID, type ReadingsFeed } from './legend-feed';

const nothing = () => null;

export function IndicatorLegend({
  drawn,
  precision,
  locale,
  feed,
}: {
  drawn: readonly DrawnIndicator[];
  precision: number;
  locale: string;
  feed: ReadingsFeed;
}) {
  const { t } = useTranslation('trade');
  const live = useSyncExternalStore(feed.subscribe, feed.get, nothing);
  const key = indicatorsKey(drawn.map((d) => d.indicator));
  const liveReadings = live?.key === key ? live.readings : null;
  return (
    <>
      <style dangerouslySetInnerHTML={{ __html: legendCss }} />
      <ul id={LEGEND_ID} className="indicator-legend" aria-label={t('chart.indicators.legend')}>
        {drawn.map((d, i) => {
          const { indicator } = d;
          const lines = LINES[indicator.kind];
          const reading: Reading = liveReadings?.[i] ?? d.lines.map((line) => line[line.length - 1] ?? null);
          return (
            <li key={indicatorToken(indicator)} className={`legend-${indicator.kind}`} data-indicator={indicatorToken(indicator)}>
              <span className="visually-hidden">{t(`chart.indicators.names.${indicator.kind}`)} </span>
              <span dir="ltr" className="legend-label">
                {d.label}
              </span>
              {lines.map((line, k) => {
                const value = reading[k] ?? null;
                const name = lineName(indicator.kind, line, t);
                return (
                  <span key={line} className="legend-value">
                    {name ? <span className="legend-line">{name} </span> : null}
                    {value === null ? (
                      <>
                        <span aria-hidden="true">–</span>
                        <span className="visually-hidden">{t('chart.indicators.noValue')}</span>
                      </>
                    ) : (
                      <span dir="ltr">{formatIndicator(indicator, value, precision, locale)}</span>
                    )}
                  </span>
                );
              })}
            </li>
          );
        })}
      </ul>
    </>
  );
}

/** A line's name where an indicator has more than one (BOLL's upper, MACD's signal, KDJ's K). */
function lineName(kind: Indicator['kind'], line: string, t: (key: string) => string): string | null {
  if (kind === 'kdj') return line.toUpperCase();
  if (kind === 'macd' && line === 'macd') return 'MACD';
  if (kind === 'boll' || kind === 'macd') return t(`chart.indicators.lines.${line}`);
  return null;
}
