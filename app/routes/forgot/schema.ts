import { z } from 'zod';
import { CodeSchema, EmailSchema, NewPasswordSchema, PASSWORD_MISMATCH } from '../register/schema';

/** "Send code" for a reset needs only the account's address (send_email, type 2). */
export const ForgotSendCodeSchema = z.object({ account: EmailSchema });

/** The forgotten-password form (spec §5): account, new password twice, the e-mailed code. */
export const ForgotFormSchema = z
  .object({
    account: EmailSchema,
    new_password: NewPasswordSchema,
    secondary_password: z.string({ required_error: 'auth:validation.rePasswordRequired' }),
    auth_code: CodeSchema,
  })
  .refine((v) => v.new_password === v.secondary_password, { path: ['secondary_password'], message: PASSWORD_MISMATCH });
