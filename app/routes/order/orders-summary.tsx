/**
 * The head of a tab's list: how many orders, their profit and the balance, with a refresh link (in place with
 * JavaScript); on the holding tab, the links that ask to close the losing, the winning or all positions.
 */
import { Link } from '@remix-run/react';
import { useTranslation } from '~/i18n/react';
import type { OrderTab } from '#contract/enums';
import { formatInteger, formatMoney, formatProfit, trendOf } from '~/utils/format';
import { useLocale } from '~/utils/locale';
import { ordersUrl } from './orders-url';

export function OrdersSummary({
  count,
  profit,
  balance,
  listUrl,
  refreshing,
  onRefresh,
}: {
  count: number;
  profit: number;
  balance: number;
  listUrl: string;
  refreshing: boolean;
  onRefresh: () => void;
}) {
  const { t } = useTranslation('orders');
  const locale = useLocale();
  return (
    <section className="orders-summary" aria-label={t('summary.label')}>
      <dl>
        <div>
          <dt>{t('summary.count')}</dt>
          <dd>{formatInteger(count, locale)}</dd>
        </div>
        <div>
          <dt>{t('summary.profit')}</dt>
          <dd className={`order-profit ${trendOf(profit)}`}>{formatProfit(profit, locale)}</dd>
        </div>
        <div>
          <dt>{t('summary.balance')}</dt>
          <dd>{formatMoney(balance, locale)}</dd>
        </div>
      </dl>
      <Link
        to={listUrl}
        className="refresh-link"
        preventScrollReset
        onClick={(e) => {
          e.preventDefault();
          onRefresh();
        }}
      >
        {refreshing ? t('refresh.refreshing') : t('refresh.link')}
      </Link>
    </section>
  );
}

/** Each opens the close-all confirmation (`?confirm=close-all&scope=…`), which the server draws with its figures. */
export function CloseAllLinks({ type, page }: { type: OrderTab; page: number }) {
  const { t } = useTranslation('orders');
  return (
    <nav className="close-all" aria-label={t('closeAll.label')}>
      {(['loss', 'profit', 'all'] as const).map((scope) => (
        <Link key={scope} to={ordersUrl({ type, page, closeAll: scope })} className="button secondary" preventScrollReset>
          {t(`closeAll.link.${scope}`)}
        </Link>
      ))}
    </nav>
  );
}
