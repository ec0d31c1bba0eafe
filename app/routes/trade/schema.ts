/**
 * The order form (spec §5 "Order"), one schema for the browser (conform) and the action. Messages are
 * translation keys. The instrument's own rules (lot step and minimum, price decimals, leverage values)
 * come from `rulesFor`: the page's instrument in the browser, the trade list in the action. The browser loads it
 * after the page is up (order-form.tsx, components/late-checks.ts).
 */
import { z } from 'zod';
import { EntryMode, Side } from '#contract/enums';
import { parseUnits } from '#contract/money';
import { lotsMilliOf, MAX_ORDER_LOTS_MILLI } from './estimates';
import type { OrderRules } from './order-rules';

const PLAIN_DECIMAL = /^\d+(\.\d+)?$/;

/** A take-profit, stop-loss or target price as typed: empty or a non-negative decimal. */
const priceText = z.string().trim().max(32).optional();

/** The fields, made once: an order post only adds the check against its instrument's rules (building zod objects cost every post). */
const orderFields = z.object({
  forex_id: z
    .number({ required_error: 'trade:validation.instrument', invalid_type_error: 'trade:validation.instrument' })
    .int()
    .positive('trade:validation.instrument'),
  code: z.string().trim().max(32).optional(),
  // Optional here so that checking one field before submit (no button pressed yet) still checks the rest.
  side: z.number({ invalid_type_error: 'trade:validation.side' }).int().optional(),
  lots: z.string({ required_error: 'trade:validation.lotsRequired' }).trim().max(32),
  leverage: z.number({ required_error: 'trade:validation.leverage', invalid_type_error: 'trade:validation.leverage' }).int(),
  entry: z.number({ invalid_type_error: 'trade:validation.entry' }).int().default(EntryMode.Market),
  target_price: priceText,
  take_profit: priceText,
  stop_loss: priceText,
  /** A trailing stop's distance in price units (empty or 0: none); the upstream checks it against the price. */
  trail_distance: priceText,
  /** The price on screen when buy or sell was pressed: the upstream refuses a fill too far from it. */
  seen_price: priceText,
  idempotency_key: z.string().max(64).optional(),
});

export function orderFormSchema(rulesFor: (forexId: number) => OrderRules | undefined) {
  return orderFields.superRefine((order, ctx) => {
    const issue = (path: string, message: string) => ctx.addIssue({ code: z.ZodIssueCode.custom, path: [path], message });
    const rules = rulesFor(order.forex_id);
    if (order.side !== undefined && order.side !== Side.Buy && order.side !== Side.Sell) issue('side', 'trade:validation.side');
    if (order.entry !== EntryMode.Market && order.entry !== EntryMode.Pending) issue('entry', 'trade:validation.entry');

    const lots = lotsMilliOf(order.lots);
    if (lots === null) issue('lots', 'trade:validation.lotsInvalid');
    else if (lots <= 0) issue('lots', 'trade:validation.lotsPositive');
    else if (lots > MAX_ORDER_LOTS_MILLI) issue('lots', 'trade:validation.lotsTooLarge');
    else if (rules && lots < rules.minMilli) issue('lots', 'trade:validation.lotsMinimum');
    else if (rules && lots % rules.stepMilli !== 0) issue('lots', 'trade:validation.lotsStep');

    if (rules && rules.leverages.length === 0) ctx.addIssue({ code: z.ZodIssueCode.custom, path: [], message: 'trade:leverageMissing' });
    else if (rules && !rules.leverages.includes(order.leverage)) issue('leverage', 'trade:validation.leverage');

    const checkPrice = (name: 'target_price' | 'take_profit' | 'stop_loss', text: string | undefined) => {
      if (text === undefined) return;
      if (!PLAIN_DECIMAL.test(text)) issue(name, /^-/.test(text) ? 'trade:validation.priceNegative' : 'trade:validation.priceInvalid');
      else if (rules && parseUnits(text, rules.precision) === null) issue(name, 'trade:validation.priceDecimals');
    };
    checkPrice('take_profit', order.take_profit);
    checkPrice('stop_loss', order.stop_loss);
    if (order.trail_distance !== undefined) {
      const text = order.trail_distance;
      if (!PLAIN_DECIMAL.test(text)) issue('trail_distance', /^-/.test(text) ? 'trade:trailing.negative' : 'trade:trailing.invalid');
      else if (rules && parseUnits(text, rules.precision) === null) issue('trail_distance', 'trade:trailing.decimals');
    }
    if (order.entry === EntryMode.Pending) {
      if (order.target_price === undefined || /^0*(\.0*)?$/.test(order.target_price))
        issue('target_price', 'trade:validation.targetRequired');
      else checkPrice('target_price', order.target_price);
    }
  });
}

const schemasByInstrument = new Map<string, ReturnType<typeof orderFormSchema>>();
/** An instrument whose rules are not known (not listed, or the list could not be read): the upstream checks them. */
const withoutRules = orderFormSchema(() => undefined);

/**
 * The schema for orders of one instrument under its rules, made once: conform keeps its coerced copy of a
 * schema per schema object, so a schema made for every post rebuilt that copy (and zod's objects) every time,
 * a tenth of an order's CPU on the server. Only listed instruments get a schema of their own, so posted ids
 * cannot fill the cache.
 */
export function orderSchemaFor(forexId: number, rules: OrderRules | undefined) {
  if (!rules) return withoutRules;
  const key = `${forexId}|${JSON.stringify(rules)}`;
  let schema = schemasByInstrument.get(key);
  if (!schema) {
    // Instruments and their rules are few; the bound only keeps a changing list from growing this forever.
    if (schemasByInstrument.size >= 500) schemasByInstrument.clear();
    schema = orderFormSchema((id) => (id === forexId ? rules : undefined));
    schemasByInstrument.set(key, schema);
  }
  return schema;
}

export type OrderFormValues = z.infer<ReturnType<typeof orderFormSchema>>;
