/** The chart's period links (spec §9); a shared choice of indicators or type in the address goes along with them. */
import { Link } from '@remix-run/react';
import { memo } from 'react';
import { CHART_PERIODS, type ChartPeriod } from '#contract/enums';
import { useTranslation } from '~/i18n/react';
import { PERIOD_LABELS, tradeUrl } from './trade-url';

/** Nine Links and their router hooks that do not change with the price. */
export const PeriodBar = memo(function PeriodBar({
  code,
  period,
  carry,
}: {
  code: string;
  period: ChartPeriod;
  /** The address's own `ind` and `type` (a shared link's choice); empty when the device's cookie chose. */
  carry: Record<string, string>;
}) {
  const { t } = useTranslation('trade');
  return (
    <nav className="period-bar" aria-label={t('periods.label')}>
      {CHART_PERIODS.map((p) => (
        <Link key={p} to={tradeUrl(code, p, carry)} aria-current={p === period ? 'page' : undefined} replace preventScrollReset>
          {PERIOD_LABELS[p]}
        </Link>
      ))}
    </nav>
  );
});
