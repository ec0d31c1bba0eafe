/** Spec §7 "Markets and trading": the market data calls. */
import { z } from 'zod/v4';
import { CHART_PERIODS } from '../enums';
import { IntField, OptionalText } from '../fields';
import { defineCall } from './define';

export const QuotationSchema = z.object({
  Open: z.number(),
  Close: z.number(),
  /** Change since the day's open, in percent. */
  Change: z.number(),
  High: z.number(),
  Low: z.number(),
  Volume: z.number(),
});
export type Quotation = z.infer<typeof QuotationSchema>;

export const InstrumentSchema = z.object({
  Id: z.number().int(),
  Code: z.string(),
  ShowCode: z.string(),
  Logo: z.string(),
  CategoryId: z.number().int(),
  MarketStatus: z.number().int(),
  PricePrecision: z.number().int(),
  /** Lot step. */
  Pip: z.number(),
  /** Units per lot. */
  ForexContNum: z.number(),
  /** Minimum lots. */
  ForexMinCont: z.number(),
  ForexFeeRate: z.number(),
  MarginMode: z.number().int(),
  HasForexMultiple: z.array(z.object({ Value: z.number().int() })),
  ForexQuotations: QuotationSchema,
  /** The currency the price is quoted in; margin and profit are converted to USD (upstream.md). */
  QuoteCurrency: z.string(),
  /**
   * The weekly trading session (issue 40; optional: a broker's backend may not send it): the spans the market is
   * open, in minutes from Sunday 00:00 UTC, Open < Close ≤ 10080. One span of 0–10080: never closes.
   */
  TradingSessions: z
    .array(
      z.object({ Open: z.number().int().min(0).max(10080), Close: z.number().int().min(1).max(10080) }).refine((s) => s.Open < s.Close),
    )
    .optional(),
  /** The most lots one order may have; absent: no maximum is sent. */
  ForexMaxCont: z.number().positive().optional(),
  /**
   * The least distance, in points (the price's last decimal), between the price and a take profit, stop loss or
   * pending order's price; 0: any distance on the right side of the price. Absent: not sent.
   */
  StopsLevel: z.number().int().min(0).optional(),
});
export type Instrument = z.infer<typeof InstrumentSchema>;

export const tradeList = defineCall({
  name: 'trade_list',
  method: 'GET',
  path: '/v1/api/forex/trade_list',
  auth: 'none',
  request: z.object({ searchCurrency: OptionalText, category_id: IntField.optional() }),
  response: z.array(InstrumentSchema),
});

export const CategorySchema = z.object({ Id: z.number().int(), NameShowTrans: z.string(), Code: z.string() });
export type Category = z.infer<typeof CategorySchema>;
export const getCategories = defineCall({
  name: 'getCategories',
  method: 'GET',
  path: '/v1/api/forex/getCategories',
  auth: 'none',
  request: z.object({}),
  response: z.array(CategorySchema),
});

export const PeriodField = z.enum(CHART_PERIODS);

export const KlinePointSchema = z.object({
  /** Seconds since the epoch (UTC) at the candle's start. */
  Time: z.number().int(),
  Open: z.number(),
  High: z.number(),
  Low: z.number(),
  Close: z.number(),
  Volume: z.number(),
});
export type KlinePoint = z.infer<typeof KlinePointSchema>;

export const kline = defineCall({
  name: 'kline',
  method: 'GET',
  path: '/v1/api/forex/kline',
  auth: 'none',
  request: z.object({
    forex_id: IntField,
    period: PeriodField,
    limit: z.coerce.number().int().min(1).max(1000).default(300),
    /**
     * A cursor into history (issue 40; optional): a candle's `Time`. The answer is then the `limit` candles strictly
     * older than it, oldest first; absent: the newest ones, the current candle included.
     */
    before: IntField.optional(),
  }),
  response: z.array(KlinePointSchema),
});

/** A short close-price series per instrument for sparklines; every instrument when forex_id is absent. */
export const abbreviatedCacheKline = defineCall({
  name: 'abbreviated_cache_kline',
  method: 'GET',
  path: '/v1/api/forex/abbreviated_cache_kline',
  auth: 'none',
  request: z.object({ forex_id: IntField.optional(), period: PeriodField.default('60min') }),
  response: z.array(z.object({ forex_id: z.number().int(), points: z.array(z.number()) })),
});
