/**
 * /trade (spec §2 "Trade", §5 "Order"): the instrument (a drawer picks another), its live price and day
 * quote, the period bar and chart, the account, and the order ticket. Public to view; placing an order
 * needs a login, checked by the action. Everything renders on the server from the URL; JavaScript adds
 * live prices, in-place estimates and a drawer that opens without a round trip.
 */
import type { SubmissionResult } from '@conform-to/react';
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { data, redirect } from '@remix-run/node';
import {
  Link,
  useActionData,
  useLoaderData,
  useLocation,
  type ClientLoaderFunctionArgs,
  type ShouldRevalidateFunction,
} from '@remix-run/react';
import { useMemo } from 'react';
import { useTranslation } from '~/i18n/react';
import { useHydrated } from 'remix-utils/use-hydrated';
import { EntryMode } from '#contract/enums';
import type { Instrument } from '#contract/views';
import { AccountFigures } from '~/components/account-figures';
import { preloadIndicatorLegend } from '~/components/candle-chart';
import { useFeedHealth, useLiveStream } from '~/live/hooks';
import { useLiveQuote } from '~/live/state';
import type { RouteHandle } from '~/root';
import { loaderFailure, upstreamApi, upstreamFallback, UpstreamError, UpstreamUnavailable } from '~/upstream/api.server';
import { UPSTREAM_TIMEOUT_MS } from '~/upstream/client.server';
import { instrumentList } from '~/upstream/market.server';
import { placeOrder } from '~/upstream/trade.server';
import { invalid, readForm, replyWithFailure } from '~/utils/form-action.server';
import { oneTapChosen } from '~/utils/one-tap.server';
import { loginRedirect } from '~/utils/session.server';
import tradeCss from '~/styles/trade.css?inline';
import { InstrumentDrawer } from './instrument-drawer';
import { carryFields } from '~/components/carry-fields';
import { hydrateLater } from '~/components/hydrate-later';
import { OrderBlockContext, type OrderBlock } from './order-block';
import { OrderForm as ServerOrderForm } from './order-form';
import { OrderPlaced } from './order-placed';
import { loadTradeScreen, tradeCodeCookie } from './queries.server';
import { confirmationUrl } from './kept-ticket.server';
import { QuotePanel } from './quote-panel';
import { orderRulesOf } from './order-rules';
import { orderSchemaFor } from './schema';
import { tradeUrl } from './trade-url';
import { ChartSection, IndicatorSheet } from './chart-section';
import { instrumentLogo } from '~/utils/instrument-logo';

// The ticket's code (conform's with it) is not in the page's first script: the server's ticket works as drawn (it
// posts) until its code comes once the page is idle, and what was typed meanwhile is carried over (decision 0030).
// Over HTTP/1.1 each file of the first script is a request sharing a slow link with the shell.
const OrderForm = hydrateLater(import.meta.env.SSR ? ServerOrderForm : null, () => import('./order-form').then((m) => m.OrderForm), {
  carry: carryFields,
});

export const handle: RouteHandle = { footer: true };

export const meta: MetaFunction<typeof loader> = ({ data: page }) => [{ title: page ? `${page.instrument.symbol} · LotFX` : 'Trade' }];

export async function loader({ request, context }: LoaderFunctionArgs) {
  const api = await upstreamApi(request, context);
  let screen: Awaited<ReturnType<typeof loadTradeScreen>>;
  try {
    screen = await loadTradeScreen(api, request);
  } catch (error) {
    return loaderFailure(request, error);
  }
  const { rememberCode, ...page } = screen;
  const headers = new Headers();
  if (rememberCode) headers.append('Set-Cookie', await tradeCodeCookie.serialize(rememberCode));
  return data({ ...page, oneTap: oneTapChosen(request) }, { headers });
}

/** Opening the drawer or closing a popup changes only `drawer`/`placed`: no need to load the page again. */
export const shouldRevalidate: ShouldRevalidateFunction = ({ currentUrl, nextUrl, formMethod, defaultShouldRevalidate }) => {
  if (formMethod || currentUrl.pathname !== nextUrl.pathname || currentUrl.href === nextUrl.href) return defaultShouldRevalidate;
  const rest = (url: URL) => {
    const params = new URLSearchParams(url.search);
    params.delete('drawer');
    params.delete('placed');
    params.sort();
    return params.toString();
  };
  return rest(currentUrl) === rest(nextUrl) ? false : defaultShouldRevalidate;
};

/** How long the action waits for the product rules: the order itself gets the rest of one timeout. */
const RULES_WAIT_MS = 1500;
/** The order's wait never drops below this, however long the rules took. */
const MIN_ORDER_WAIT_MS = 2000;

