/**
 * The money at a take profit or stop loss as the order ticket and the order popup show it: the stop as
 * typed, the reference price (the entry, the current price of a market order, or a pending order's target)
 * and the lots, through contract/arithmetic.ts on integer units. Used by the server (the figures drawn
 * without JavaScript) and the browser (live as the trader types and as the price moves).
 */
import { moneyAtStopMicro, pipsBetween, sideOfStop, type ProfitTerms, type StopConversion } from '#contract/arithmetic';
import type { Side } from '#contract/enums';
import { parseUnits, roundToUnits } from '#contract/money';
import type { Conversion } from '~/routes/trade/estimates';

export type StopKind = 'takeProfit' | 'stopLoss';

export interface StopMoney {
  /** The side the figure is for: the order's, or the one a stop on that side of the price belongs to. */
  side: Side | null;
  /** Micro-USD; a loss is negative. */
  micro: number;
  /** The distance from the reference price in pips, as a decimal string. */
  pips: string;
}

interface StopMoneyInput {
  terms: ProfitTerms;
  kind: StopKind;
  /** The order's side; null on the ticket before a button is pressed (then the stop's own side is used). */
  side: Side | null;
  lotsMilli: number | null;
  /** The price the position opens (or opened) at, in the instrument's integer units. */
  reference: number | null;
  /** The stop as typed: empty, 0 or not a price shows nothing. */
  stopText: string | null | undefined;
  conversion: StopConversion | null;
}

/**
 * The conversion of the money at a take profit or stop loss: an instrument that converts through its own
 * price (USDJPY) does so at the stop's price; through another, at that one's price now (live if known).
 */
export function stopConversionOf(conversion: Conversion | null, instrumentId: number, livePrice?: number): StopConversion | null {
  if (conversion === null) return null;
  if (conversion.kind === 'usd') return { kind: 'usd', price: null, precision: 0 };
  if (conversion.viaId === instrumentId) return { kind: conversion.kind, price: null, precision: conversion.precision };
  const price = livePrice ?? conversion.price;
  if (!Number.isFinite(price) || price <= 0) return null;
  return { kind: conversion.kind, price: roundToUnits(price, conversion.precision), precision: conversion.precision };
}

/** The figure under a take-profit or stop-loss field, or null when a value is missing or not a price. */
export function moneyAtStop(input: StopMoneyInput): StopMoney | null {
  const { terms, lotsMilli, reference, conversion } = input;
  const stop = parseUnits((input.stopText ?? '').trim(), terms.precision);
  if (stop === null || stop <= 0 || reference === null || reference <= 0 || conversion === null) return null;
  if (lotsMilli === null || lotsMilli <= 0 || !Number.isSafeInteger(terms.contractSize)) return null;
  const side = input.side ?? sideOfStop(input.kind, reference, stop);
  const pips = pipsBetween(terms.precision, reference, stop);
  if (side === null) return { side: null, micro: 0, pips };
  try {
    return { side, micro: moneyAtStopMicro(terms, side, lotsMilli, reference, stop, conversion), pips };
  } catch (error) {
    // Figures past what money can hold (absurd lots or prices) are no figure.
    if (error instanceof RangeError) return null;
    throw error;
  }
}
