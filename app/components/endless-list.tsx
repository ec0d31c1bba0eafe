/**
 * The endless list of every paged screen (orders, account history, deposits, withdrawals, news): the
 * server renders one page with a "Next page" link; with JavaScript that link loads the next page into the
 * list (a fetcher) when it scrolls into view. Without JavaScript the link is simply the next page.
 */
import { Link, useFetcher } from '@remix-run/react';
import { useCallback, useEffect, useRef, useState } from 'react';
import { useTranslation } from '~/i18n/react';

/** One page of a list as a loader answers it; `list` names which list (a tab), so pages of two lists never mix. */
export interface ListPage<T> {
  list?: string | number;
  page: number;
  items: T[];
  hasMore: boolean;
}

/**
 * Page one from the loader plus the pages loaded after it. New loader data (a refresh, another tab)
 * starts the list again from the loader's page. `url(page)` is the loader URL of a page.
 */
export function usePagedList<T, P extends ListPage<T> = ListPage<T>>(
  first: P,
  idOf: (item: T) => string | number,
  url: (page: number) => string,
) {
  const fetcher = useFetcher<P>();
  const [more, setMore] = useState<P[]>([]);
  const [base, setBase] = useState(first);
  if (base !== first) {
    setBase(first);
    setMore([]);
  }
  useEffect(() => {
    // Loader data arrives as JSON: the page types here are plain data, so this is the same shape.
    const next = fetcher.data as P | undefined;
    if (!next || next.list !== first.list || next.page <= first.page) return;
    setMore((pages) => [...pages.filter((p) => p.page !== next.page), next].sort((a, b) => a.page - b.page));
    // Only a new answer is added; the loader's own data is read at that moment.
  }, [fetcher.data]); // eslint-disable-line react-hooks/exhaustive-deps

  const pages = [first, ...more];
  const last = pages.at(-1)!;
  const seen = new Set<string | number>();
  const items: T[] = [];
  for (const page of pages) {
    for (const item of page.items) {
      // A new row shifts the pages by one: the same row may come back on the next page.
      const id = idOf(item);
      if (!seen.has(id)) items.push(item);
      seen.add(id);
    }
  }
  const nextPage = last.page + 1;
  const loading = fetcher.state !== 'idle';
  const load = fetcher.load;
  const loadMore = useCallback(() => {
    if (!loading && last.hasMore) load(url(nextPage));
  }, [loading, last.hasMore, load, url, nextPage]);
  const reset = useCallback(() => setMore([]), []);
  return { items, pages, hasMore: last.hasMore, nextPage, nextUrl: url(nextPage), loading, loadMore, reset };
}

/** The "Next page" link; with JavaScript it loads the next page in place when it comes into view. */
export function NextPageLink({ to, loading, onLoad }: { to: string; loading: boolean; onLoad: () => void }) {
  const { t } = useTranslation('common');
  const ref = useRef<HTMLAnchorElement>(null);
  useEffect(() => {
    const link = ref.current;
    if (!link || typeof IntersectionObserver === 'undefined') return;
    const observer = new IntersectionObserver((entries) => entries.some((e) => e.isIntersecting) && onLoad(), { rootMargin: '240px 0px' });
    observer.observe(link);
    return () => observer.disconnect();
  }, [onLoad, to]);
  return (
    <Link
      ref={ref}
      to={to}
      className="button secondary block next-page"
      aria-disabled={loading || undefined}
      preventScrollReset
      onClick={(e) => {
        e.preventDefault();
        onLoad();
      }}
    >
      {loading ? t('more.loading') : t('more.next')}
    </Link>
  );
}
