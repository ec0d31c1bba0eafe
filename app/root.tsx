import type { LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import type { ShouldRevalidateFunction } from '@remix-run/react';
import { data, redirect } from '@remix-run/node';
import {
  isRouteErrorResponse,
  Links,
  Meta,
  Outlet,
  Scripts,
  UNSAFE_RemixContext,
  ScrollRestoration,
  useLocation,
  useMatches,
  useNavigation,
  useRouteError,
  useRouteLoaderData,
} from '@remix-run/react';
import { useContext, useEffect } from 'react';
import { useTranslation } from '~/i18n/react';
import { AuthenticityTokenProvider } from 'remix-utils/csrf/react';
import { hydrateLater, useLoadedComponent } from './components/hydrate-later';
import { SideDrawer as ServerDrawer } from './components/side-drawer';
import { TabBar as ServerTabBar } from './components/tab-bar';
import { ToastBanner as ServerToast } from './components/toast';
import { direction, type Language } from './i18n/config';
import { LANGUAGE_TAGS } from '#contract/languages';
import { DEFAULT_LOCALE } from './utils/locale';
import { LiveResync } from './live/resync';
import { getLanguage, i18nFor } from './i18n/i18next.server';
import { resourcesVersion } from './i18n/resources.server';
import { csrf } from './utils/csrf.server';
import { isSharedPage } from './utils/shared-pages.server';
import { SHARED_PATHS } from './utils/shared-pages';
import { lossCheckRedirect } from './utils/loss-check.server';
import { getSession, takeToast, traderOf } from './utils/session.server';
import { ShellStyles } from './utils/shell-styles';
import { numberSymbols } from './utils/format';
import { datePatterns } from './utils/format-date';
import { pageTitle } from './utils/page-title';

export async function loader({ request, context }: LoaderFunctionArgs) {
  // A shared page is the same for every visitor: no token in it, and no cookie set (utils/shared-pages.server).
  const [lossRedirect, lang, session, [csrfToken, csrfCookie]] = await Promise.all([
    lossCheckRedirect(request, context),
    getLanguage(request),
    getSession(request),
    isSharedPage(request) ? ([null, null] as const) : csrf.commitToken(request),
  ]);
  if (lossRedirect) throw redirect(lossRedirect);
  const { toast, clear: clearToast } = await takeToast(request);
  const t = (await i18nFor(lang)).getFixedT(lang);
  const trader = traderOf(session);
  const headers = new Headers();
  if (csrfCookie) headers.append('Set-Cookie', csrfCookie);
  // Reading a toast consumes it: it is shown once.
  if (clearToast) headers.append('Set-Cookie', clearToast);
  return data(
    {
      lang,
      i18nVersion: resourcesVersion,
      // The page's BCP-47 tag, for <html lang> and Intl (utils/locale).
      locale: LANGUAGE_TAGS[lang],
      csrfToken,
      toast,
      user: trader && { email: trader.email, uid: trader.uid, isDemo: trader.isDemo },
      // The titles of screens whose loaders have no words of their own, in the user's language (utils/page-title).
      pageTitles: {
        language: t('language.title'),
        orders: t('orders:title'),
        feedback: t('mine:pages.feedback'),
        login: t('auth:login.title'),
        search: t('market:searchTitle'),
        system: t('mine:system.title'),
        mine: t('mine:title'),
      },
      // The titles of the screens shown when a page cannot be (see utils/page-title).
      errorTitles: {
        notFound: t('errorPage.notFoundTitle'),
        failed: t('errorPage.title'),
        unavailable: t('errorPage.unavailableTitle'),
        demoBlocked: t('mine:demoBlocked.title'),
      },
    },
    { headers },
  );
}

/**
 * Opening a drawer or a dialog changes only the query of the same page: the root's data (language,
 * user, token) cannot have changed, so it is not fetched again. Submissions revalidate, and so does leaving a
 * shared page: it carried no CSRF token, and the next page may have a form.
 */
export const shouldRevalidate: ShouldRevalidateFunction = ({ currentUrl, nextUrl, formMethod, defaultShouldRevalidate }) => {
  if (!formMethod && currentUrl.pathname === nextUrl.pathname) return false;
  if (SHARED_PATHS.includes(currentUrl.pathname)) return true;
  return defaultShouldRevalidate;
};

/** Only a page without a title of its own, or the error page in place of every page, uses this. */
export const meta: MetaFunction<typeof loader> = pageTitle;

export type RootData = Awaited<ReturnType<typeof loader>>['data'];

export function useRootData() {
  return useRouteLoaderData<typeof loader>('root');
}

/** Pages with the bottom tab bar declare `handle = { footer: true }`. */
export interface RouteHandle {
  footer?: boolean;
}

/**
 * Written into <html> by the server only, for the browser's number formatting (utils/number-symbols) and its
 * dates (utils/date-symbols: hydration writes the server's dates without Intl). Not in the loader's data: the
 * page would carry them twice, and the first round trip of a slow link holds only so many bytes.
 */
function localeData(locale: string) {
  return { 'data-number-symbols': JSON.stringify(numberSymbols(locale)), 'data-date-patterns': JSON.stringify(datePatterns(locale)) };
}

export function Layout({ children }: { children: React.ReactNode }) {
  const root = useRootData();
  const lang: Language = root?.lang ?? 'hk';
  const version = root?.i18nVersion ?? '';
  // The shell, the largest script of every page (vite.config.ts), asked for first: on a slow link it takes the
  // connection the page came on, already past TCP's slow start, and leaves with the head, not the body's end.
  const [shell] = useContext(UNSAFE_RemixContext)!.manifest.entry.imports;
  return (
    <html
      lang={root?.locale ?? DEFAULT_LOCALE}
      dir={direction(lang)}
      data-lng={lang}
      data-i18n-version={version}
      // The browser keeps what the server wrote there (a new language is a new document): in development, React
      // is told those attributes are meant to be missing from its own drawing.
      {...(import.meta.env.SSR ? localeData(root?.locale ?? DEFAULT_LOCALE) : import.meta.env.DEV && { suppressHydrationWarning: true })}
    >
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width,initial-scale=1,viewport-fit=cover" />
        <meta name="theme-color" content="#0b1220" />
        <link rel="modulepreload" href={shell} />
        <link rel="preload" as="fetch" href={`/locales/${lang}.json?v=${version}`} crossOrigin="anonymous" />
        <ShellStyles />
        <link rel="manifest" href="/manifest.json" />
        <link rel="icon" href="/favicon.svg" type="image/svg+xml" />
        <link rel="apple-touch-icon" href="/icons/icon-192.png" />
        <Meta />
        <Links />
      </head>
      <body>
        {children}
        <ScrollRestoration />
        <Scripts />
      </body>
    </html>
  );
}

// The closed drawer, the tab bar's links and a toast work as the server drew them until their code comes (components/hydrate-later).
const SideDrawer = hydrateLater(import.meta.env.SSR ? ServerDrawer : null, () =>
  import('./components/side-drawer').then((m) => m.SideDrawer),
);
const TabBar = hydrateLater(import.meta.env.SSR ? ServerTabBar : null, () => import('./components/tab-bar').then((m) => m.TabBar));
const ToastBanner = hydrateLater(import.meta.env.SSR ? ServerToast : null, () => import('./components/toast').then((m) => m.ToastBanner));

// Price alerts' toasts draw nothing until an alert fires, and only for a signed-in trader: their code loads
// after hydration, not with every page's first-load script.
const loadAlertToasts = () => import('./live/alert-toasts').then((m) => m.AlertToasts);
const alertToasts = {};
// The market list's skeleton shows only on a way back to it, never in a first page: it loads after hydration.
const loadSkeleton = () => import('./components/market-skeleton').then((m) => m.MarketSkeleton);
const skeleton = {};

/** Lets a test (or a screen reader script) know the page is interactive, not just painted. */
function useHydratedMark() {
  useEffect(() => {
    document.documentElement.dataset.hydrated = 'true';
  }, []);
}

export default function App() {
  const root = useRootData();
  useHydratedMark();
  const matches = useMatches();
  const footer = matches.some((m) => (m.handle as RouteHandle | undefined)?.footer);
  const location = useLocation();
  const navigation = useNavigation();
  const AlertToasts = useLoadedComponent(loadAlertToasts, alertToasts, !!root?.user);
  const MarketSkeleton = useLoadedComponent(loadSkeleton, skeleton);
  // Arriving at the market list from elsewhere: ten skeleton rows until its data is here (spec §2).
  const loadingMarkets = navigation.state === 'loading' && navigation.location.pathname === '/' && location.pathname !== '/';
  return (
    <AuthenticityTokenProvider token={root?.csrfToken ?? ''}>
      <SideDrawer user={root?.user ?? null} lang={root?.lang ?? 'hk'} here={`${location.pathname}${location.search}`} />
      {root?.toast ? <ToastBanner key={location.key} toast={root.toast} /> : null}
      <div className={footer ? 'app with-tabs' : 'app'}>{loadingMarkets && MarketSkeleton ? <MarketSkeleton /> : <Outlet />}</div>
      {footer ? <TabBar /> : null}
      <LiveResync />
      {AlertToasts && root?.user ? <AlertToasts signedIn /> : null}
    </AuthenticityTokenProvider>
  );
}

export function ErrorBoundary() {
  const error = useRouteError();
  useHydratedMark();
  const { t } = useTranslation();
  const status = isRouteErrorResponse(error) ? error.status : 500;
  const detail = isRouteErrorResponse(error) && status === 503 && typeof error.data === 'string' ? error.data : null;
  // 413 (a form past its bounds) and 415 (a form of a kind this page does not take): the sender can fix it.
  const tooLarge = status === 413 || status === 415;
  const title = t(
    status === 404
      ? 'errorPage.notFoundTitle'
      : status === 503
        ? 'errorPage.unavailableTitle'
        : tooLarge
          ? 'errorPage.tooLargeTitle'
          : 'errorPage.title',
  );
  return (
    <main className="page error-page">
      <h1>{title}</h1>
      <p>{detail ?? t(status === 404 ? 'errorPage.notFound' : tooLarge ? 'errorPage.tooLarge' : 'errorPage.retry')}</p>
      <p className="error-actions">
        {status !== 404 ? <a href="">{t('errorPage.reload')}</a> : null}
        <a href="/">{t('errorPage.home')}</a>
      </p>
    </main>
  );
}
