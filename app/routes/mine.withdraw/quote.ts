/**
 * What a withdrawal costs and brings (spec §9): the fee (fixed when fee_type is 1, else draw_rate percent)
 * and the amount received, from the contract arithmetic, in the browser as the amount is typed and on
 * the server for the "Calculate" button without JavaScript.
 */
import { withdrawalFeeMicro } from '#contract/arithmetic';
import { MONEY_DECIMALS, parseUnits, unitsToNumber } from '#contract/money';
import type { WithdrawCurrency } from '~/upstream/funds.server';

export interface WithdrawQuote {
  fee: number;
  received: number;
  /** About how much of the coin that is, at the currency's USD price (display only). */
  coinAmount: number | null;
}

export function quoteWithdrawal(
  currency: Pick<WithdrawCurrency, 'feeType' | 'feeRateMicro' | 'usdPrice' | 'code'> | undefined,
  amountText: string,
): WithdrawQuote | null {
  if (!currency || !/^\d{1,12}(\.\d{1,2})?$/.test(amountText.trim())) return null;
  const amount = parseUnits(amountText.trim(), MONEY_DECIMALS);
  if (amount === null || amount <= 0) return null;
  const fee = withdrawalFeeMicro(currency.feeType, currency.feeRateMicro, amount);
  const received = unitsToNumber(amount - fee, MONEY_DECIMALS);
  const stable = currency.usdPrice === 1 || currency.code === 'USD';
  return { fee: unitsToNumber(fee, MONEY_DECIMALS), received, coinAmount: stable ? null : received / currency.usdPrice };
}
