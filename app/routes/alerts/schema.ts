/** The alerts screen's forms: one schema for the browser and the action; messages are keys of `alerts`. */
import { z } from 'zod';
import { ALERT_NOTE_MAX } from '#contract/alert-rules';
import { parseUnits } from '#contract/money';
import { ALERT_DIRECTIONS } from './side';

/** The add form for an instrument with `precision` price decimals. The direction may be left to the price. */
export function addAlertSchema(precision: number) {
  return z.object({
    intent: z.literal('add'),
    code: z.string().regex(/^[A-Za-z0-9]{1,32}$/),
    price: z
      .string({ required_error: 'alerts:validation.priceRequired' })
      .trim()
      .min(1, 'alerts:validation.priceRequired')
      .refine((s) => s === '' || (/^\d+(\.\d+)?$/.test(s) && Number(s) > 0), 'alerts:validation.price')
      .refine((s) => !/^\d+(\.\d+)?$/.test(s) || parseUnits(s, precision) !== null, {
        message: 'alerts:validation.decimals',
      }),
    direction: z.enum(ALERT_DIRECTIONS).optional(),
    note: z.string().trim().max(ALERT_NOTE_MAX, 'alerts:validation.note').optional(),
  });
}

export const DeleteAlertSchema = z.object({ intent: z.literal('delete'), id: z.coerce.number().int().positive() });
