/** The enums of the spec (§3, §4) and of upstream.md, with the spec's numeric values. */

export const OrderStatus = { Pending: 0, Holding: 1, Closing: 2, Closed: 3, Cancelled: 4 } as const;
export type OrderStatus = (typeof OrderStatus)[keyof typeof OrderStatus];

/** The tabs of the orders screen: `my_deal` status values. History (3) lists closed and cancelled orders. */
export const OrderTab = { Pending: 0, Holding: 1, History: 3 } as const;
export type OrderTab = (typeof OrderTab)[keyof typeof OrderTab];

export const CloseReason = { User: 1, StopOut: 2, TakeProfit: 3, StopLoss: 4, Admin: 5 } as const;
export type CloseReason = (typeof CloseReason)[keyof typeof CloseReason];

/** Submitted `type`: buy is 1, sell is 2 (OrderType on an order: 1 buy, otherwise sell). */
export const Side = { Buy: 1, Sell: 2 } as const;
export type Side = (typeof Side)[keyof typeof Side];

/** Submitted `status`: 1 market price, 0 pending at a target price. */
export const EntryMode = { Pending: 0, Market: 1 } as const;
export type EntryMode = (typeof EntryMode)[keyof typeof EntryMode];

/** MarginMode 1 = fixed margin (lots × units per lot); anything else is leverage-based. */
export const MarginMode = { Fixed: 1, Leverage: 2 } as const;
export type MarginMode = (typeof MarginMode)[keyof typeof MarginMode];

/** trade_fee_type 1: lots × fee rate (USD per lot); otherwise margin × fee rate. */
export const TradeFeeType = { PerLot: 1, OfMargin: 2 } as const;
export type TradeFeeType = (typeof TradeFeeType)[keyof typeof TradeFeeType];

export const MarketStatus = { Closed: 0, Open: 1 } as const;
export type MarketStatus = (typeof MarketStatus)[keyof typeof MarketStatus];

export const DepositStatus = { Unchecked: 0, Finished: 1, Rejected: 2, Invalid: 3 } as const;
export type DepositStatus = (typeof DepositStatus)[keyof typeof DepositStatus];

/** Deposit record `type`: 0 coin, otherwise bank wire. */
export const DepositType = { Coin: 0, Wire: 1 } as const;
export type DepositType = (typeof DepositType)[keyof typeof DepositType];

/** Real-name review_status: 0 not submitted, 1 under review, any other value verified (2). */
export const ReviewStatus = { NotSubmitted: 0, UnderReview: 1, Verified: 2 } as const;
export type ReviewStatus = (typeof ReviewStatus)[keyof typeof ReviewStatus];

/** Withdrawal method / record type: 1 crypto address, 2 bank account. */
export const WithdrawType = { Crypto: 1, Bank: 2 } as const;
export type WithdrawType = (typeof WithdrawType)[keyof typeof WithdrawType];

export const WithdrawStatus = { Pending: 0, Paid: 1, Rejected: 2 } as const;
export type WithdrawStatus = (typeof WithdrawStatus)[keyof typeof WithdrawStatus];

/** Withdraw currency fee_type: 1 fixed fee (draw_rate in USD), otherwise draw_rate percent of the amount. */
export const WithdrawFeeType = { Fixed: 1, Percent: 2 } as const;
export type WithdrawFeeType = (typeof WithdrawFeeType)[keyof typeof WithdrawFeeType];

/** Registration / reset account type. */
export const AccountType = { Email: 1, Mobile: 2 } as const;
export type AccountType = (typeof AccountType)[keyof typeof AccountType];

/** send_email / send_sms `type`: 1 register, 2 reset (password reset and password change). */
export const CodePurpose = { Register: 1, Reset: 2 } as const;
export type CodePurpose = (typeof CodePurpose)[keyof typeof CodePurpose];

/** verify_reg_type: 1 a code sent by e-mail or SMS, 2 an image captcha. */
export const VerifyRegType = { Code: 1, Captcha: 2 } as const;
export type VerifyRegType = (typeof VerifyRegType)[keyof typeof VerifyRegType];

/** is_show_mobile: 0 no phone fields, 1 area code plus phone, 3 phone only. */
export const ShowMobile = { Hidden: 0, AreaAndPhone: 1, PhoneOnly: 3 } as const;
export type ShowMobile = (typeof ShowMobile)[keyof typeof ShowMobile];

/**
 * Account log `Type`. 10 is an admin adjustment whose text is its Memo; every other type is shown by its
 * translated name (MemoTran).
 */
export const LedgerType = {
  OpeningBalance: 1,
  Deposit: 2,
  Withdrawal: 3,
  WithdrawalRefund: 4,
  MarginHeld: 5,
  MarginReleased: 6,
  TradeFee: 7,
  TradeFeeRefund: 8,
  RealisedProfit: 9,
  AdminAdjustment: 10,
  NegativeBalanceProtection: 11,
  DemoReset: 12,
} as const;
export type LedgerType = (typeof LedgerType)[keyof typeof LedgerType];

export const CHART_PERIODS = ['1min', '5min', '15min', '30min', '60min', '1day'] as const;
export type ChartPeriod = (typeof CHART_PERIODS)[number];
/** Period length in seconds (1day is a Europe/London calendar day, so its length varies at DST). */
export const PERIOD_SECONDS: Record<ChartPeriod, number> = {
  '1min': 60,
  '5min': 300,
  '15min': 900,
  '30min': 1800,
  '60min': 3600,
  '1day': 86400,
};
/** Chart and day-boundary timezone (spec §9). */
export const CHART_TIMEZONE = 'Europe/London';

/** The languages (contract/languages): a module of its own, kept out of a page's first-load script. */
export type { Language } from './languages';