/** A trader coming from another screen (no server markup to keep) gets the ticket's, the sheet's and the legend's code with its data. */
export async function clientLoader({ serverLoader }: ClientLoaderFunctionArgs) {
  const loaded = [OrderForm.preload(), IndicatorSheet.preload(), preloadIndicatorLegend()];
  return (await Promise.all([serverLoader<typeof loader>(), ...loaded]))[0];
}

export async function action({ request, context }: ActionFunctionArgs) {
  const startedAt = Date.now();
  const api = await upstreamApi(request, context);
  // The instrument's rules for the form's checks; if the list cannot be read the upstream still checks them.
  const instruments: Instrument[] = await instrumentList(api, undefined, { timeoutMs: RULES_WAIT_MS, optional: true }).then(
    (r) => r.instruments,
    upstreamFallback([], 'product rules for the order form'),
  );
  let instrument: Instrument | undefined;
  const { formData, submission } = await readForm(request, (form) => {
    // The ticket posts the upstream call's own field name for the instrument (schema.ts).
    const id = Number(form.get('forex_id'));
    instrument = instruments.find((i) => i.id === id);
    return orderSchemaFor(id, instrument ? orderRulesOf(instrument) : undefined);
  });
  const typedCode = String(formData.get('code') ?? '');
  const code = instrument?.code ?? (/^[A-Z0-9]{1,32}$/.test(typedCode) ? typedCode : null);
  const back = code ? `/trade?${new URLSearchParams({ code })}` : '/trade';
  // Ordering needs a login, whatever the page showed: a visitor goes to log in and comes back here.
  if (!api.signedIn) throw redirect(loginRedirect(request, back));
  const submittedKey = typeof formData.get('idempotency_key') === 'string' ? String(formData.get('idempotency_key')) : '';
  if (submission.status !== 'success') {
    const reply = invalid(submission);
    return data({ ...reply.data, idempotencyKey: submittedKey }, reply.init ?? undefined);
  }
  const order = submission.value;
  // The schema leaves the side open for checks made while typing; an order needs one of the two buttons.
  if (order.side === undefined) {
    return data(
      { result: submission.reply({ fieldErrors: { side: ['trade:validation.side'] } }), idempotencyKey: submittedKey },
      { status: 400 },
    );
  }
  // One-tap trading off (the default): the order is placed only once confirmed. The confirmation is a page of its
  // own (Post/Redirect/Get): the ticket and its one-time key are kept on the server (kept-ticket.server.ts).
  if (!oneTapChosen(request) && formData.get('confirmed') !== '1') {
    const key = order.idempotency_key || submittedKey || crypto.randomUUID();
    throw redirect(await confirmationUrl(request, formData, { code, side: order.side, key }));
  }
  const pending = order.entry === EntryMode.Pending;
  try {
    // The whole post answers within one timeout: the order gets what the rules lookup left of it.
    const timeoutMs = Math.max(MIN_ORDER_WAIT_MS, UPSTREAM_TIMEOUT_MS - (Date.now() - startedAt));
    const placed = await placeOrder(
      api,
      {
        // The ticket's fields keep the upstream call's names: a ticket rendered before a release still posts them.
        instrumentId: order.forex_id,
        side: order.side,
        lots: order.lots,
        leverage: order.leverage,
        entry: order.entry,
        targetPrice: pending ? (order.target_price ?? '') : '',
        takeProfit: order.take_profit ?? '',
        stopLoss: order.stop_loss ?? '',
        trailDistance: order.trail_distance ?? '',
        seenPrice: pending ? '' : (order.seen_price ?? ''),
        key: order.idempotency_key,
      },
      { timeoutMs },
    );
    return redirect(`/trade?${new URLSearchParams({ ...(code ? { code } : {}), placed: String(placed.id) })}`);
  } catch (error) {
    if (error instanceof UpstreamUnavailable) {
      // No answer: the order may or may not exist. The ticket stays as it was, with the same key, so that
      // sending it again returns that order if it was placed and never places a second one.
      return data(
        {
          result: submission.reply({ formErrors: ['trade:order.outcomeUnknown'] }),
          idempotencyKey: order.idempotency_key ?? submittedKey,
          outcomeUnknown: true,
        },
        { status: 503 },
      );
    }
    const reply = await replyWithFailure(request, submission, error);
    // An upstream refusal (its code and message) means no order was placed under this key, and a key
    // the upstream saw may be bound to another order (IdempotencyKeyReused): the retry gets a new key and
    // is a new attempt. A timeout or lost answer may hide a placed order: the retry keeps the same key,
    // so the upstream answers with that order instead of placing a second one.
    const idempotencyKey = error instanceof UpstreamError ? crypto.randomUUID() : (order.idempotency_key ?? submittedKey);
    return data({ ...reply.data, idempotencyKey }, reply.init ?? undefined);
  }
}

