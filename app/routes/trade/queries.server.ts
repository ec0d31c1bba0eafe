/**
 * What the trade screen reads from the upstream and the URL: the chosen instrument (`?code=`, else the
 * last one chosen, else the first listed), its day quote and candles, the fee setting, the account, and
 * the order ticket's values carried in the URL by the lot buttons without JavaScript.
 */
import { createCookie, redirect } from '@remix-run/node';
import { EntryMode } from '#contract/enums';
import type { Instrument } from '#contract/views';
import type { Api } from '~/upstream/api.server';
import { tradeFeeType } from '~/upstream/account.server';
import { instrumentList } from '~/upstream/market.server';
import { account as accountFigures } from '~/upstream/trade.server';
import { drawerRow } from './instrument-drawer';
import { conversionFor, formatLots, lotRulesOf, stepLots } from './estimates';
import { periodOf, tradeUrl } from './trade-url';
import { upstreamFallback } from '~/upstream/api.server';
import { chartOrders } from './chart-orders.server';
import { keptTicket, ticketValuesOf } from './kept-ticket.server';
import { SHOWN_CANDLES } from '~/components/candle-chart/svg-candles';
import { LANGUAGE_TAGS } from '#contract/languages';
import { chosenIndicators, drawnIndicators, sheetRedirect } from './indicator-choice.server';
import { INDICATOR_PARAM } from './indicator-fields';
import { chosenChartType, typeRedirect, windowCursor } from './chart-choice.server';
import { chartWindow } from './chart-window.server';
import { TYPE_PARAM } from './chart-type';

/** The last instrument chosen on this device (not secret: a product code). */
export const tradeCodeCookie = createCookie('trade_code', {
  path: '/',
  sameSite: 'lax',
  httpOnly: true,
  secure: true,
  maxAge: 60 * 60 * 24 * 365,
});

/**
 * A GET submission of the order form (a lot button or "Update estimates" without JavaScript) carries
 * every field, the CSRF token included. The page answers with a redirect to a clean URL holding only
 * the ticket's values, with the lots stepped, so no token stays in the address bar or the history.
 */
export function cleanTicketUrl(url: URL, instruments: readonly Instrument[]): string | null {
  const params = url.searchParams;
  if (!params.has('lots_step') && !params.has('recalc') && !params.has('csrf')) return null;
  const instrument = pickInstrument(instruments, params.get('code'), null);
  if (!instrument) return '/trade';
  const values = ticketValuesOf(params);
  const direction = params.get('lots_step');
  if (direction === 'up' || direction === 'down') values.lots = stepLots(values.lots, lotRulesOf(instrument), direction);
  const kept = Object.fromEntries(Object.entries(values).filter(([, v]) => v !== undefined)) as Record<string, string>;
  return tradeUrl(instrument.code, periodOf(params.get('period')), kept);
}

/** The chart's choices the address names itself (`ind`, `type`): its links carry them, so a shared link's choice stays. */
function addressChoices(url: URL): Record<string, string> {
  const carried: Record<string, string> = {};
  for (const name of [INDICATOR_PARAM, TYPE_PARAM]) {
    const value = url.searchParams.get(name);
    if (value !== null) carried[name] = value;
  }
  return carried;
}

function pickInstrument(list: readonly Instrument[], code: string | null, remembered: string | null): Instrument | undefined {
  const wanted = (code ?? '').trim().toUpperCase();
  return list.find((i) => i.code === wanted) ?? list.find((i) => i.code === remembered) ?? list[0];
}

