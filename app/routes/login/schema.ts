import { z } from 'zod';

/** The login form; messages are translation keys (spec §5: account and password required). */
export const LoginFormSchema = z.object({
  account: z.string({ required_error: 'auth:validation.accountRequired' }).trim().min(1, 'auth:validation.accountRequired'),
  password: z.string({ required_error: 'auth:validation.passwordRequired' }).min(1, 'auth:validation.passwordRequired'),
  login_type: z.enum(['email', 'mobile']).default('email'),
  area_id: z.coerce.number().int().positive().optional(),
  from: z.string().optional(),
});
