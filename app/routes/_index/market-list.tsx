/** The rows of the market list; prices follow the live stream once the page is hydrated. */
import { Link } from '@remix-run/react';
import { useTranslation } from 'react-i18next';
import type { Category, Instrument } from '#contract/calls/market';
import { MarketStatus } from '#contract/enums';
import { Sparkline } from '~/components/sparkline';
import { useFeedHealth, useLiveQuotes } from '~/live/hooks';
import { formatPercent, formatPrice, trendOf } from '~/utils/format';
import { useLocale } from '~/utils/locale';

export function MarketList({
  instruments,
  categories,
  sparklines,
}: {
  instruments: Instrument[];
  categories: Category[];
  sparklines: Record<number, number[]>;
}) {
  const { t } = useTranslation('market');
  const locale = useLocale();
  const quotes = useLiveQuotes();
  const health = useFeedHealth();
  const categoryName = new Map(categories.map((c) => [c.Id, c.NameShowTrans]));
  if (instruments.length === 0) return <p className="empty">{t('empty')}</p>;
  return (
    <>
      {health === 'stale' || health === 'down' ? (
        <p className="notice warn stale-badge" role="status">
          {t('stale')}
        </p>
      ) : null}
      <ul className="market-list" aria-label={t('listLabel')}>
        {instruments.map((i) => {
          const live = quotes.get(i.Id);
          const close = live?.close ?? i.ForexQuotations.Close;
          const change = live?.change ?? i.ForexQuotations.Change;
          const open = (live?.market_status ?? i.MarketStatus) === MarketStatus.Open;
          const trend = trendOf(change);
          const line = sparklines[i.Id] ?? [];
          return (
            <li key={i.Id} aria-label={i.ShowCode}>
              <Link to={`/trade?code=${encodeURIComponent(i.Code)}`} className="market-row" prefetch="intent">
                <img className="logo" src={`/logos/${i.Code.toLowerCase()}.svg`} alt="" width={32} height={32} loading="lazy" />
                <span className="code">
                  <strong>{i.ShowCode}</strong>
                  <small>{categoryName.get(i.CategoryId)}</small>
                </span>
                <Sparkline points={live && line.length ? [...line.slice(0, -1), close] : line} trend={trend} />
                <span className="quote">
                  <span className="price" data-testid="price">
                    {formatPrice(close, i.PricePrecision, locale)}
                  </span>
                  <span className={`change ${open ? trend : 'closed'}`} data-testid="change">
                    {open ? formatPercent(change, locale) : t('closed')}
                  </span>
                </span>
              </Link>
            </li>
          );
        })}
      </ul>
    </>
  );
}
