/** The rows of the market list; prices follow the live stream once the page is hydrated. */
import { Link } from '@remix-run/react';
import { memo, useMemo, useRef, type RefObject } from 'react';
import { useTranslation } from '~/i18n/react';
import type { Category, Instrument } from '#contract/calls/market';
import { MarketStatus } from '#contract/enums';
import { Sparkline } from '~/components/sparkline';
import { useFeedHealth, useLiveQuote } from '~/live/hooks';
import { formatPercent, formatPrice, trendOf } from '~/utils/format';
import { useLocale } from '~/utils/locale';
import { useNearScreen } from '~/utils/near-screen';
import { instrumentLogo } from '~/utils/instrument-logo';

/** What a row draws of an instrument: the page's data carries this much of each (issue 12). */
export type MarketRowInstrument = Pick<Instrument, 'Id' | 'Code' | 'ShowCode' | 'CategoryId' | 'MarketStatus' | 'PricePrecision'> & {
  ForexQuotations: Pick<Instrument['ForexQuotations'], 'Close' | 'Change'>;
};

export function rowInstrument(i: Instrument): MarketRowInstrument {
  const { Id, Code, ShowCode, CategoryId, MarketStatus, PricePrecision } = i;
  return {
    Id,
    Code,
    ShowCode,
    CategoryId,
    MarketStatus,
    PricePrecision,
    ForexQuotations: { Close: i.ForexQuotations.Close, Change: i.ForexQuotations.Change },
  };
}

export function MarketList({
  instruments,
  categories,
  sparklines,
}: {
  instruments: MarketRowInstrument[];
  categories: Category[];
  sparklines: Record<number, number[]>;
}) {
  const { t } = useTranslation('market');
  const categoryName = useMemo(() => new Map(categories.map((c) => [c.Id, c.NameShowTrans])), [categories]);
  if (instruments.length === 0) return <p className="empty">{t('empty')}</p>;
  return (
    <>
      <StaleBadge />
      <ul className="market-list" aria-label={t('listLabel')}>
        {instruments.map((i) => (
          <MarketRow key={i.Id} instrument={i} category={categoryName.get(i.CategoryId)} line={sparklines[i.Id]} />
        ))}
      </ul>
    </>
  );
}

/** Only this badge follows the feed's health. */
function StaleBadge() {
  const { t } = useTranslation('market');
  const health = useFeedHealth();
  return health === 'stale' || health === 'down' ? (
    <p className="notice warn stale-badge" role="status">
      {t('stale')}
    </p>
  ) : null;
}

/** A row: its link, logo and names never re-render on a tick (only RowQuote, below, follows the feed). */
const MarketRow = memo(function MarketRow({
  instrument: i,
  category,
  line = NO_POINTS,
}: {
  instrument: MarketRowInstrument;
  category?: string;
  line?: number[];
}) {
  const row = useRef<HTMLLIElement>(null);
  return (
    <li aria-label={i.ShowCode} ref={row}>
      <Link to={`/trade?code=${encodeURIComponent(i.Code)}`} className="market-row" prefetch="intent">
        <img className="logo" src={instrumentLogo(i.Code)} alt="" width={32} height={32} loading="lazy" />
        <span className="code">
          <strong>{i.ShowCode}</strong>
          <small>{category}</small>
        </span>
        <RowQuote instrument={i} line={line} row={row} />
      </Link>
    </li>
  );
});

/**
 * The part of a row that follows the feed: its own instrument's tick re-renders this, and nothing else. A row
 * far off screen does not follow its ticks (a burst of quotes would render the whole list on a weak phone);
 * scrolled near the screen, it shows the latest quote at once. Watched here, not in the row, so the rows the
 * observer finds off screen after hydration redraw only this.
 */
function RowQuote({ instrument: i, line, row }: { instrument: MarketRowInstrument; line: number[]; row: RefObject<HTMLLIElement> }) {
  const { t } = useTranslation('market');
  const locale = useLocale();
  const nearScreen = useNearScreen(row);
  const live = useLiveQuote(i.Id, !nearScreen);
  const close = live?.close ?? i.ForexQuotations.Close;
  const change = live?.change ?? i.ForexQuotations.Change;
  const open = (live?.market_status ?? i.MarketStatus) === MarketStatus.Open;
  const trend = trendOf(change);
  return (
    <>
      <Sparkline points={live && line.length ? [...line.slice(0, -1), close] : line} trend={trend} />
      <span className="quote">
        <span className="price" data-testid="price">
          {formatPrice(close, i.PricePrecision, locale)}
        </span>
        <span className={`change ${open ? trend : 'closed'}`} data-testid="change">
          {open ? formatPercent(change, locale) : t('closed')}
        </span>
      </span>
    </>
  );
}

const NO_POINTS: number[] = [];
