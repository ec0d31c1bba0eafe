/**
 * Account security (issue 38): an authenticator app (TOTP) as a second factor, the log-in's second step, step-up
 * grants before money or identity changes, and the signed-in devices an owner can see and end. Not in the spec: our
 * own calls, as alerts and push are. An upstream that does not offer them (a broker's own backend) answers 404 on
 * `security_status`; the web app then hides these screens and sends no grants.
 *
 * A step-up grant is issued by the upstream for one user, one session (the token that asked) and one action, for
 * five minutes, after a second factor: the authenticator's code or a recovery code when the authenticator is on,
 * else a code sent for that action to the account's e-mail (or phone). The protected calls (`bind_draw_method`,
 * `del_draw_method`, `draw`, `amend_password`, `totp_disable`) take it as their `grant` field and spend it only when
 * they succeed; without a valid one they are refused with one of the StepUp* codes of contract/errors.ts.
 */
import { z } from 'zod/v4';
import { RequiredText } from '../fields';
import { SessionSchema } from './account';
import { defineCall } from './define';

/** What a step-up grant allows. */
export const StepUpAction = z.enum(['bind_method', 'delete_method', 'withdraw', 'change_password', 'factor_off']);
export type StepUpAction = z.infer<typeof StepUpAction>;
/** A step-up grant lives this long. */
export const STEP_UP_TTL_MS = 5 * 60 * 1000;
/** A half-done log-in (password given, factor not yet) expires after this. */
export const LOGIN_TICKET_TTL_MS = 5 * 60 * 1000;
/** Recovery codes made when the authenticator is turned on, each good once. */
export const RECOVERY_CODES = 10;

/** A protected call's `grant` field. */
export const GrantField = z.string().trim().max(128).optional();
/**
 * The web server passes the browser's user agent on each call as this header (the address goes as
 * `x-forwarded-for`), so that the upstream can word a signed-in device and notice a new one.
 */
export const USER_AGENT_HEADER = 'x-client-user-agent';

/** A six-digit authenticator or sent code, or a recovery code (`xxxx-xxxx`, letters and digits). */
export const FactorCode = RequiredText.pipe(z.string().max(32));

export const SecurityStatusSchema = z.object({
  /** The authenticator app is on. */
  totp: z.boolean(),
  /** Passkeys held (calls/passkeys.ts); a step-up may also take one of them. */
  passkeys: z.number().int().default(0),
  /** Recovery codes not yet used. */
  recovery_codes_left: z.number().int(),
  /** What a step-up asks for: the authenticator (or a recovery code), else a code sent to the e-mail or phone. */
  step_up: z.enum(['totp', 'email', 'sms']),
  /** Withdrawals held until then (ms since the epoch; the operator removed the factors), or null. */
  withdrawals_held_until: z.number().int().nullable(),
});
export type SecurityStatus = z.infer<typeof SecurityStatusSchema>;

export const securityStatus = defineCall({
  name: 'security_status',
  method: 'GET',
  path: '/v1/api/security/status',
  auth: 'required',
  request: z.object({}),
  response: SecurityStatusSchema,
});

/** Starts setting up the authenticator: a new secret, kept pending (replacing any earlier pending one) until confirmed. */
export const totpSetup = defineCall({
  name: 'totp_setup',
  method: 'POST',
  path: '/v1/api/security/totp/setup',
  auth: 'required',
  request: z.object({}),
  /** The secret in base32 (typed by hand) and the `otpauth://totp/…` URI (drawn as a QR code). */
  response: z.object({ secret: z.string(), uri: z.string() }),
});

/** Confirms the pending secret with a first code: the authenticator is on, the user's other sessions end. */
export const totpConfirm = defineCall({
  name: 'totp_confirm',
  method: 'POST',
  path: '/v1/api/security/totp/confirm',
  auth: 'required',
  request: z.object({ code: FactorCode }),
  /** Shown once; the upstream keeps only their hashes. */
  response: z.object({ recovery_codes: z.array(z.string()) }),
});

export const totpDisable = defineCall({
  name: 'totp_disable',
  method: 'POST',
  path: '/v1/api/security/totp/disable',
  auth: 'required',
  request: z.object({ grant: GrantField }),
  response: z.null(),
});

/** Sends a code for one action to an account without a factor (refused with StepUpUseFactor when it has one). */
export const stepUpSend = defineCall({
  name: 'step_up_send',
  method: 'POST',
  path: '/v1/api/security/step_up/send',
  auth: 'required',
  request: z.object({ action: StepUpAction }),
  /** Where it went, masked (`a***@example.com`, `***1234`). */
  response: z.object({ channel: z.enum(['email', 'sms']), to: z.string() }),
});

/** Trades a second factor for a grant: the authenticator's code, a recovery code, or the code sent for this action. */
export const stepUp = defineCall({
  name: 'step_up',
  method: 'POST',
  path: '/v1/api/security/step_up',
  auth: 'required',
  request: z.object({ action: StepUpAction, code: FactorCode }),
  response: z.object({ grant: z.string(), expires_at: z.number().int() }),
});

/** Spends the ticket `loginForU` answered with (FactorChallengeSchema, calls/account.ts) and a code: the session. */
export const loginFactor = defineCall({
  name: 'login_factor',
  method: 'POST',
  path: '/v1/api/security/login',
  auth: 'none',
  request: z.object({ ticket: RequiredText, code: FactorCode }),
  response: SessionSchema,
});

/**
 * For an account whose only factor is a passkey, on a browser that cannot use it (no JavaScript): a code for this
 * log-in sent to the account's e-mail or phone, which `login_factor` then takes.
 */
export const loginFactorSend = defineCall({
  name: 'login_factor_send',
  method: 'POST',
  path: '/v1/api/security/login/send',
  auth: 'none',
  request: z.object({ ticket: RequiredText }),
  response: z.object({ channel: z.enum(['email', 'sms']), to: z.string() }),
});

/** One signed-in device: an upstream token, with what the web server told the upstream at log-in. */
export const DeviceSessionSchema = z.object({
  id: z.string(),
  /** The browser's user agent as given at log-in (the web app words it). */
  user_agent: z.string(),
  /** The address, masked (`203.0.113.x`, `2001:db8:…`). */
  address: z.string(),
  created_at: z.number().int(),
  last_seen_at: z.number().int(),
  /** The session that asked. */
  current: z.boolean(),
});
export type DeviceSession = z.infer<typeof DeviceSessionSchema>;

export const sessionList = defineCall({
  name: 'session_list',
  method: 'GET',
  path: '/v1/api/security/sessions',
  auth: 'required',
  request: z.object({}),
  response: z.array(DeviceSessionSchema),
});

/** Ends one session (its token is revoked: the next call with it answers 999). */
export const sessionEnd = defineCall({
  name: 'session_end',
  method: 'POST',
  path: '/v1/api/security/sessions/end',
  auth: 'required',
  request: z.object({ id: RequiredText }),
  response: z.null(),
});

/** Ends every session of the user but the one that asks. */
export const sessionEndOthers = defineCall({
  name: 'session_end_others',
  method: 'POST',
  path: '/v1/api/security/sessions/end_others',
  auth: 'required',
  request: z.object({}),
  response: z.null(),
});
