/** The deposit form (spec §5 "Deposit"), one schema for the browser and the action; messages are keys. */
import { z } from 'zod';

/** At most 2 decimals: the amount is USD, and cents are what a bank or a coin transfer names. */
export const AMOUNT = /^\d{1,12}(\.\d{1,2})?$/;

export const DepositFormSchema = z.object({
  method: z.enum(['coin', 'wire']),
  channel: z
    .number({ required_error: 'deposit:validation.network', invalid_type_error: 'deposit:validation.network' })
    .int()
    .positive('deposit:validation.network'),
  amount: z
    .string({ required_error: 'deposit:validation.amountRequired' })
    .trim()
    .regex(AMOUNT, 'deposit:validation.amountInvalid')
    .refine((a) => Number(a) > 0, 'deposit:validation.amountInvalid'),
  /** The upload reference of a proof already sent (with JavaScript, or by an earlier try of this form). */
  proofImg: z.string().max(200).optional(),
  idempotency_key: z.string().min(8).max(64),
});
export type DepositForm = z.infer<typeof DepositFormSchema>;
