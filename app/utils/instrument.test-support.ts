/** A currency pair as the upstream's market list gives it, for the tests that compute with one (order estimates, stops). */
import type { Instrument } from '#contract/calls/market';
import { MarginMode } from '#contract/enums';

/** `code` (six letters, quoted in its last three) at `close`: lots of 100,000 from 0.01, leverage 10 or 100. */
export const currencyPair = (id: number, code: string, close: number, precision = 5): Instrument => ({
  Id: id,
  Code: code,
  ShowCode: `${code.slice(0, 3)}/${code.slice(3)}`,
  Logo: '',
  CategoryId: 1,
  MarketStatus: 1,
  PricePrecision: precision,
  Pip: 0.01,
  ForexContNum: 100000,
  ForexMinCont: 0.01,
  ForexFeeRate: 5,
  MarginMode: MarginMode.Leverage,
  HasForexMultiple: [10, 100].map((Value) => ({ Value })),
  ForexQuotations: { Open: close, Close: close, Change: 0, High: close, Low: close, Volume: 0 },
  QuoteCurrency: code.slice(3),
});
