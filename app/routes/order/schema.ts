import { z } from 'zod';

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

/** The detail popup's take-profit and stop-loss form (spec §2 "Orders"): the browser and the action use it. */
export const StopsFormSchema = z.object({
  intent: z.literal('stops'),
  id: OrderId,
  take_profit: StopPrice,
  stop_loss: StopPrice,
});

/** "Close position" on a holding order. */
export const CloseFormSchema = z.object({ intent: z.literal('close'), id: OrderId });

/** "Cancel order" on a pending order. */
export const CancelFormSchema = z.object({ intent: z.literal('cancel'), id: OrderId });

/** Every post of the orders screen, told apart by its submit button's `intent`. */
export const OrderActionSchema = z.discriminatedUnion('intent', [StopsFormSchema, CloseFormSchema, CancelFormSchema]);
