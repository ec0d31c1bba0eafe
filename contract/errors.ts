/**
 * Business error codes of the upstream, each with one message key. The upstream answers these in its
 * envelope's `msg`, translated by the request's `lang`; English here is the fallback text.
 */

export const ErrorCode = {
  /** The session is invalid: token missing, unknown, expired or revoked (envelope.ts TOKEN_INVALID). */
  TokenInvalid: 999,
  ServerBusy: 1000,
  InvalidRequest: 1001,
  RateLimited: 1002,
  NotFound: 1003,
  Forbidden: 1004,

  AccountRequired: 2001,
  PasswordRequired: 2002,
  LoginFailed: 2003,
  AccountExists: 2004,
  PasswordMismatch: 2005,
  PasswordTooShort: 2006,
  CodeInvalid: 2007,
  CodeTooSoon: 2008,
  CaptchaInvalid: 2009,
  InviteCodeInvalid: 2010,
  DemoNotAllowed: 2011,
  NotDemoAccount: 2012,
  EmailInvalid: 2013,
  MobileInvalid: 2014,
  AreaInvalid: 2015,
  CodeRequired: 2016,
  DemoIdInvalid: 2017,

  InstrumentNotFound: 3001,
  MarketClosed: 3002,
  LeverageNotConfigured: 3003,
  LeverageNotAllowed: 3004,
  LotsInvalid: 3005,
  TakeProfitInvalid: 3006,
  StopLossInvalid: 3007,
  TargetPriceRequired: 3008,
  PriceInvalid: 3009,
  InsufficientMargin: 3010,
  OrderNotFound: 3011,
  OrderNotHolding: 3012,
  OrderNotPending: 3013,
  OrderFinished: 3014,
  IdempotencyKeyReused: 3015,
  TargetPriceAtMarket: 3016,
  PriceMoved: 3017,
  CloseLotsAboveHeld: 3018,

  NoPaymentChannel: 4001,
  AmountInvalid: 4002,
  ProofRequired: 4003,
  BindAccountFirst: 4004,
  InsufficientBalance: 4005,
  TradingVolumeTooLow: 4006,
  AddressInvalid: 4007,
  BankFieldsRequired: 4008,
  WithdrawMethodNotFound: 4009,
  CurrencyNotFound: 4010,
  AmountBelowFee: 4011,
  NetworkRequired: 4012,
  AmountBelowMinimum: 4013,
  AmountAboveMaximum: 4014,
  ProofInvalid: 4015,
  TooManyMethods: 4016,
  SwiftInvalid: 4017,

  NameRequired: 5001,
  IdNumberInvalid: 5002,
  IdImagesRequired: 5003,
  IdentityAlreadySubmitted: 5004,
  UploadTooLarge: 5005,
  UploadType: 5006,
  UploadRequired: 5007,

  AlertLimitReached: 6001,
  AlertNotFound: 6002,
  AlertWrongSide: 6003,
} as const;
export type ErrorCode = (typeof ErrorCode)[keyof typeof ErrorCode];
export type ErrorName = keyof typeof ErrorCode;

