/** Spec §7 market data calls, each mapped once to the views of contract/views.ts. */
import * as market from '#contract/calls/market';
import type { ChartPeriod } from '#contract/enums';
import { DEFAULT_LANGUAGE } from '#contract/languages';
import {
  candleView,
  categoryView,
  instrumentContractView,
  instrumentView,
  type Candle,
  type Category,
  type Instrument,
  type InstrumentContract,
} from '#contract/views';
import { UpstreamUnavailable, type Api, type ApiCallOptions } from './api.server';
import { callUpstream, type UpstreamTarget } from './client.server';
import { SHARED_ANSWER_TTL_MS, sharedAnswers, withWarmQuotes } from './warm-market.server';

/** The products with their rules and quotes; `stale`: the last list the upstream gave, since it is not answering now. */
export interface InstrumentList {
  instruments: Instrument[];
  stale: boolean;
}

/**
 * The last full list each upstream gave in each language: the catalogue that warm quotes complete for
 * SHARED_ANSWER_TTL_MS, and the trade screen's fallback while the upstream is silent.
 */
const lastGoodList = new Map<string, LastGood>();
interface LastGood {
  at: number;
  instruments: Instrument[];
}
/** Old enough that products or their rules may have changed. */
const LAST_GOOD_MAX_AGE_MS = 10 * 60_000;

const fetchInstruments = async (api: Api, search?: string, options?: ApiCallOptions) =>
  (await api.call(market.tradeList, { searchCurrency: search }, options)).data.map(instrumentView);

/** The newest full list this process holds for an upstream, in whichever language. */
function newestLastGood(upstreamUrl: string): LastGood | undefined {
  let newest: LastGood | undefined;
  for (const [key, entry] of lastGoodList) if (key.startsWith(`${upstreamUrl}|`) && (!newest || entry.at > newest.at)) newest = entry;
  return newest;
}

/** How often an idle process renews its catalogue, so that it has a recent one before its first page. */
const CATALOGUE_RENEW_MS = 60_000;

/**
 * Keeps this process's catalogue of `upstream` at most about a minute old, whether or not it serves pages:
 * with several web processes, an order post can land on one that has shown no page yet, exactly when the
 * upstream stops answering. Busy processes renew it with their pages and are not asked again.
 */
export function keepCatalogueWarm(upstream: UpstreamTarget): { first: Promise<void>; stop: () => void } {
  const renew = async () => {
    const newest = newestLastGood(upstream.baseUrl);
    if (newest && Date.now() - newest.at < CATALOGUE_RENEW_MS) return;
    const asked = Date.now();
    try {
      const result = await callUpstream(upstream, market.tradeList, {}, { lang: DEFAULT_LANGUAGE });
      lastGoodList.set(`${upstream.baseUrl}|${DEFAULT_LANGUAGE}`, { at: asked, instruments: result.data.map(instrumentView) });
    } catch (error) {
      console.warn(`[upstream] catalogue not renewed: ${error instanceof Error ? error.message : String(error)}`);
    }
  };
  const timer = setInterval(() => void renew(), CATALOGUE_RENEW_MS).unref();
  return { first: renew(), stop: () => clearInterval(timer) };
}

/**
 * The products with their quotes: from the relay's warm quotes over a catalogue at most a few seconds old
 * when the relay vouches for them (./warm-market.server.ts), else from the upstream. When the upstream
 * cannot be reached, the full list it last gave (at most ten minutes old) stands in, marked `stale`, so
 * an order ticket that was on screen stays on screen.
 */
export async function instrumentList(api: Api, search?: string, options?: ApiCallOptions): Promise<InstrumentList> {
  const key = `${api.upstreamUrl}|${api.lang}`;
  const last = lastGoodList.get(key);
  if (!search && last && Date.now() - last.at < SHARED_ANSWER_TTL_MS) {
    const warm = withWarmQuotes(last.instruments, api.market?.(), Date.now());
    if (warm) return { instruments: warm, stale: false };
  }
  try {
    const instruments = await fetchInstruments(api, search, options);
    if (!search) lastGoodList.set(key, { at: Date.now(), instruments });
    return { instruments, stale: false };
  } catch (error) {
    // Products and their rules are the same in every language (only the names differ): during an outage a
    // ticket named in another language beats an error page that drops the trader's order.
    const fallback = last && Date.now() - last.at <= LAST_GOOD_MAX_AGE_MS ? last : newestLastGood(api.upstreamUrl);
    if (search || !(error instanceof UpstreamUnavailable) || !fallback || Date.now() - fallback.at > LAST_GOOD_MAX_AGE_MS) throw error;
    return { instruments: fallback.instruments, stale: true };
  }
}

/** One instrument with its contract's rules, and the list it came in (another instrument may convert its quote to USD). */
export interface ContractAnswer {
  instrument: Instrument;
  contract: InstrumentContract;
  instruments: Instrument[];
}

/** The Contract screen's data: asked fresh, since the catalogue kept for the quote list leaves the contract's rules out. */
export async function instrumentContract(api: Api, code: string): Promise<ContractAnswer | null> {
  const raw = (await api.call(market.tradeList, {})).data;
  const found = raw.find((i) => i.Code === code);
  if (!found) return null;
  return { instrument: instrumentView(found), contract: instrumentContractView(found), instruments: raw.map(instrumentView) };
}

const categories = sharedAnswers<Category[]>();
const fetchCategories = async (api: Api) => (await api.call(market.getCategories, {})).data.map(categoryView);
/** The category chips (names in the request's language): the same for everyone, reused for a few seconds. */
export const listCategories = (api: Api) => categories.get(`${api.upstreamUrl}|${api.lang}`, () => fetchCategories(api));

/**
 * How long an instrument's candles are shared by every request. They are public and the same for everyone;
 * on the screen the stream moves the last candle on, and a page without JavaScript is a second older at most.
 */
const CANDLES_TTL_MS = 1_000;
const candleAnswers = sharedAnswers<Candle[]>(CANDLES_TTL_MS);
const fetchCandles = async (api: Api, instrumentId: number, period: ChartPeriod, limit?: number, before?: number) =>
  (await api.call(market.kline, { forex_id: instrumentId, period, limit, before })).data.map(candleView);
/** An instrument's candles of a period, oldest first: the newest, or with `before` (a candle time) the ones strictly older. */
export const chartCandles = (api: Api, instrumentId: number, period: ChartPeriod, limit?: number, before?: number) =>
  candleAnswers.get(`${api.upstreamUrl}|${instrumentId}|${period}|${limit ?? ''}|${before ?? ''}`, () =>
    fetchCandles(api, instrumentId, period, limit, before),
  );

/** An instrument's short close-price series (the market list's sparkline). */
export interface Sparkline {
  instrumentId: number;
  points: number[];
}
const sparklineAnswers = sharedAnswers<Sparkline[]>();
const fetchSparklines = async (api: Api, period: ChartPeriod) =>
  (await api.call(market.abbreviatedCacheKline, { period })).data.map((l) => ({ instrumentId: l.forex_id, points: l.points }));
/** The market list's decoration, one point per period: the same for everyone, reused for a few seconds. */
export const sparklines = (api: Api, period: ChartPeriod = '60min') =>
  sparklineAnswers.get(`${api.upstreamUrl}|${period}`, () => fetchSparklines(api, period));
