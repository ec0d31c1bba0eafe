/**
 * The instrument drawer (`?drawer=1`): every instrument with its price, each a link to `/trade?code=X`.
 * Rendered by the server from the URL; with JavaScript the route skips its loaders for this change, so
 * it opens at once, follows live prices and closes with Escape.
 */
import { Link } from '@remix-run/react';
import { memo } from 'react';
import { useTranslation } from '~/i18n/react';
import type { ChartPeriod } from '#contract/enums';
import type { Instrument, Quote } from '#contract/views';
import { useDialog } from '~/components/use-dialog';
import { useLiveQuote } from '~/live/state';
import { formatPercent, formatPrice, trendOf } from '~/utils/format';
import { useLocale } from '~/utils/locale';
import { tradeUrl } from './trade-url';
import { instrumentLogo } from '~/utils/instrument-logo';

/** One row of the drawer: what it draws of an instrument. */
export type DrawerRow = Pick<Instrument, 'id' | 'code' | 'symbol' | 'digits'> & { quote: Pick<Quote, 'price' | 'change'> };

export function drawerRow({ id, code, symbol, digits, quote }: Instrument): DrawerRow {
  return { id, code, symbol, digits, quote: { price: quote.price, change: quote.change } };
}

export function InstrumentDrawer({
  rows,
  current,
  period,
  closeTo,
}: {
  rows: DrawerRow[];
  current: string;
  period: ChartPeriod;
  closeTo: string;
}) {
  const { t } = useTranslation('trade');
  const heading = useDialog<HTMLHeadingElement>({ to: closeTo, replace: true });
  return (
    <div className="dialog-backdrop drawer-backdrop">
      <Link to={closeTo} className="drawer-scrim" replace preventScrollReset tabIndex={-1} aria-hidden="true" />
      <section className="instrument-drawer" role="dialog" aria-modal="true" aria-labelledby="instrument-drawer-title">
        <header className="drawer-head">
          <h2 id="instrument-drawer-title" ref={heading} tabIndex={-1}>
            {t('drawer.title')}
          </h2>
          <Link to={closeTo} replace preventScrollReset className="button secondary">
            {t('drawer.close')}
          </Link>
        </header>
        <ul className="list" aria-label={t('drawer.title')}>
          {rows.map((row) => (
            <DrawerItem key={row.id} row={row} period={period} current={row.code === current} />
          ))}
        </ul>
      </section>
    </div>
  );
}

/** One instrument: a tick of its own re-renders it, and nothing else in the list. */
const DrawerItem = memo(function DrawerItem({ row, period, current }: { row: DrawerRow; period: ChartPeriod; current: boolean }) {
  const locale = useLocale();
  const live = useLiveQuote(row.id);
  const price = live?.price ?? row.quote.price;
  const change = live?.change ?? row.quote.change;
  return (
    <li>
      <Link to={tradeUrl(row.code, period)} className="list-item" aria-current={current ? 'page' : undefined}>
        <img src={instrumentLogo(row.code)} alt="" width={28} height={28} loading="lazy" />
        <strong className="grow">{row.symbol}</strong>
        <span className="price">{formatPrice(price, row.digits, locale)}</span>
        <span className={`change ${trendOf(change)}`}>{formatPercent(change, locale)}</span>
      </Link>
    </li>
  );
});
