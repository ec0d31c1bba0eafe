/**
 * The trading arithmetic (spec §9, upstream.md "Money and numbers"), shared by the upstream's engine and
 * the web's estimates. Inputs and outputs are integer units (see money.ts); each result is one mulDiv,
 * so it is rounded once, half away from zero.
 */
import { MarginMode, Side, TradeFeeType, WithdrawFeeType } from './enums';
import { LOT_SCALE, MONEY_SCALE, mulDiv, pow10 } from './money';

/** What the arithmetic needs to know about an instrument. */
export interface InstrumentTerms {
  /** PricePrecision: prices are integers scaled by 10^precision. */
  precision: number;
  /** ForexContNum: units of the base per lot (in fixed-margin mode also the USD margin per lot). */
  contractSize: number;
  marginMode: MarginMode | number;
  /** ForexFeeRate × 1e6: micro-USD per lot (per-lot fees) or parts per million of the margin. */
  feeRateMicro: number;
}

/**
 * USD value of one unit of the instrument's quote currency, as an exact fraction num/den.
 * USD-quoted: 1/1. Quoted in X with an XUSD instrument at price P (precision p): P/10^p.
 * With a USDX instrument at price P: 10^p/P.
 */
export interface QuoteToUsd {
  num: number;
  den: number;
}
export const USD_QUOTED: QuoteToUsd = { num: 1, den: 1 };

export function quoteToUsd(kind: 'usd' | 'multiply' | 'divide', price = 1, precision = 0): QuoteToUsd {
  if (kind === 'usd') return USD_QUOTED;
  if (kind === 'multiply') return { num: price, den: pow10(precision) };
  return { num: pow10(precision), den: price };
}

/** Margin in micro-USD. Fixed mode: lots × units per lot; otherwise lots × units × price ÷ leverage (in USD). */
export function marginMicro(
  terms: InstrumentTerms,
  lotsMilli: number,
  price: number,
  leverage: number,
  conversion: QuoteToUsd = USD_QUOTED,
): number {
  if (terms.marginMode === MarginMode.Fixed) {
    return mulDiv([lotsMilli, terms.contractSize, MONEY_SCALE], [LOT_SCALE]);
  }
  if (leverage <= 0) throw new RangeError('leverage must be positive');
  return mulDiv(
    [lotsMilli, terms.contractSize, price, MONEY_SCALE, conversion.num],
    [LOT_SCALE, pow10(terms.precision), leverage, conversion.den],
  );
}

/** Handling fee in micro-USD: per lot (trade_fee_type 1) or a share of the margin. */
export function feeMicro(terms: InstrumentTerms, feeType: TradeFeeType | number, lotsMilli: number, margin: number): number {
  if (feeType === TradeFeeType.PerLot) return mulDiv([lotsMilli, terms.feeRateMicro], [LOT_SCALE]);
  return mulDiv([margin, terms.feeRateMicro], [MONEY_SCALE]);
}

/** Profit in micro-USD of a position from entry to exit: (exit − entry) × lots × units × (1 buy, −1 sell). */
export function profitMicro(
  terms: InstrumentTerms,
  side: Side | number,
  lotsMilli: number,
  entry: number,
  exit: number,
  conversion: QuoteToUsd = USD_QUOTED,
): number {
  const diff = side === Side.Buy ? exit - entry : entry - exit;
  if (diff === 0) return 0;
  // MONEY_SCALE / LOT_SCALE = 1000, folded in to keep the common case on plain numbers.
  return mulDiv([diff, lotsMilli, terms.contractSize, MONEY_SCALE / LOT_SCALE, conversion.num], [pow10(terms.precision), conversion.den]);
}

/** The account figures (upstream.md "Account"). All in micro-USD. */
export interface AccountFigures {
  balance: number;
  lockBalance: number;
  floatingProfit: number;
}

/** Net value: balance + margin held + floating profit. */
export function equityMicro(a: AccountFigures): number {
  return a.balance + a.lockBalance + a.floatingProfit;
}

/** Available: equity − used margin. */
export function freeMarginMicro(a: AccountFigures): number {
  return equityMicro(a) - a.lockBalance;
}

/** Risk rate in hundredths of a percent (equity ÷ used margin × 100), or null with no margin in use. */
export function riskRateBasisPoints(a: AccountFigures): number | null {
  if (a.lockBalance <= 0) return null;
  return mulDiv([equityMicro(a), 10000], [a.lockBalance]);
}

