/** One copy-trade leader: initials, name, instrument, leverage and followers, the three-week return and the other figures. */
import { Link } from '@remix-run/react';
import { useTranslation } from '~/i18n/react';
import type { Leader } from '~/upstream/content.server';
import { formatInteger, formatMoney, formatPercent, trendOf } from '~/utils/format';
import { useLocale } from '~/utils/locale';

/** Up to two letters of the name, whatever its script. */
export function initialsOf(name: string): string {
  return name
    .split(/\s+/)
    .filter(Boolean)
    .map((word) => Array.from(word)[0]!)
    .slice(0, 2)
    .join('')
    .toLocaleUpperCase();
}

export function LeaderRow({ leader, to, onTap }: { leader: Leader; to: string; onTap: (leader: Leader) => void }) {
  const { t } = useTranslation('content');
  const locale = useLocale();
  return (
    <Link
      to={to}
      className="rank-item"
      preventScrollReset
      onClick={(e) => {
        e.preventDefault();
        onTap(leader);
      }}
    >
      <span className="avatar" aria-hidden="true">
        {initialsOf(leader.name)}
      </span>
      <span className="rank-main">
        <strong>
          <bdi>{leader.name}</bdi>
        </strong>
        <span className="muted">
          {leader.code} · {t('rank.leverage', { multiple: leader.leverage })} · {t('rank.followers', { count: leader.followers })}
        </span>
      </span>
      <span className={`rank-return ${trendOf(leader.threeWeekReturn)}`}>
        {formatPercent(leader.threeWeekReturn, locale)}
        <small>{t('rank.threeWeeks')}</small>
      </span>
      <dl className="rank-figures">
        <div>
          <dt>{t('rank.winRate')}</dt>
          <dd>{formatPercent(leader.threeWeekWinRate, locale, false)}</dd>
        </div>
        <div>
          <dt>{t('rank.profit')}</dt>
          <dd className={trendOf(leader.threeWeekProfit)}>{formatMoney(leader.threeWeekProfit, locale)} USD</dd>
        </div>
        <div>
          <dt>{t('rank.totalReturn')}</dt>
          <dd className={trendOf(leader.totalReturn)}>{formatPercent(leader.totalReturn, locale)}</dd>
        </div>
        <div>
          <dt>{t('rank.trades')}</dt>
          <dd>{formatInteger(leader.totalTrades, locale)}</dd>
        </div>
      </dl>
    </Link>
  );
}
