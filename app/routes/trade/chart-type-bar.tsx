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

/** A small drawing of each type, the same in every language. */
const ICONS: Record<ChartType, string> = {
  candles: 'M5 3v18M3 7h4v9H3zM12 5v14M10 8h4v5h-4zM19 2v17M17 5h4v10h-4z',
  bars: 'M5 4v16M2 8h3M5 16h3M12 3v15M9 6h3M12 13h3M19 5v15M16 16h3M19 8h3',
  line: 'M3 17l5-6 4 4 5-8 4 5',
  area: 'M3 17l5-6 4 4 5-8 4 5V21H3z',
};

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
          <svg viewBox="0 0 24 24" width="16" height="16" aria-hidden="true" className={`line-icon type-${k}`}>
            <path d={ICONS[k]} />
          </svg>
          <span>{t(`chart.types.${k}`)}</span>
        </Link>
      ))}
    </nav>
  );
});
