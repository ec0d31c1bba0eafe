import { z } from 'zod';
import { CodeSchema, PASSWORD_MISMATCH } from '../register/schema';

/**
 * The change-password form (spec §5): both passwords required ("please complete"), the same twice
 * ("password inconsistency"), and the code. Messages are translation keys.
 */
export const ChangePasswordFormSchema = z
  .object({
    new_password: z.string({ required_error: 'auth:validation.complete' }).min(6, 'auth:validation.passwordTooShort'),
    secondary_password: z.string({ required_error: 'auth:validation.complete' }),
    auth_code: CodeSchema,
  })
  .refine((v) => v.new_password === v.secondary_password, { path: ['secondary_password'], message: PASSWORD_MISMATCH });
