/** The realtime protocol of `/v1/ws` (upstream.md "Realtime"; spec §4). */
import { z } from 'zod/v4';
import { AlertSchema } from './calls/alerts';
import { PeriodField } from './calls/market';

export const WS_PATH = '/v1/ws';
export const PING = 'ping';
export const PONG = 'pong';
/** Socket heartbeat and reconnect rule (spec §9). */
export const WS_PING_INTERVAL_MS = 5000;
export const WS_MISSED_PINGS_BEFORE_RECONNECT = 3;
export const WS_CONNECT_TIMEOUT_MS = 5000;

export const Topic = {
  DayMarket: 'DAY_MARKET',
  ForexTrade: 'FOREX_TRADE',
  ForexClosed: 'FOREX_CLOSED',
  /** The user's price alerts as they fire (issue 13). */
  Alert: 'ALERT',
  kline: (code: string) => `KLINE.${code}` as const,
} as const;
export const PRIVATE_TOPICS: readonly string[] = [Topic.ForexTrade, Topic.ForexClosed, Topic.Alert];
const TopicSchema = z.string().regex(/^(DAY_MARKET|FOREX_TRADE|FOREX_CLOSED|ALERT|KLINE\.[A-Za-z0-9_.-]{1,32})$/);

/** Login's params are the token, alone or as {token}. */
const LoginParams = z.union([z.string(), z.object({ token: z.string() })]).transform((p) => (typeof p === 'string' ? p : p.token));
/** sub/unsub params are the topics, alone or as {topics}. */
const TopicParams = z
  .union([z.array(TopicSchema), TopicSchema, z.object({ topics: z.array(TopicSchema) })])
  .transform((p) => (typeof p === 'string' ? [p] : Array.isArray(p) ? p : p.topics));

export const ClientMessageSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('login'), params: LoginParams }),
  z.object({ type: z.literal('logout'), params: z.unknown().optional() }),
  z.object({ type: z.literal('sub'), params: TopicParams }),
  z.object({ type: z.literal('unsub'), params: TopicParams }),
]);

const LoginResultSchema = z.object({ type: z.literal('login_result'), code: z.number().int() });
const SubResultSchema = z.object({
  type: z.enum(['sub_result', 'unsub_result']),
  code: z.number().int(),
  topics: z.array(z.string()),
  msg: z.string().optional(),
});

export const DayMarketPushSchema = z.object({
  type: z.literal('DAY_MARKET'),
  symbol: z.string(),
  forex_id: z.number().int(),
  /** MarketStatus: 1 open. */
  market_status: z.number().int(),
  quotation: z.object({
    close: z.number(),
    change: z.number(),
    high: z.number(),
    low: z.number(),
    open: z.number(),
    volume: z.number(),
  }),
});
export type DayMarketPush = z.infer<typeof DayMarketPushSchema>;

export const KlinePushSchema = z.object({
  type: z.literal('KLINE'),
  symbol: z.string(),
  forex_id: z.number().int(),
  kline: z.object({
    Time: z.number().int(),
    Open: z.number(),
    High: z.number(),
    Low: z.number(),
    Close: z.number(),
    Volume: z.number(),
    Period: PeriodField,
  }),
});
export type KlinePush = z.infer<typeof KlinePushSchema>;

export const ForexTradePushSchema = z.object({
  type: z.literal('FOREX_TRADE'),
  /** Risk rate (equity ÷ used margin × 100); null with no margin in use. */
  HazardRate: z.number().nullable(),
  /** Used margin. */
  CautionMoneyAll: z.number(),
  /** Floating profit of all holding orders. */
  ProfitsTotal: z.number(),
  /** Net value (equity). */
  OriginCautionMoneyTotal: z.number(),
  Balance: z.number(),
  FreeMargin: z.number(),
  TransOrder: z.array(z.object({ Id: z.number().int(), FactProfits: z.number(), UpdatePrice: z.number() })),
});
export type ForexTradePush = z.infer<typeof ForexTradePushSchema>;

const ForexClosedPushSchema = z.object({ type: z.literal('FOREX_CLOSED'), id: z.array(z.number().int()) });

/** A price alert of the logged-in user fired (once): the alert as `alert/list` shows it, triggered. */
export const AlertPushSchema = z.object({ type: z.literal('ALERT'), alert: AlertSchema });
export type AlertPush = z.infer<typeof AlertPushSchema>;

export const ServerMessageSchema = z.discriminatedUnion('type', [
  LoginResultSchema,
  SubResultSchema.extend({ type: z.literal('sub_result') }),
  SubResultSchema.extend({ type: z.literal('unsub_result') }),
  DayMarketPushSchema,
  KlinePushSchema,
  ForexTradePushSchema,
  ForexClosedPushSchema,
  AlertPushSchema,
]);
export type ServerMessage = z.infer<typeof ServerMessageSchema>;
