/** The instrument's day quote: the price (big) and its change, then high, low, open and volume; a link to its contract. */
import { Link } from '@remix-run/react';
import { useEffect, useRef } from 'react';
import { useTranslation } from '~/i18n/react';
import type { Quote } from '#contract/views';
import { flashPrice } from '~/live/price-flash';
import { formatPercent, formatPrice, trendOf } from '~/utils/format';
import { useLocale } from '~/utils/locale';

export function QuotePanel({ quote, precision, code }: { quote: Quote; precision: number; code: string }) {
  const { t } = useTranslation('trade');
  const contract = useTranslation('contract').t;
  const locale = useLocale();
  const trend = trendOf(quote.change);
  const priceCell = useRef<HTMLSpanElement>(null);
  const shownPrice = useRef(quote.price);
  useEffect(() => {
    flashPrice(priceCell.current!, shownPrice.current, quote.price);
    shownPrice.current = quote.price;
  }, [quote.price]);
  const stats = [
    ['high', formatPrice(quote.high, precision, locale)],
    ['low', formatPrice(quote.low, precision, locale)],
    ['open', formatPrice(quote.open, precision, locale)],
    // Volume is a count: shown like a price with no decimals.
    ['volume', formatPrice(quote.volume, 0, locale)],
  ] as const;
  return (
    <section className="quote-panel" aria-label={t('quote.label')}>
      <div className="quote-head">
        <span className={`trade-price ${trend}`} data-testid="trade-price" ref={priceCell}>
          {formatPrice(quote.price, precision, locale)}
        </span>
        <span className={`change ${trend}`} data-testid="trade-change">
          {formatPercent(quote.change, locale)}
        </span>
        {!quote.marketOpen ? <span className="badge closed-badge">{t('quote.closed')}</span> : null}
      </div>
      <dl className="day-stats">
        {stats.map(([key, value]) => (
          <div key={key}>
            <dt>{t(`quote.${key}`)}</dt>
            <dd data-testid={`quote-${key}`}>{value}</dd>
          </div>
        ))}
      </dl>
      <p className="contract-link-row">
        <Link to={`/contract/${encodeURIComponent(code)}`}>{contract('link')}</Link>
      </p>
    </section>
  );
}
