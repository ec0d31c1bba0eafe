/**
 * The "Indicators" sheet under the period bar: a <details> holding a GET form, so it opens and sends without
 * JavaScript. Up to three MA and three EMA periods (an empty box is no line), Bollinger Bands over the price, and
 * the oscillators under it. The loader keeps the choice in the device's cookie and answers with an address naming it
 * (indicator-choice.server.ts).
 */
import { Form } from '@remix-run/react';
import type { ChartPeriod } from '#contract/enums';
import {
  BOLL,
  type DrawnIndicator,
  type Indicator,
  KDJ,
  MACD_DEFAULT,
  MAX_AVERAGES,
  RSI_DEFAULT,
} from '~/components/candle-chart/indicator-kinds';
import { indicatorLabel, SHORT_NAMES } from '~/components/candle-chart/indicator-label';
import { useTranslation } from '~/i18n/react';
import { formatInteger } from '~/utils/format';
import { useLocale } from '~/utils/locale';
import sheetCss from '~/styles/indicator-sheet.css?inline';
import { AVERAGE_PERIODS as PERIOD_RANGE, INDICATOR_PARAM, SHEET_MARKER } from './indicator-fields';
import { DEFAULT_PERIOD } from './trade-url';

export function IndicatorSheet({ code, period, indicators }: { code: string; period: ChartPeriod; indicators: readonly DrawnIndicator[] }) {
  const chosen = indicators.map((d) => d.indicator);
  const { t } = useTranslation('trade');
  const locale = useLocale();
  const label = (i: Indicator) => indicatorLabel(i, (n) => formatInteger(n, locale));
  const has = (kind: Indicator['kind']) => chosen.some((c) => c.kind === kind);
  const periodsOf = (kind: 'ma' | 'ema') => chosen.flatMap((c) => (c.kind === kind ? [c.period] : []));
  const averages = (kind: 'ma' | 'ema') => {
    const periods = periodsOf(kind);
    return (
      <div className="average-periods" role="group" aria-label={t(`chart.indicators.names.${kind}`)}>
        <span className="average-name" dir="ltr">
          {SHORT_NAMES[kind]}
        </span>
        {Array.from({ length: MAX_AVERAGES }, (_, k) => (
          <input
            key={k}
            type="number"
            name={kind}
            inputMode="numeric"
            min={PERIOD_RANGE.min}
            max={PERIOD_RANGE.max}
            step={1}
            defaultValue={periods[k] ?? ''}
            aria-label={t('chart.indicators.period', { name: SHORT_NAMES[kind], n: formatInteger(k + 1, locale) })}
          />
        ))}
      </div>
    );
  };
  const fixed = (indicator: Indicator) => (
    <label className="indicator-choice">
      <input type="checkbox" name={INDICATOR_PARAM} value={indicator.kind} defaultChecked={has(indicator.kind)} />
      <span>{t(`chart.indicators.names.${indicator.kind}`)}</span>{' '}
      <span dir="ltr" className="indicator-params">
        {label(indicator)}
      </span>
    </label>
  );
  return (
    <>
      <style dangerouslySetInnerHTML={{ __html: sheetCss }} />
      {/* A new choice closes the sheet (a new element), so the chart it changed is in view. */}
      <details className="indicator-sheet" key={chosen.map(label).join()}>
        <summary>
          {t('chart.indicators.sheet')}
          {chosen.length ? <span className="indicator-count">{formatInteger(chosen.length, locale)}</span> : null}
        </summary>
        <Form
          method="get"
          action="/trade"
          preventScrollReset
          replace
          aria-label={t('chart.indicators.sheet')}
          // The browser's own sheet (never hydrated over the server's: components/hydrate-later), for the browser tests.
          data-live={import.meta.env.SSR ? undefined : 'on'}
        >
          <input type="hidden" name="code" value={code} />
          {period !== DEFAULT_PERIOD ? <input type="hidden" name="period" value={period} /> : null}
          <input type="hidden" name={SHEET_MARKER} value="set" />
          <fieldset>
            <legend>{t('chart.indicators.overlays')}</legend>
            <p className="hint">
              {t('chart.indicators.periodHint', {
                min: formatInteger(PERIOD_RANGE.min, locale),
                max: formatInteger(PERIOD_RANGE.max, locale),
              })}
            </p>
            {averages('ma')}
            {averages('ema')}
            {fixed(BOLL)}
          </fieldset>
          <fieldset>
            <legend>{t('chart.indicators.oscillators')}</legend>
            {fixed(MACD_DEFAULT)}
            {fixed(RSI_DEFAULT)}
            {fixed(KDJ)}
          </fieldset>
          <button type="submit" className="button small">
            {t('chart.indicators.apply')}
          </button>
        </Form>
      </details>
    </>
  );
}
