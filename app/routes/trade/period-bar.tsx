/** The chart's period links (spec §9); a shared choice of indicators in the address goes along with them. */
import { Link } from '@remix-run/react';
import { memo } from 'react';
import { CHART_PERIODS, type ChartPeriod } from '#contract/enums';
import { useTranslation } from '~/i18n/react';
import { INDICATOR_PARAM } from './indicator-fields';
import { PERIOD_LABELS, tradeUrl } from './trade-url';

/** Nine Links and their router hooks that do not change with the price. */
export const PeriodBar = memo(function PeriodBar({
  code,
  period,
  indicators,
}: {
  code: string;
  period: ChartPeriod;
  /** The address's own `ind` (a shared link's choice); null when the device's cookie chose. */
  indicators: string | null;
}) {
  const { t } = useTranslation('trade');
  const extra: Record<string, string> = indicators === null ? {} : { [INDICATOR_PARAM]: indicators };
  return (
    <nav className="period-bar" aria-label={t('periods.label')}>
      {CHART_PERIODS.map((p) => (
        <Link key={p} to={tradeUrl(code, p, extra)} aria-current={p === period ? 'page' : undefined} replace preventScrollReset>
          {PERIOD_LABELS[p]}
        </Link>
      ))}
    </nav>
  );
});
