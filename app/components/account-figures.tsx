/**
 * The account in seven figures (spec §3 "Account"): balance, net value, available, used margin, risk
 * rate, prepayment ratio and total profit and loss, with a warning when the risk rate nears the stop-out
 * level. Precisions of spec §9: balance 2 decimals, profit and margin up to 6. Server data first; live after.
 */
import { useTranslation } from '~/i18n/react';
import { RISK_WARNING_PERCENT, STOP_OUT_PERCENT } from '#contract/arithmetic';
import type { AccountDetail } from '#contract/calls/trade';
import { useLiveAccount } from '~/live/state';
import { formatMargin, formatMoney, formatPercent, formatProfit, trendOf } from '~/utils/format';
import { useLocale } from '~/utils/locale';

export function AccountFigures({ detail }: { detail: AccountDetail }) {
  const { t } = useTranslation('trade');
  const locale = useLocale();
  const live = useLiveAccount();
  const figures = live
    ? {
        balance: live.balance,
        equity: live.equity,
        free: live.free_margin,
        margin: live.margin,
        risk: live.risk_rate,
        // Display only: used margin ÷ net value, as the upstream's margin_ratio.
        ratio: live.equity > 0 ? (live.margin / live.equity) * 100 : null,
        profit: live.profit,
      }
    : {
        balance: detail.balance,
        equity: detail.equity,
        free: detail.free_margin,
        margin: detail.margin,
        risk: detail.risk_rate,
        ratio: detail.margin_ratio,
        profit: detail.floating_profit,
      };
  const danger = figures.risk !== null && figures.risk <= RISK_WARNING_PERCENT;
  return (
    <section className="account-figures" aria-label={t('account.title')}>
      <dl>
        <div>
          <dt>{t('account.balance')}</dt>
          <dd>{formatMoney(figures.balance, locale)}</dd>
        </div>
        <div>
          <dt>{t('account.equity')}</dt>
          <dd>{formatMoney(figures.equity, locale)}</dd>
        </div>
        <div>
          <dt>{t('account.available')}</dt>
          <dd>{formatMoney(figures.free, locale)}</dd>
        </div>
        <div>
          <dt>{t('account.margin')}</dt>
          <dd>{formatMargin(figures.margin, locale)}</dd>
        </div>
        <div className={danger ? 'danger' : undefined}>
          <dt>{t('account.riskRate')}</dt>
          <dd>{figures.risk === null ? '—' : formatPercent(figures.risk, locale, false)}</dd>
        </div>
        <div>
          <dt>{t('account.prepaymentRatio')}</dt>
          <dd>{figures.ratio === null ? '—' : formatPercent(figures.ratio, locale, false)}</dd>
        </div>
        <div>
          <dt>{t('account.totalProfit')}</dt>
          <dd className={`profit ${trendOf(figures.profit)}`}>{formatProfit(figures.profit, locale)}</dd>
        </div>
      </dl>
      {danger ? (
        <p className="notice warn" role="alert">
          {t('account.riskWarning', { level: STOP_OUT_PERCENT })}
        </p>
      ) : null}
    </section>
  );
}
