import { z } from 'zod';
import { CLOSE_ALL_SCOPES } from '#contract/close-scopes';

const OrderId = z.coerce
  .number({ invalid_type_error: 'orders:validation.order' })
  .int('orders:validation.order')
  .positive('orders:validation.order');

/** A take-profit or stop-loss price: empty (or 0) removes it; messages are translation keys. */
const StopPrice = z
  .string()
  .trim()
  .regex(/^\d+(\.\d+)?$/, 'orders:validation.price')
  .optional();

/** A trailing stop's distance in price units: empty (or 0) turns it off. The upstream checks ticks and size. */
const TrailDistanceText = z
  .string()
  .trim()
  .regex(/^-?\d+(\.\d+)?$/, 'orders:trailing.invalid')
  .refine((s) => !s.startsWith('-'), 'orders:trailing.negative')
  .optional();

/**
 * The detail popup's take-profit, stop-loss and trailing stop form (spec §2 "Orders"): the browser and the
 * action use it.
 */
export const StopsFormSchema = z.object({
  intent: z.literal('stops'),
  id: OrderId,
  take_profit: StopPrice,
  stop_loss: StopPrice,
  trail_distance: TrailDistanceText,
  /** Where a save sent from another screen (a line dragged on the trade chart) returns: a same-site path. */
  redirect_to: z.string().max(512).optional(),
});

/** "Show amounts" of the same form without JavaScript: the money at those prices, nothing saved. */
export const StopsPreviewSchema = StopsFormSchema.extend({ intent: z.literal('stops-preview') });

/** Lots to close: a plain decimal (the upstream checks the step, the minimum and what is held). */
const CloseLots = z
  .string({ required_error: 'orders:validation.lots' })
  .trim()
  .regex(/^\d+(\.\d{1,3})?$/, 'orders:validation.lots')
  .refine((s) => Number(s) > 0, 'orders:validation.lots');

/**
 * "Close position" on a holding order: all of it, or the lots typed (`intent=close`); `intent=preview` only
 * shows what those lots would realise (a page reload without JavaScript).
 */
export const CloseFormSchema = z.discriminatedUnion('intent', [
  // The lots are required: a field the trader emptied must not be read as "close all of it".
  z.object({ intent: z.literal('close'), id: OrderId, cont: CloseLots, idempotency_key: z.string().max(64).optional() }),
  z.object({ intent: z.literal('preview'), id: OrderId, cont: CloseLots }),
]);

/** "Close all" (winning, losing or every holding position), confirmed first. */
export const CloseAllFormSchema = z.object({
  intent: z.literal('close-all'),
  scope: z.enum(CLOSE_ALL_SCOPES),
  idempotency_key: z.string().max(64).optional(),
});

/** "Cancel order" on a pending order. */
export const CancelFormSchema = z.object({ intent: z.literal('cancel'), id: OrderId });

/** Every post of the orders screen, told apart by its submit button's `intent`. */
export const OrderActionSchema = z.discriminatedUnion('intent', [
  StopsFormSchema,
  StopsPreviewSchema,
  ...CloseFormSchema.options,
  CancelFormSchema,
  CloseAllFormSchema,
]);
