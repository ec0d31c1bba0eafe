/** The withdrawal form (spec §5 "Withdraw"): currency, method and amount required; messages are keys. */
import { z } from 'zod';

export const WithdrawFormSchema = z.object({
  type: z.number().int(),
  currency: z
    .number({ required_error: 'withdraw:validation.currency', invalid_type_error: 'withdraw:validation.currency' })
    .int()
    .positive('withdraw:validation.currency'),
  /** Required to withdraw (checked by the action), not to calculate. */
  method: z.number({ invalid_type_error: 'withdraw:validation.bindFirst' }).int().positive('withdraw:validation.bindFirst').optional(),
  amount: z
    .string({ required_error: 'withdraw:validation.amountRequired' })
    .trim()
    .regex(/^\d{1,12}(\.\d{1,2})?$/, 'withdraw:validation.amountInvalid')
    .refine((a) => Number(a) > 0, 'withdraw:validation.amountInvalid'),
  memo: z.string().trim().max(100).optional(),
  idempotency_key: z.string().min(8).max(64),
  intent: z.enum(['quote', 'withdraw']).default('withdraw'),
});
