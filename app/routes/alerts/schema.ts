/** The alerts screen's forms: one schema for the browser and the action; messages are keys of `alerts`. */
import { z } from 'zod';
import { ALERT_NOTE_MAX, AlertDirection, directionFor } from '#contract/calls/alerts';
import { parseUnits } from '#contract/money';

export const ALERT_DIRECTIONS = ['above', 'below'] as const;
export type AlertSide = (typeof ALERT_DIRECTIONS)[number];

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

/**
 * The direction a typed price calls for against the current price (both at the instrument's decimals):
 * above it "rises to", below it "falls to", at it none (the trader must move the price or choose).
 */
export function sideFor(price: string, current: number, precision: number): AlertSide | null {
  const level = parseUnits(price.trim(), precision);
  const now = parseUnits(current.toFixed(precision), precision);
  if (level === null || level <= 0 || now === null || level === now) return null;
  return directionFor(level, now) === AlertDirection.Above ? 'above' : 'below';
}
