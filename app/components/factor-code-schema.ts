/** A second factor's code as the log-in's second step and the step-up take it; messages are translation keys. */
import { z } from 'zod';

export const FactorCodeFormSchema = z.object({
  code: z
    .string({ required_error: 'security:validation.codeRequired' })
    .trim()
    .min(1, 'security:validation.codeRequired')
    .max(32, 'security:validation.codeInvalid'),
});
