/**
 * The chart's type links (issue 40): candles, OHLC bars, line and area, chosen like the period. Each link is marked
 * `keep=type`: the loader keeps the type on the device and lands on the address naming it (chart-choice.server.ts).
 */
import { Link } from '@remix-run/react';
import { memo } from 'react';
import type { ChartPeriod } from '#contract/enums';
import { useTranslation } from '~/i18n/react';
import { BEFORE_PARAM, CHART_TYPES, TYPE_MARKER, TYPE_PARAM, type ChartType } from './chart-type';
import { tradeUrl } from './trade-url';

export const ChartTypeBar = memo(function ChartTypeBar({
  code,
  period,
  type,
  carry,
  before,
}: {
  code: string;
  period: ChartPeriod;
  type: ChartType;
  /** The address's own choices (`ind`, `type`) to keep. */
  carry: Record<string, string>;
  /** The history window shown, kept when the type changes. */
  before: string | null;
}) {
  const { t } = useTranslation('trade');
  return (
    <nav className="chart-type-bar" aria-label={t('chart.types.label')}>
      {CHART_TYPES.map((k) => (
        <Link
          key={k}
          to={tradeUrl(code, period, {
            ...carry,
            ...(before ? { [BEFORE_PARAM]: before } : {}),
            [TYPE_PARAM]: k,
            [TYPE_MARKER]: TYPE_PARAM,
          })}
          aria-current={k === type ? 'page' : undefined}
          replace
          preventScrollReset
        >
          {t(`chart.types.${k}`)}
        </Link>
      ))}
    </nav>
  );
});