/** Stop-out level: equity ÷ used margin at or below 50 %. */
export const STOP_OUT_PERCENT = 50;
/** The risk rate at which the screens warn that stop-out is near. */
export const RISK_WARNING_PERCENT = 100;

/** True when the account must be stopped out: compared exactly, with no rounding. */
export function isStopOut(a: AccountFigures): boolean {
  if (a.lockBalance <= 0) return false;
  return equityMicro(a) * 100 <= STOP_OUT_PERCENT * a.lockBalance;
}

/**
 * Withdrawal fee in micro-USD: fixed (fee_type 1, draw_rate in USD) or draw_rate percent of the amount.
 * `rateMicro` is draw_rate × 1e6. Never more than the amount.
 */
export function withdrawalFeeMicro(feeType: WithdrawFeeType | number, rateMicro: number, amount: number): number {
  const fee = feeType === WithdrawFeeType.Fixed ? rateMicro : mulDiv([amount, rateMicro], [100, MONEY_SCALE]);
  return Math.min(Math.max(fee, 0), amount);
}

/** Spec §9: to withdraw, the trading volume of the last 24 hours must be at least 80 % of the balance. */
export const WITHDRAW_VOLUME_PERCENT = 80;
export const WITHDRAW_VOLUME_WINDOW_MS = 24 * 3600 * 1000;

/**
 * The withdrawal volume rule, compared exactly. Volume is the margin of the orders opened in the window
 * (docs/decisions/0005-withdrawal-volume.md); both in micro-USD.
 */
export function volumeAllowsWithdrawal(volumeMicro: number, balanceMicro: number): boolean {
  return volumeMicro * 100 >= WITHDRAW_VOLUME_PERCENT * balanceMicro;
}

/**
 * The share of a position's amount (margin, fee, floating profit) that `partMilli` of its `wholeMilli` lots
 * carry, in the amount's units: one mulDiv, so one rounding. A partial close takes this share and leaves
 * `amount − share` on the position, so the two parts always add up to the whole.
 */
export function lotShare(amount: number, partMilli: number, wholeMilli: number): number {
  if (wholeMilli <= 0 || partMilli < 0 || partMilli > wholeMilli) throw new RangeError('part must be within the whole');
  return mulDiv([amount, partMilli], [wholeMilli]);
}

/** Whether lots are allowed: above zero, at least the minimum, and a whole number of steps. */
export function lotsAllowed(lotsMilli: number, minMilli: number, stepMilli: number): boolean {
  return lotsMilli > 0 && lotsMilli >= minMilli && stepMilli > 0 && lotsMilli % stepMilli === 0;
}

/** TP above and SL below the reference price for a buy, mirrored for a sell; null means "not set". */
export function stopsValid(
  side: Side | number,
  price: number,
  takeProfit: number | null,
  stopLoss: number | null,
): { takeProfit: boolean; stopLoss: boolean } {
  const buy = side === Side.Buy;
  return {
    takeProfit: takeProfit === null || (buy ? takeProfit > price : takeProfit < price),
    stopLoss: stopLoss === null || (buy ? stopLoss < price : stopLoss > price),
  };
}

/**
 * A trailing stop's stop loss after the price `price`: `distance` behind it, moved only in the trader's favour
 * and never back (buy: max(SL, price − distance); sell: min(SL, price + distance)). An absent stop is set; a buy
 * whose candidate is not above 0 keeps what it has. Integer price units throughout, so no rounding.
 */
export function trailedStop(side: Side | number, stopLoss: number | null, price: number, distance: number): number | null {
  if (side === Side.Buy) {
    const candidate = price - distance;
    if (candidate <= 0) return stopLoss;
    return stopLoss === null || candidate > stopLoss ? candidate : stopLoss;
  }
  const candidate = price + distance;
  return stopLoss === null || candidate < stopLoss ? candidate : stopLoss;
}

/**
 * Why a trailing distance (integer price units) is refused against the reference price (the market's, or a
 * pending order's target), or null when it is allowed: above 0, and less than half the price (a stop further
 * than that is no stop, and a buy's would fall to 0 or below).
 */
export function trailDistanceRefusal(distance: number, reference: number): 'TrailDistanceInvalid' | 'TrailDistanceTooLarge' | null {
  if (!(distance > 0)) return 'TrailDistanceInvalid';
  if (distance * 2 >= reference) return 'TrailDistanceTooLarge';
  return null;
}
