import { expect, test } from 'vitest';
import { quoteWithdrawal } from './quote';

const trc20 = { code: 'USDT', feeType: 1, feeRateMicro: 1_000_000, usdPrice: 1 };
const btc = { code: 'BTC', feeType: 2, feeRateMicro: 500_000, usdPrice: 60000 };

test('a fixed fee (fee_type 1) and a percentage fee, received = amount − fee', () => {
  expect(quoteWithdrawal(trc20, '100')).toEqual({ fee: 1, received: 99, coinAmount: null });
  expect(quoteWithdrawal(btc, '200')).toEqual({ fee: 1, received: 199, coinAmount: 199 / 60000 });
  // Half a cent rounds half away from zero at 6 decimals: 0.5 % of 0.01 is 0.00005.
  expect(quoteWithdrawal(btc, '0.01')).toEqual({ fee: 0.00005, received: 0.00995, coinAmount: 0.00995 / 60000 });
});

test('no quote for an empty, negative, over-precise or unknown amount', () => {
  for (const bad of ['', '0', '-5', 'abc', '1.234', '1e3']) expect(quoteWithdrawal(trc20, bad)).toBeNull();
  expect(quoteWithdrawal(undefined, '10')).toBeNull();
});

test('the fee never exceeds the amount', () => {
  expect(quoteWithdrawal(trc20, '0.5')).toEqual({ fee: 0.5, received: 0, coinAmount: null });
});
