import { useTranslation } from 'react-i18next';
import type { Category, Instrument } from '#contract/calls/market';
import { MarketStatus } from '#contract/enums';

export function formatPrice(value: number, precision: number, locale = 'en') {
  return new Intl.NumberFormat(locale, { minimumFractionDigits: precision, maximumFractionDigits: precision }).format(value);
}

export function formatChange(percent: number, locale = 'en') {
  const sign = percent > 0 ? '+' : '';
  return `${sign}${new Intl.NumberFormat(locale, { minimumFractionDigits: 2, maximumFractionDigits: 2 }).format(percent)}%`;
}

export function MarketList({ instruments, categories }: { instruments: Instrument[]; categories: Category[] }) {
  const { t, i18n } = useTranslation('market');
  const locale = i18n.language;
  const categoryName = new Map(categories.map((c) => [c.Id, c.NameShowTrans]));
  if (instruments.length === 0) return <p className="empty">{t('empty')}</p>;
  return (
    <ul className="market-list" aria-label={t('listLabel')}>
      {instruments.map((i) => {
        const q = i.ForexQuotations;
        const trend = q.Change > 0 ? 'up' : q.Change < 0 ? 'down' : 'flat';
        const closed = i.MarketStatus !== MarketStatus.Open;
        return (
          <li key={i.Id} className="market-row" aria-label={i.ShowCode}>
            <img className="logo" src={`/logos/${i.Code.toLowerCase()}.svg`} alt="" width={32} height={32} loading="lazy" />
            <span className="code">
              <strong>{i.ShowCode}</strong>
              <small>{categoryName.get(i.CategoryId)}</small>
            </span>
            <span className="price" data-testid="price">
              {formatPrice(q.Close, i.PricePrecision)}
            </span>
            <span className={`change ${trend}`}>{closed ? <span className="closed">{t('closed')}</span> : formatChange(q.Change, locale)}</span>
          </li>
        );
      })}
    </ul>
  );
}
