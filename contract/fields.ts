/** Field schemas shared by many calls: how wire values (form strings or JSON) are read. */
import { z } from 'zod/v4';

/** An integer sent as a number or a form string. */
export const IntField = z.coerce.number().int().safe();
export const PositiveInt = IntField.refine((n) => n > 0, { message: 'must be positive' });
export const PageField = z.coerce.number().int().min(1).max(100_000).default(1);

// Absent and null are taken by `.nullish()` before a union: a union tries its members in turn, and each miss builds an
// issue with its message (decision 0050).

/** A non-negative decimal sent as a number or a string, kept as its exact text. */
export const DecimalField = z
  .union([z.string(), z.number()])
  .transform((v) => (typeof v === 'number' ? String(v) : v.trim()))
  .refine((s) => /^\d+(\.\d+)?$/.test(s) || /^\d+(\.\d+)?e[-+]?\d+$/i.test(s), { message: 'not a decimal number' })
  .transform((s) =>
    /e/i.test(s)
      ? Number(s)
          .toFixed(20)
          .replace(/\.?0+$/, '')
      : s,
  );

/**
 * A take-profit, stop-loss or target price: 0, empty or absent means "not set" (null); otherwise a
 * positive decimal kept as its exact text.
 */
export const OptionalPriceField = z
  .union([z.string(), z.number()])
  .nullish()
  .transform((v) => (v === null || v === undefined ? '' : typeof v === 'number' ? String(v) : v.trim()))
  .refine((s) => s === '' || /^\d+(\.\d+)?$/.test(s), { message: 'not a decimal number' })
  .transform((s) => (s === '' || /^0+(\.0+)?$/.test(s) ? null : s));

/**
 * A price distance (a trailing stop's): 0, empty or absent means "off" (null); otherwise a decimal kept as its
 * exact text, its sign included, so that the upstream refuses a negative one with its own business code.
 */
export const OptionalDistanceField = z
  .union([z.string(), z.number()])
  .nullish()
  .transform((v) => (v === null || v === undefined ? '' : typeof v === 'number' ? String(v) : v.trim()))
  .refine((s) => s === '' || /^-?\d+(\.\d+)?$/.test(s), { message: 'not a decimal number' })
  .transform((s) => (s === '' || /^-?0+(\.0+)?$/.test(s) ? null : s));

/** Optional text: an empty form field is the same as an absent one. */
export const OptionalText = z
  .string()
  .nullish()
  .transform((v) => (v == null || v.trim() === '' ? undefined : v.trim()));

export const RequiredText = z.string().trim().min(1, 'required');

/** A choice among numeric codes, sent as a number or a form string. */
export function codeField<const T extends readonly number[]>(values: T) {
  return z.coerce
    .number()
    .int()
    .pipe(z.literal(values, { error: `one of ${values.join(', ')}` }));
}
