/** The `{code, msg, data}` envelope of every upstream answer (spec §3, §7, §8). */
import { z } from 'zod/v4';

export const SUCCESS = 1;
/** Session invalid: token missing, unknown, expired or revoked. */
export const TOKEN_INVALID = 999;

export const EnvelopeSchema = z
  .object({
    code: z.number().int(),
    msg: z.string().default(''),
    data: z.unknown().optional(),
  })
  .passthrough();

export function ok<T>(data: T, extras: Record<string, unknown> = {}) {
  return { code: SUCCESS, msg: 'ok', data, ...extras };
}
