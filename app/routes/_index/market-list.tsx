/** The rows of the market list; prices follow the live stream once the page is hydrated. */
import { Link } from '@remix-run/react';
import { memo, useMemo, useRef } from 'react';
import { useTranslation } from '~/i18n/react';
import type { Category, Instrument, Quote } from '#contract/views';
import { drawSparkline, Sparkline } from '~/components/sparkline';
import { useLiveQuoteDraw } from '~/live/hooks';
import { flashPrice } from '~/live/price-flash';
import { StaleNotice } from '~/live/stale-notice';
import { formatPercent, formatPrice, trendOf } from '~/utils/format';
import { useLocale } from '~/utils/locale';
import { instrumentLogo } from '~/utils/instrument-logo';

/** What a row draws of an instrument: the page's data carries this much of each (issue 12). */
export type MarketRowInstrument = Pick<Instrument, 'id' | 'code' | 'symbol' | 'categoryId' | 'digits'> & {
  quote: Pick<Quote, 'price' | 'change' | 'marketOpen'>;
};

export function rowInstrument(i: Instrument): MarketRowInstrument {
  const { id, code, symbol, categoryId, digits, quote } = i;
  return { id, code, symbol, categoryId, digits, quote: { price: quote.price, change: quote.change, marketOpen: quote.marketOpen } };
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
  const categoryName = useMemo(() => new Map(categories.map((c) => [c.id, c.name])), [categories]);
  if (instruments.length === 0) return <p className="empty">{t('empty')}</p>;
  return (
    <>
      <StaleNotice text={t('stale')} />
      <ul className="market-list" aria-label={t('listLabel')}>
        {instruments.map((i) => (
          <MarketRow key={i.id} instrument={i} category={categoryName.get(i.categoryId)} line={sparklines[i.id]} />
        ))}
      </ul>
    </>
  );
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
  return (
    <li aria-label={i.symbol}>
      <Link to={`/trade?code=${encodeURIComponent(i.code)}`} className="market-row" prefetch="intent">
        <img className="logo" src={instrumentLogo(i.code)} alt="" width={32} height={32} loading="lazy" />
        <span className="code">
          <strong>{i.symbol}</strong>
          <small>{category}</small>
        </span>
        <RowQuote instrument={i} line={line} />
      </Link>
    </li>
  );
});

/**
 * The part of a row that follows the feed. React draws it from the page's data (as the server did); each tick of
 * its instrument is then written into its nodes directly (`useLiveQuoteDraw`), with no render: a few text and
 * attribute writes a row. A row far off screen takes none; scrolled near the screen, it shows the latest quote at
 * once.
 */
function RowQuote({ instrument: i, line }: { instrument: MarketRowInstrument; line: number[] }) {
  const { t } = useTranslation('market');
  const locale = useLocale();
  // The quote's two spans and the sparkline before it are what a tick redraws.
  const quote = useRef<HTMLSpanElement>(null);
  const drawnPrice = useRef(i.quote.price);
  /** What the row shows of a quote, one rule for React's render and a tick's: trend, price, change, its class. */
  const shown = (price: number, changed: number, open: boolean) => {
    const trend = trendOf(changed);
    return [
      trend,
      formatPrice(price, i.digits, locale),
      open ? formatPercent(changed, locale) : t('closed'),
      `change ${open ? trend : 'closed'}`,
    ] as const;
  };
  useLiveQuoteDraw(i.id, quote, (q) => {
    const [trend, priceText, changeText, changeClass] = shown(q.price, q.change, q.marketOpen);
    const [price, change] = quote.current!.children as unknown as [HTMLElement, HTMLElement];
    // (A row without a line has no paths to redraw: drawSparkline leaves it.)
    drawSparkline(quote.current!.previousElementSibling as SVGSVGElement, [...line.slice(0, -1), q.price], trend);
    flashPrice(price, drawnPrice.current, q.price);
    drawnPrice.current = q.price;
    putText(price, priceText);
    putText(change, changeText);
    if (change.className !== changeClass) change.className = changeClass;
  });
  const [trend, priceText, changeText, changeClass] = shown(i.quote.price, i.quote.change, i.quote.marketOpen);
  return (
    <>
      <Sparkline points={line} trend={trend} />
      <span className="quote" ref={quote}>
        <span className="price" data-testid="price">
          {priceText}
        </span>
        <span className={changeClass} data-testid="change">
          {changeText}
        </span>
      </span>
    </>
  );
}

/**
 * Sets a span's text only when it changed (an equal write would still cost the phone a layout), into its own text
 * node: `textContent` would put a new node in its place, and each new node is styled anew (the 4× CPU steady state
 * of `/`: frames about a tenth shorter; decision 0027).
 */
function putText(node: HTMLElement, value: string) {
  const text = node.firstChild;
  // Anything else in the span (a page translator's wrapper): its text whole, once; a lone text node from then on.
  if (text?.nodeType !== 3 || text.nextSibling) node.textContent = value;
  else if ((text as Text).data !== value) (text as Text).data = value;
}

const NO_POINTS: number[] = [];