/** The fallback (English) text of each error; the key of its translations is `errors.<name>`. */
export const ERROR_MESSAGES: Record<ErrorName, string> = {
  TokenInvalid: 'Your session has ended. Please log in again.',
  ServerBusy: 'The service is busy. Please try again shortly.',
  InvalidRequest: 'Some information is missing or invalid.',
  RateLimited: 'Too many attempts. Please wait a moment and try again.',
  NotFound: 'Not found.',
  Forbidden: 'You are not allowed to do this.',

  AccountRequired: 'Please enter your e-mail or phone number.',
  PasswordRequired: 'Please enter your password.',
  LoginFailed: 'The account or password is incorrect.',
  AccountExists: 'This account is already registered.',
  PasswordMismatch: 'The two passwords do not match.',
  PasswordTooShort: 'The password must have at least 6 characters.',
  CodeInvalid: 'The verification code is wrong or has expired.',
  CodeTooSoon: 'A code was sent recently. Please wait before asking again.',
  CaptchaInvalid: 'The picture code is wrong. Please try a new one.',
  InviteCodeInvalid: 'This invite code does not exist.',
  DemoNotAllowed: 'Please register or log in to a real account.',
  NotDemoAccount: 'Only a demo account can be reset.',
  EmailInvalid: 'Please enter a valid e-mail address.',
  MobileInvalid: 'Please enter a valid phone number.',
  AreaInvalid: 'Please choose an area code.',
  CodeRequired: 'Please enter the verification code.',
  DemoIdInvalid: 'This device cannot open a demo account.',

  InstrumentNotFound: 'This product does not exist.',
  MarketClosed: 'The market is closed.',
  LeverageNotConfigured: 'Leverage is not configured, so orders cannot be placed.',
  LeverageNotAllowed: 'This leverage is not offered for this product.',
  LotsInvalid: 'The lots must be at least the minimum and a whole number of steps.',
  TakeProfitInvalid: 'The take-profit price is on the wrong side of the price.',
  StopLossInvalid: 'The stop-loss price is on the wrong side of the price.',
  TargetPriceRequired: 'Please enter a target price for a pending order.',
  PriceInvalid: 'The price has more decimals than this product allows.',
  InsufficientMargin: 'Not enough available funds for the margin and fee.',
  OrderNotFound: 'This order does not exist.',
  OrderNotHolding: 'This order is not open.',
  OrderNotPending: 'This order is not pending.',
  OrderFinished: 'This order is already closed.',
  IdempotencyKeyReused: 'This order form was already used for a different order.',
  TargetPriceAtMarket: 'The target price must differ from the current price.',
  PriceMoved: 'The price has moved too far from the one you saw. Check the new price and try again.',
  CloseLotsAboveHeld: 'You cannot close more lots than the position holds.',

  NoPaymentChannel: 'There is no payment channel for this currency account.',
  AmountInvalid: 'Please enter a valid amount.',
  ProofRequired: 'Please upload the payment proof.',
  BindAccountFirst: 'Please bind a payment account first.',
  InsufficientBalance: 'Your balance is not enough.',
  TradingVolumeTooLow: 'To withdraw, your trading volume in the last 24 hours must be at least 80% of your balance.',
  AddressInvalid: 'This address does not match the network.',
  BankFieldsRequired: 'Please fill in all the bank details.',
  WithdrawMethodNotFound: 'This withdrawal method does not exist.',
  CurrencyNotFound: 'This currency is not available.',
  AmountBelowFee: 'The amount must be more than the fee.',
  NetworkRequired: 'Please choose a network.',
  AmountBelowMinimum: 'The amount is below the minimum for this currency.',
  AmountAboveMaximum: 'The amount is above the maximum for this currency.',
  ProofInvalid: 'The proof image was not found. Please upload it again.',
  TooManyMethods: 'You have bound the most accounts allowed. Delete one first.',
  SwiftInvalid: 'Please enter a valid SWIFT code (8 or 11 letters and digits).',

  NameRequired: 'Please enter your name.',
  IdNumberInvalid: 'Please enter a correct ID number.',
  IdImagesRequired: 'Please upload the front and back of your ID.',
  IdentityAlreadySubmitted: 'Your identity has already been submitted.',
  UploadTooLarge: 'The file is too large (8 MB at most).',
  UploadType: 'Please upload a JPEG, PNG or WebP image.',
  UploadRequired: 'Please choose one file to upload.',

  AlertLimitReached: 'You have 50 active price alerts, the most allowed. Delete one first.',
  AlertNotFound: 'This price alert does not exist.',
  AlertWrongSide: 'For "rises to" the price must be above the current price, for "falls to" below it.',
};

const NAME_BY_CODE = new Map<number, ErrorName>(Object.entries(ErrorCode).map(([k, v]) => [v, k as ErrorName]));

export function errorName(code: number): ErrorName | undefined {
  return NAME_BY_CODE.get(code);
}

export function errorKey(name: ErrorName): `errors.${ErrorName}` {
  return `errors.${name}`;
}
