import { z } from 'zod';

/** An e-mail address the upstream will accept (it checks the same shape). */
export const EmailSchema = z.string({ required_error: 'auth:validation.emailRequired' }).trim().email('auth:validation.emailInvalid');

/** A new password: the upstream's minimum length, checked before the round trip. */
export const NewPasswordSchema = z
  .string({ required_error: 'auth:validation.passwordRequired' })
  .min(6, 'auth:validation.passwordTooShort');

export const CodeSchema = z.string({ required_error: 'auth:validation.codeRequired' }).trim();

/** "Password inconsistency" (spec §5): the message of every password-confirmation check. */
export const PASSWORD_MISMATCH = 'auth:validation.passwordMismatch';

/** "Send code" needs only the address (spec §7 send_email, type 1). */
export const RegisterSendCodeSchema = z.object({ account: EmailSchema });

const RegisterFields = z.object({
  account: EmailSchema,
  password: NewPasswordSchema,
  re_password: z.string({ required_error: 'auth:validation.rePasswordRequired' }),
  sms_code: CodeSchema,
  /** The picture's id when verify_reg_type is 2. */
  key: z.string().optional(),
  invite_code: z.string().trim().max(32).optional(),
  area_id: z.coerce.number().int().positive().optional(),
  mobile: z
    .string()
    .trim()
    .regex(/^\d{5,15}$/, 'auth:validation.mobileInvalid')
    .optional(),
  from: z.string().optional(),
});

/** The sign-up form with an e-mailed code (verify_reg_type 1). Messages are translation keys. */
export const RegisterFormSchema = RegisterFields.refine((v) => v.password === v.re_password, {
  path: ['re_password'],
  message: PASSWORD_MISMATCH,
});

/** The sign-up form with a picture code (verify_reg_type 2): the same fields, its own words. */
export const RegisterCaptchaFormSchema = RegisterFields.extend({
  sms_code: z.string({ required_error: 'auth:validation.captchaRequired' }).trim(),
}).refine((v) => v.password === v.re_password, { path: ['re_password'], message: PASSWORD_MISMATCH });
