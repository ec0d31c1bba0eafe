/**
 * "Earlier" and "Later" under the chart (issue 40): move the server's SVG back and forward through history by the
 * address's `before`, so a trader without JavaScript reads older candles too. "Later" is absent on the newest candles.
 * With JavaScript the canvas pages back itself as the trader drags it; these still move the SVG and its table.
 */
import { Link } from '@remix-run/react';
import { memo } from 'react';
import type { ChartPeriod } from '#contract/enums';
import { useTranslation } from '~/i18n/react';
import { BEFORE_PARAM } from './chart-type';
import { tradeUrl } from './trade-url';

export const ChartPager = memo(function ChartPager({
  code,
  period,
  carry,
  earlier,
  later,
}: {
  code: string;
  period: ChartPeriod;
  carry: Record<string, string>;
  earlier: number | null;
  later: number | 'newest' | null;
}) {
  const { t } = useTranslation('trade');
  if (earlier === null && later === null) return null;
  const at = (before: number | 'newest') =>
    tradeUrl(code, period, before === 'newest' ? carry : { ...carry, [BEFORE_PARAM]: String(before) });
  return (
    // Time runs left to right on the chart in every language, so Earlier stays on its left.
    <nav className="chart-pager" aria-label={t('chart.history.label')} dir="ltr">
      {earlier !== null ? (
        <Link to={at(earlier)} className="earlier" rel="prev" replace preventScrollReset>
          <span aria-hidden="true">‹ </span>
          {t('chart.history.earlier')}
        </Link>
      ) : (
        <span />
      )}
      {later !== null ? (
        <Link to={at(later)} className="later" rel="next" replace preventScrollReset>
          {t('chart.history.later')}
          <span aria-hidden="true"> ›</span>
        </Link>
      ) : null}
    </nav>
  );
});
