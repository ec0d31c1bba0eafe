/**
 * The account in seven figures (spec §3 "Account"): balance, net value, available, used margin, risk
 * rate, prepayment ratio and total profit and loss, with a warning when the risk rate nears the stop-out
 * level. Precisions of spec §9: balance 2 decimals, profit and margin up to 6. Server data first; live after.
 */
import { useTranslation } from '~/i18n/react';
import { RISK_WARNING_PERCENT, STOP_OUT_PERCENT } from '#contract/arithmetic';
import type { AccountFigures as Figures } from '#contract/views';
import { useLiveAccount } from '~/live/state';
import { formatMargin, formatMoney, formatPercent, formatProfit, trendOf } from '~/utils/format';
import { useLocale } from '~/utils/locale';

export function AccountFigures({ account }: { account: Figures }) {
  const { t } = useTranslation('trade');
  const locale = useLocale();
  // The page's figures and the stream's are the same view.
  const figures = useLiveAccount() ?? account;
  const danger = figures.riskRate !== null && figures.riskRate <= RISK_WARNING_PERCENT;
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
          <dd>{formatMoney(figures.freeMargin, locale)}</dd>
        </div>
        <div>
          <dt>{t('account.margin')}</dt>
          <dd>{formatMargin(figures.margin, locale)}</dd>
        </div>
        <div className={danger ? 'danger' : undefined}>
          <dt>{t('account.riskRate')}</dt>
          <dd>{figures.riskRate === null ? '—' : formatPercent(figures.riskRate, locale, false)}</dd>
        </div>
        <div>
          <dt>{t('account.prepaymentRatio')}</dt>
          <dd>{figures.marginRatio === null ? '—' : formatPercent(figures.marginRatio, locale, false)}</dd>
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
