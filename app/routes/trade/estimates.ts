/**
 * The order ticket's numbers: lot steps, and the estimated margin and handling fee. Everything goes
 * through contract/arithmetic.ts on integer units, so the estimate is the amount the upstream will take.
 * Used by the server (rendering for the shown values, the lot buttons without JavaScript) and the browser.
 */
import { feeMicro, marginMicro, quoteToUsd, type QuoteToUsd } from '#contract/arithmetic';
import { formatUnits, LOT_DECIMALS, lots, parseUnits, roundToUnits } from '#contract/money';
import { instrumentTerms, type Instrument } from '#contract/views';

/** What the order ticket needs to know about the instrument: the view without its quote. */
export type TicketInstrument = Omit<Instrument, 'quote'>;

/** How one unit of the quote currency becomes USD: through another instrument's current price. */
export interface Conversion {
  kind: 'usd' | 'multiply' | 'divide';
  /** The instrument whose price converts (0 for USD-quoted instruments). */
  viaId: number;
  /** Its price when the page was rendered; live quotes replace it. */
  price: number;
  precision: number;
}

/** The conversion the upstream uses (`XUSD` multiplies, `USDX` divides), or null when none is listed. */
export function conversionFor(instrument: Pick<Instrument, 'quoteCurrency'>, list: readonly Instrument[]): Conversion | null {
  const quote = instrument.quoteCurrency;
  if (quote === 'USD') return { kind: 'usd', viaId: 0, price: 1, precision: 0 };
  const direct = list.find((i) => i.code === `${quote}USD`);
  if (direct) return { kind: 'multiply', viaId: direct.id, price: direct.quote.price, precision: direct.digits };
  const inverse = list.find((i) => i.code === `USD${quote}`);
  if (inverse) return { kind: 'divide', viaId: inverse.id, price: inverse.quote.price, precision: inverse.digits };
  return null;
}

/** A price from the upstream (a JSON number) in the instrument's integer units. */
export function priceUnits(price: number, precision: number): number | null {
  if (!Number.isFinite(price) || price <= 0) return null;
  return roundToUnits(price, precision);
}

/** The lot rules in thousandths: the step, the minimum, and the smallest amount allowed by both. */
export interface LotRules {
  stepMilli: number;
  minMilli: number;
  smallestMilli: number;
}

export function lotRulesOf(instrument: Pick<Instrument, 'lotStep' | 'minLots'>): LotRules {
  const stepMilli = Math.max(lots.parse(instrument.lotStep) ?? roundToUnits(instrument.lotStep, LOT_DECIMALS), 1);
  const minMilli = Math.max(lots.parse(instrument.minLots) ?? roundToUnits(instrument.minLots, LOT_DECIMALS), 0);
  const smallestMilli = Math.max(stepMilli, Math.ceil(minMilli / stepMilli) * stepMilli);
  return { stepMilli, minMilli, smallestMilli };
}

export function formatLots(milli: number): string {
  return formatUnits(milli, LOT_DECIMALS);
}

/** Lots in thousandths, or null when the text is not a plain decimal with at most 3 places. */
export function lotsMilliOf(text: string | undefined | null): number | null {
  if (!text) return null;
  return parseUnits(text, LOT_DECIMALS);
}

/** The "−" / "+" buttons: to the next whole step below or above, never under the smallest allowed. */
export function stepLots(text: string | undefined | null, rules: LotRules, direction: 'up' | 'down'): string {
  const current = lotsMilliOf(text);
  if (current === null || current < rules.smallestMilli) return formatLots(rules.smallestMilli);
  const steps = direction === 'up' ? Math.floor(current / rules.stepMilli) + 1 : Math.ceil(current / rules.stepMilli) - 1;
  return formatLots(Math.max(rules.smallestMilli, steps * rules.stepMilli));
}

/** Whether "−" can go lower. */
export function canStepDown(text: string | undefined | null, rules: LotRules): boolean {
  const current = lotsMilliOf(text);
  return current !== null && current > rules.smallestMilli;
}

export interface EstimateInput {
  instrument: TicketInstrument;
  /** trade_fee_type of the base settings; null when they could not be read. */
  feeType: number | null;
  lots: string | undefined;
  leverage: string | number | undefined;
  /** The price the order would open at: the current price, or the target price of a pending order. */
  price: number | null;
  conversion: Conversion | null;
  /** The conversion instrument's current price (live), if known. */
  conversionPrice?: number;
}

/** Margin and fee in micro-USD for the ticket's values, or null where a value is missing or invalid. */
export function estimateOrder(input: EstimateInput): { margin: number | null; fee: number | null } {
  const none = { margin: null, fee: null };
  const lotsMilli = lotsMilliOf(input.lots);
  const leverage = Number(input.leverage);
  if (lotsMilli === null || lotsMilli <= 0 || input.price === null || input.conversion === null) return none;
  if (!Number.isSafeInteger(leverage) || leverage <= 0) return none;
  const terms = instrumentTerms(input.instrument);
  if (!Number.isSafeInteger(terms.contractSize)) return none;
  const conversion = toUsd(input.conversion, input.conversionPrice);
  if (conversion === null || !Number.isSafeInteger(input.price) || input.price <= 0) return none;
  try {
    const margin = marginMicro(terms, lotsMilli, input.price, leverage, conversion);
    return { margin, fee: input.feeType === null ? null : feeMicro(terms, input.feeType, lotsMilli, margin) };
  } catch (error) {
    // Figures past what money can hold (absurd lots or prices) are no estimate; the form says "too large".
    if (error instanceof RangeError) return none;
    throw error;
  }
}

/** The most lots one order may ask for: past it a typo (an extra digit), never a trade. */
export const MAX_ORDER_LOTS_MILLI = 10_000 * 1000;

function toUsd(conversion: Conversion, livePrice?: number): QuoteToUsd | null {
  if (conversion.kind === 'usd') return quoteToUsd('usd');
  const price = priceUnits(livePrice ?? conversion.price, conversion.precision);
  return price === null ? null : quoteToUsd(conversion.kind, price, conversion.precision);
}
