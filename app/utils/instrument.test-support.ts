/** A currency pair as the market list gives it (mapped from the upstream's shape), for the tests that compute with one. */
import { MarginMode } from '#contract/enums';
import { instrumentView, type Instrument } from '#contract/views';

/** `code` (six letters, quoted in its last three) at `close`: lots of 100,000 from 0.01, leverage 10 or 100. */
export const currencyPair = (id: number, code: string, close: number, precision = 5): Instrument =>
  instrumentView({
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
