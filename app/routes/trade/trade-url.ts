/** The trade screen's addresses: the URL is the source of truth for the instrument, period and popups. */
import { CHART_PERIODS, type ChartPeriod } from '#contract/enums';

export const DEFAULT_PERIOD: ChartPeriod = '15min';

/** The period bar's labels (spec §9: 1M 5M 15M 30M 1H 1D). */
export const PERIOD_LABELS: Record<ChartPeriod, string> = {
  '1min': '1M',
  '5min': '5M',
  '15min': '15M',
  '30min': '30M',
  '60min': '1H',
  '1day': '1D',
};

export function periodOf(value: string | null | undefined): ChartPeriod {
  return (CHART_PERIODS as readonly string[]).includes(value ?? '') ? (value as ChartPeriod) : DEFAULT_PERIOD;
}

/** `/trade?code=…` with a non-default period and any extras (`drawer`, the ticket's values). */
export function tradeUrl(code: string, period: ChartPeriod = DEFAULT_PERIOD, extra: Record<string, string> = {}): string {
  const params = new URLSearchParams({ code, ...(period !== DEFAULT_PERIOD ? { period } : {}), ...extra });
  return `/trade?${params}`;
}