export default function TradePage() {
  const page = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const { t } = useTranslation('trade');
  const location = useLocation();
  const { instrument, period, conversion } = page;
  // Drawer and popup come from the URL, not the loader: opening them does not reload the page.
  const search = new URLSearchParams(location.search);
  const drawerOpen = search.get('drawer') === '1';
  // The stream carries the quotes of this instrument and of the one converting its money (a tenth of every
  // instrument's ticks, on a phone's data plan); the drawer lists them all, so it asks for them all.
  useLiveStream({
    code: instrument.code,
    period,
    quotes: drawerOpen ? undefined : [instrument.id, ...(conversion?.viaId ? [conversion.viaId] : [])],
  });
  // This screen follows its own instrument, not every tick (the ticket also follows the one converting its money).
  const live = useLiveQuote(instrument.id);
  const health = useFeedHealth();
  // The live quote and the page's are the same view.
  const quote = live ?? page.quote;
  const placed = Number(search.get('placed'));
  const here = tradeUrl(instrument.code, period);
  const hydrated = useHydrated();
  // Without JavaScript there is no feed to watch; with it, buy and sell wait for live prices.
  const block: OrderBlock =
    instrument.leverages.length === 0
      ? 'noLeverage'
      : !quote.marketOpen
        ? 'closed'
        : !hydrated || health === 'up'
          ? null
          : health === 'connecting'
            ? 'connecting'
            : 'stale';
  // A tick re-renders the quote and the ticket's prices (the ticket follows them itself); the chart (a memoised part
  // whose props are the loader's) and the account follow their own feeds.
  const figures = useMemo(() => (page.account ? <AccountFigures account={page.account} /> : null), [page.account]);
  // The header does not change with the price.
  const header = useMemo(
    () => (
      <header className="page-header trade-header">
        <h1>
          <Link
            to={tradeUrl(instrument.code, period, { drawer: '1' })}
            className="instrument-picker"
            aria-haspopup="dialog"
            preventScrollReset
          >
            <img src={instrumentLogo(instrument.code)} alt="" width={24} height={24} />
            <span>{instrument.symbol}</span>
            <span className="visually-hidden">{t('drawer.open')}</span>
            <svg viewBox="0 0 24 24" width="18" height="18" aria-hidden="true" className="line-icon">
              <path d="M6 9l6 6 6-6" />
            </svg>
          </Link>
        </h1>
        <Link to={`/alerts?code=${encodeURIComponent(instrument.code)}`} className="button secondary small">
          {t('alerts:tradeLink')}
        </Link>
      </header>
    ),
    [instrument, period, t],
  );
  return (
    <main className="page trade-page">
      {/* The screen's stylesheet comes with its markup (decision 0020). */}
      <style dangerouslySetInnerHTML={{ __html: tradeCss }} />
      {header}
      {page.stale && !live ? (
        <p className="notice" role="status">
          {t('staleList')}
        </p>
      ) : null}
      <QuotePanel quote={quote} precision={instrument.digits} code={instrument.code} />
      <ChartSection
        instrument={instrument}
        period={period}
        type={page.chartType}
        candles={page.candles}
        orders={page.orders}
        indicators={page.indicators}
        carry={page.chartParams}
        history={page.history}
      />
      {figures}
      <OrderBlockContext.Provider value={block}>
        <OrderForm
          key={`${instrument.code}${page.confirmId ?? ''}`}
          instrument={instrument}
          period={period}
          fallbackPrice={page.quote.price}
          conversion={conversion}
          feeType={page.feeType}
          defaults={page.defaults}
          idempotencyKey={actionData?.idempotencyKey || page.idempotencyKey}
          lastResult={actionData?.result as SubmissionResult<string[]> | undefined}
          outcomeUnknown={actionData !== undefined && 'outcomeUnknown' in actionData}
          askFirst={page.signedIn && !page.oneTap}
          confirmSide={page.confirmSide}
          oneTap={page.oneTap}
        />
      </OrderBlockContext.Provider>
      {drawerOpen ? <InstrumentDrawer rows={page.instruments} current={instrument.code} period={period} closeTo={here} /> : null}
      {page.signedIn && Number.isSafeInteger(placed) && placed > 0 ? <OrderPlaced orderId={placed} closeTo={here} /> : null}
    </main>
  );
}