export async function loadTradeScreen(api: Api, request: Request) {
  const url = new URL(request.url);
  // The "Indicators" sheet's answer comes before any upstream call.
  const chosenNow = (await sheetRedirect(url)) ?? (await typeRedirect(url));
  if (chosenNow) throw chosenNow;
  const period = periodOf(url.searchParams.get('period'));
  const chosen = await chosenIndicators(url, request.headers.get('Cookie'));
  const chartType = await chosenChartType(url, request.headers.get('Cookie'));
  const remembered: unknown = await tradeCodeCookie.parse(request.headers.get('Cookie'));
  const [{ instruments, stale }, feeType, account] = await Promise.all([
    instrumentList(api),
    // Without the fee setting the page still shows, with no fee estimate.
    tradeFeeType(api).catch(upstreamFallback(null, 'the fee setting')),
    // The figures are an extra on this public page; an ended session (a thrown redirect) still ends it.
    api.signedIn ? accountFigures(api).catch(upstreamFallback(null, 'account figures')) : Promise.resolve(null),
  ]);
  const clean = cleanTicketUrl(url, instruments);
  if (clean) throw redirect(clean);
  const instrument = pickInstrument(instruments, url.searchParams.get('code'), typeof remembered === 'string' ? remembered : null);
  if (!instrument) throw new Response('No products are listed right now.', { status: 503 });
  // The chart is one part of the screen: without candles the order ticket still works.
  const before = windowCursor(url);
  const [chart, mine] = await Promise.all([
    chartWindow(api, instrument.id, period, before),
    chartOrders(api, request, instrument, account),
  ]);
  const { candles } = chart;
  const rules = lotRulesOf(instrument);
  // A confirmation page (`?confirm=`) shows the kept ticket with its one-time key; a stale one is the plain ticket.
  const kept = api.signedIn ? await keptTicket(request, url.searchParams.get('confirm'), instrument.code) : null;
  const ticket = kept?.values ?? ticketValuesOf(url.searchParams);
  const { quote, ...ticketInstrument } = instrument;
  return {
    instrument: ticketInstrument,
    /** The products and prices are the last the upstream gave: it is not answering now. */
    stale,
    quote,
    period,
    /** What the SVG draws; the canvas chart asks /candles for the older ones (they were two thirds of the page's data). */
    candles: candles.slice(-SHOWN_CANDLES),
    /** The chosen indicators over every candle (the longer the history, the closer to the canvas's), for the SVG and legend. */
    indicators: drawnIndicators(chosen, candles, instrument.digits, LANGUAGE_TAGS[api.lang]),
    /** The chart's type (candles, bars, line, area): the address's, else the device's. */
    chartType,
    /** The window's cursor (null: the newest candles, live) and the "Earlier" and "Later" links' cursors. */
    history: { before: chart.later === null ? null : (before ?? null), earlier: chart.earlier, later: chart.later },
    /** The address's own choices (a shared link), carried by the chart's links; absent when the device's cookie chose. */
    chartParams: addressChoices(url),
    /** The trader's positions and pending orders of this instrument, drawn on the chart. */
    orders: mine,
    instruments: instruments.map(drawerRow),
    conversion: conversionFor(instrument, instruments),
    feeType,
    account,
    signedIn: api.signedIn !== null,
    defaults: {
      lots: ticket.lots ?? formatLots(rules.smallestMilli),
      leverage: ticket.leverage ?? String(instrument.leverages[0] ?? ''),
      entry: ticket.entry === String(EntryMode.Pending) ? String(EntryMode.Pending) : String(EntryMode.Market),
      target_price: ticket.target_price ?? '',
      take_profit: ticket.take_profit ?? '',
      stop_loss: ticket.stop_loss ?? '',
      trail_distance: ticket.trail_distance ?? '',
    },
    // A fresh one-time key per rendered ticket, the kept one on its confirmation: the upstream answers a repeated key
    // with its first order.
    idempotencyKey: kept?.key ?? crypto.randomUUID(),
    /** The side the confirmation page asks about (without JavaScript, after "Buy up" or "Buy low"). */
    confirmSide: kept?.side ?? null,
    confirmId: kept ? url.searchParams.get('confirm') : null,
    rememberCode: instrument.code !== remembered ? instrument.code : null,
  };
}
