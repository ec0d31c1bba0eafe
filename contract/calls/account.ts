/** Spec §7 "Account and session". */
import { z } from 'zod/v4';
import { AccountType, CodePurpose, VerifyRegType } from '../enums';
import { codeField, IntField, OptionalText, RequiredText } from '../fields';
import { defineCall } from './define';

export const UserSchema = z.object({
  id: z.number().int(),
  uid: z.string(),
  email: z.string().nullable(),
  mobile: z.string().nullable(),
  area_id: z.number().int().nullable(),
  is_demo: z.union([z.literal(0), z.literal(1)]),
  invite_code: z.string(),
  created_at: z.string(),
});
export type User = z.infer<typeof UserSchema>;

export const SessionSchema = z.object({ token: z.string(), user: UserSchema });
/**
 * What `loginForU` answers instead of a session when the account has a second factor (issue 38, our own extension:
 * a broker's backend never sends it): no token exists yet. The ticket lives LOGIN_TICKET_TTL_MS (calls/security.ts)
 * and is spent by `login_factor`; it is a secret of the web server, never the browser's.
 */
export const FactorChallengeSchema = z.object({
  factor_required: z.literal(true),
  ticket: z.string(),
  /** What the second step accepts: the authenticator's code, a passkey, a code sent to the e-mail or phone. */
  factors: z.array(z.enum(['totp', 'passkey', 'email', 'sms'])).default(['totp']),
});

const LoginSchema = z.object({
  account: RequiredText,
  password: z.string().min(1, 'required'),
  login_type: z.enum(['email', 'mobile']).default('email'),
  /** Mobile login only: the area code's id. */
  area_id: IntField.optional(),
});
export const loginForU = defineCall({
  name: 'loginForU',
  method: 'POST',
  path: '/api/user/loginForU',
  auth: 'none',
  request: LoginSchema,
  response: z.union([SessionSchema, FactorChallengeSchema]),
});

export const createAccountDemoForU = defineCall({
  name: 'createAccountDemoForU',
  method: 'GET',
  path: '/api/user/createAccountDemoForU',
  auth: 'none',
  request: z.object({ demo_id: z.string().uuid() }),
  response: SessionSchema,
});

export const info = defineCall({
  name: 'info',
  method: 'GET',
  path: '/api/user/info',
  auth: 'required',
  request: z.object({}),
  response: UserSchema,
});

export const logout = defineCall({
  name: 'logout',
  method: 'POST',
  path: '/api/user/logout',
  auth: 'required',
  request: z.object({}),
  response: z.null(),
});

const RegisterSchema = z.object({
  type: codeField([AccountType.Email, AccountType.Mobile]).default(AccountType.Email),
  area_id: IntField.optional(),
  account: RequiredText,
  password: z.string().min(1, 'required'),
  re_password: z.string().min(1, 'required'),
  invite_code: OptionalText,
  /** The e-mail/SMS code, or the captcha's text when verify_reg_type is 2. */
  sms_code: RequiredText,
  /** The captcha's id when verify_reg_type is 2. */
  key: OptionalText,
  mobile: OptionalText,
});
export const register = defineCall({
  name: 'register',
  method: 'POST',
  path: '/api/user/register',
  auth: 'none',
  request: RegisterSchema,
  response: SessionSchema,
});

const SendCodeAnswer = z.object({ resend_after: z.number().int(), expires_in: z.number().int() });

const SendEmailSchema = z.object({
  to: RequiredText,
  type: codeField([CodePurpose.Register, CodePurpose.Reset]),
  area_id: IntField.optional(),
});
export const sendEmail = defineCall({
  name: 'send_email',
  method: 'POST',
  path: '/api/notify/send_email',
  auth: 'optional',
  request: SendEmailSchema,
  response: SendCodeAnswer,
});

const SendSmsSchema = z.object({
  to: RequiredText,
  area_id: IntField,
  type: codeField([CodePurpose.Register, CodePurpose.Reset]),
});
export const sendSms = defineCall({
  name: 'send_sms',
  method: 'POST',
  path: '/api/notify/send_sms',
  auth: 'optional',
  request: SendSmsSchema,
  response: SendCodeAnswer,
});

/** Spec: "GET {token}: captcha, returns id and b64s" — b64s is a data: URL of the picture. */
export const captcha = defineCall({
  name: 'captcha',
  method: 'GET',
  path: '/api/captcha',
  auth: 'none',
  request: z.object({}),
  response: z.object({ id: z.string(), b64s: z.string() }),
});

const ForgetPasswordSchema = z.object({
  type: codeField([AccountType.Email, AccountType.Mobile]).default(AccountType.Email),
  account: RequiredText,
  area_id: IntField.optional(),
  new_password: z.string().min(1, 'required'),
  secondary_password: z.string().min(1, 'required'),
  auth_code: RequiredText,
});
export const forgetPassword = defineCall({
  name: 'forget_password',
  method: 'POST',
  path: '/api/user/forget_password',
  auth: 'none',
  request: ForgetPasswordSchema,
  response: z.null(),
});

const AmendPasswordSchema = z.object({
  new_password: z.string().min(1, 'required'),
  auth_code: RequiredText,
  /** Where the code was sent: 1 the account's e-mail, 2 its phone. */
  type: codeField([AccountType.Email, AccountType.Mobile]).default(AccountType.Email),
  /** A step-up grant for `change_password` (calls/security.ts). */
  grant: z.string().trim().max(128).optional(),
});
export const amendPassword = defineCall({
  name: 'amend_password',
  method: 'POST',
  path: '/api/user/amend_password',
  auth: 'required',
  request: AmendPasswordSchema,
  response: z.null(),
});

const AreaCodeSchema = z.object({ id: z.number().int(), code: z.string(), global_code: z.string() });
export const areaList = defineCall({
  name: 'area_list',
  method: 'GET',
  path: '/api/default/area_list',
  auth: 'none',
  request: z.object({}),
  response: z.array(AreaCodeSchema),
});

export const setting = defineCall({
  name: 'setting',
  method: 'GET',
  path: '/api/default/setting',
  auth: 'none',
  request: z.object({ key: z.enum(['is_show_mobile']) }),
  response: z.object({ key: z.string(), value: z.number().int() }),
});

const BasicInfoSchema = z.object({
  service_link: z.string(),
  service_link_type: z.number().int(),
  verify_reg_type: z.union([z.literal(VerifyRegType.Code), z.literal(VerifyRegType.Captcha)]),
  trade_fee_type: z.number().int(),
  contact_email: z.string(),
});
export const getBasicInfo = defineCall({
  name: 'getBasicInfo',
  method: 'GET',
  path: '/api/basicSet/getBasicInfo',
  auth: 'none',
  request: z.object({}),
  response: BasicInfoSchema,
});

/** The invite screen: the user's code and how many people registered with it. */
export const inviteInfo = defineCall({
  name: 'invite_info',
  method: 'GET',
  path: '/api/user/invite_info',
  auth: 'required',
  request: z.object({}),
  response: z.object({ invite_code: z.string(), invited: z.number().int() }),
});
