/**
 * Passkeys (WebAuthn, issue 38): a second factor that also signs in without a password. Our own calls, beside
 * calls/security.ts. The upstream makes each ceremony's options (its challenge single-use, for five minutes, bound to
 * a purpose and, but for a password-less log-in, to the user) and verifies the browser's answer with
 * @simplewebauthn/server. The web server names the page's origin in CLIENT_ORIGIN_HEADER: the relying party is that
 * origin's host. The browser's answers travel as their JSON text (the body is form-encoded).
 */
import { z } from 'zod/v4';
import { RequiredText } from '../fields';
import { SessionSchema } from './account';
import { defineCall } from './define';
import { GrantField, StepUpAction } from './security';

/** The page's origin (`https://lotfx.example`), as the web server passes it on each passkey call. */
export const CLIENT_ORIGIN_HEADER = 'x-client-origin';
/** Passkeys one account may hold. */
export const MAX_PASSKEYS = 10;
export const PASSKEY_NAME_MAX = 40;
/** The longest browser answer accepted (a real one is about 1–2 KB). */
export const PASSKEY_ANSWER_MAX = 16_384;

/** A browser's answer to a ceremony (RegistrationResponseJSON or AuthenticationResponseJSON), as JSON text. */
const Answer = RequiredText.pipe(z.string().max(PASSKEY_ANSWER_MAX));
/** The options a ceremony starts with (PublicKeyCredentialCreationOptionsJSON or …RequestOptionsJSON). */
const CeremonyOptions = z.record(z.string(), z.unknown());

export const PasskeySchema = z.object({
  id: z.string(),
  name: z.string(),
  created_at: z.number().int(),
  last_used_at: z.number().int().nullable(),
});
export type Passkey = z.infer<typeof PasskeySchema>;

export const passkeyList = defineCall({
  name: 'passkey_list',
  method: 'GET',
  path: '/v1/api/security/passkeys',
  auth: 'required',
  request: z.object({}),
  response: z.array(PasskeySchema),
});

export const passkeyRegisterOptions = defineCall({
  name: 'passkey_register_options',
  method: 'POST',
  path: '/v1/api/security/passkeys/register_options',
  auth: 'required',
  request: z.object({}),
  response: CeremonyOptions,
});

/** Keeps the new passkey; the account's first factor ends its other sessions, as the authenticator's does. */
export const passkeyRegister = defineCall({
  name: 'passkey_register',
  method: 'POST',
  path: '/v1/api/security/passkeys/register',
  auth: 'required',
  request: z.object({ name: RequiredText.pipe(z.string().max(PASSKEY_NAME_MAX)), answer: Answer }),
  response: PasskeySchema,
});

export const passkeyRename = defineCall({
  name: 'passkey_rename',
  method: 'POST',
  path: '/v1/api/security/passkeys/rename',
  auth: 'required',
  request: z.object({ id: RequiredText, name: RequiredText.pipe(z.string().max(PASSKEY_NAME_MAX)) }),
  response: z.null(),
});

/** Removing a factor is turning it off: it takes a `factor_off` grant. */
export const passkeyRemove = defineCall({
  name: 'passkey_remove',
  method: 'POST',
  path: '/v1/api/security/passkeys/remove',
  auth: 'required',
  request: z.object({ id: RequiredText, grant: GrantField }),
  response: z.null(),
});

/**
 * Options to sign in with a passkey: with no ticket, any passkey of this site (the phone offers its own); with the
 * ticket of a half-done log-in (the password was right), one of that account's passkeys as its second factor.
 */
export const passkeyLoginOptions = defineCall({
  name: 'passkey_login_options',
  method: 'POST',
  path: '/v1/api/security/passkeys/login_options',
  auth: 'none',
  request: z.object({ ticket: z.string().trim().max(128).optional() }),
  response: CeremonyOptions,
});

/** A passkey's answer (and the half-done log-in's ticket, when there is one): the session. */
export const passkeyLogin = defineCall({
  name: 'passkey_login',
  method: 'POST',
  path: '/v1/api/security/passkeys/login',
  auth: 'none',
  request: z.object({ answer: Answer, ticket: z.string().trim().max(128).optional() }),
  response: SessionSchema,
});

export const passkeyStepUpOptions = defineCall({
  name: 'passkey_step_up_options',
  method: 'POST',
  path: '/v1/api/security/passkeys/step_up_options',
  auth: 'required',
  request: z.object({ action: StepUpAction }),
  response: CeremonyOptions,
});

/** A passkey's answer for a grant of one action, as `step_up` gives for a code. */
export const passkeyStepUp = defineCall({
  name: 'passkey_step_up',
  method: 'POST',
  path: '/v1/api/security/passkeys/step_up',
  auth: 'required',
  request: z.object({ action: StepUpAction, answer: Answer }),
  response: z.object({ grant: z.string(), expires_at: z.number().int() }),
});
