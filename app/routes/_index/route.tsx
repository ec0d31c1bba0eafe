/**
 * Home: the market list (spec §2). Category chips (GET links), a search icon, the language flag, and a
 * row per instrument with its logo, code, price, change and a server-drawn sparkline. With JavaScript the
 * prices move live; a tap opens the trade screen on that instrument.
 */
import type { LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { Link, useLoaderData } from '@remix-run/react';
import { useTranslation } from '~/i18n/react';
import { LanguageFlag } from '~/components/language-flag';
import { PageHeader } from '~/components/page-header';
import { thinPoints } from '~/components/sparkline';
import { getLanguage } from '~/i18n/i18next.server';
import { LANGUAGE_NAMES } from '~/i18n/language-names';
import { useLiveStream } from '~/live/hooks';
import { loaderFailure, upstreamApi, upstreamFallback } from '~/upstream/api.server';
import { instrumentList, listCategories, sparklines } from '~/upstream/market.server';
import { useLanguage } from '~/utils/locale';
import type { RouteHandle } from '~/root';
import { CategoryChips } from './category-chips';
import { MarketList, rowInstrument } from './market-list';

export const handle: RouteHandle = { footer: true };

export const meta: MetaFunction = () => [{ title: 'LotFX' }];

export async function loader({ request, context }: LoaderFunctionArgs) {
  const api = await upstreamApi(request, context);
  const category = Number(new URL(request.url).searchParams.get('category')) || null;
  try {
    const [{ instruments }, categories, lines, lang] = await Promise.all([
      instrumentList(api),
      listCategories(api),
      // Sparklines are decoration: the list shows without them.
      sparklines(api).catch(upstreamFallback([], 'sparklines')),
      getLanguage(request),
    ]);
    const shown = category ? instruments.filter((i) => i.categoryId === category) : instruments;
    return {
      // What the rows draw, not the whole instrument: the page's data, in its HTML and decoded as it hydrates,
      // went from 18.5 to 12.9 KB (the sparklines are most of the rest).
      instruments: shown.map(rowInstrument),
      categories,
      category,
      // The flag's link is named with it; the eighteen names stay out of the page's script.
      languageName: LANGUAGE_NAMES[lang],
      sparklines: Object.fromEntries(lines.map((l) => [l.instrumentId, thinPoints(l.points)])) as Record<number, number[]>,
    };
  } catch (error) {
    return loaderFailure(request, error);
  }
}

export default function Home() {
  const { instruments, categories, category, sparklines, languageName } = useLoaderData<typeof loader>();
  const { t } = useTranslation('market');
  const lang = useLanguage();
  // Every instrument's quotes: naming a category's rows would save its stream some bytes but cost every
  // first visit's script as many (this page's first-load JS is at its 100 KiB budget). Drawn twice a second at
  // most: a list is glanced at, and each frame of prices costs a phone a layout and a paint of the screen
  // (decision 0025). The trade screen draws every tick.
  useLiveStream({ pace: 500 });
  return (
    <main className="page">
      <PageHeader title={t('title')}>
        <Link to="/product" className="icon-link" aria-label={t('search')}>
          <svg viewBox="0 0 24 24" width="22" height="22" aria-hidden="true" className="line-icon">
            <circle cx="11" cy="11" r="7" />
            <path d="M20 20l-4-4" />
          </svg>
        </Link>
        <Link to="/language" className="icon-link flag" aria-label={`${t('language')}: ${languageName}`}>
          <LanguageFlag lang={lang} />
        </Link>
      </PageHeader>
      <CategoryChips categories={categories} selected={category} />
      <MarketList instruments={instruments} categories={categories} sparklines={sparklines} />
    </main>
  );
}
