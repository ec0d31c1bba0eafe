/**
 * Shared assertions of the contract tests: the envelope as a caller sees it, parsed with the call's own
 * zod schemas, the business error codes, and the money rule (JSON numbers, at most 6 decimals).
 */
import { expect } from 'vitest';
import { z } from 'zod/v4';
import { account } from '../../contract/index';
import * as security from '../../contract/calls/security';
import type { CallDef } from '../../contract/calls/define';
import { ErrorCode, type ErrorName } from '../../contract/errors';
import type { Envelope, TestUpstream } from '../testing';

/** A success envelope: code 1, `data` parsed by the call's response schema, extras parsed when the call has some. */
export function expectOk<C extends CallDef>(call: C, env: Envelope): z.output<C['response']> {
  expect(env.code, `${call.name} answered ${env.code} ${env.msg}`).toBe(1);
  expect(typeof env.msg).toBe('string');
  const data = call.response.safeParse(env.data);
  if (!data.success) throw new Error(`${call.name}: data does not match the contract: ${data.error.message}`);
  if (call.extras) {
    const extras = z.object(call.extras).safeParse(env);
    if (!extras.success) throw new Error(`${call.name}: extras do not match the contract: ${extras.error.message}`);
  }
  return data.data as z.output<C['response']>;
}

/** A log-in that answered a session (not the second factor's ticket). */
export function expectSession(env: Envelope): z.output<typeof account.SessionSchema> {
  const data = expectOk(account.loginForU, env);
  if (!('token' in data)) throw new Error('loginForU asked for a second factor');
  return data;
}

/** The extras beside `data` (my_deal's total, all_fact_profits, balance; forexChange's total). */
export function extrasOf<Shape extends z.ZodRawShape>(
  call: CallDef<z.ZodTypeAny, z.ZodTypeAny, Shape>,
  env: Envelope,
): z.output<z.ZodObject<Shape>> {
  if (!call.extras) throw new Error(`${call.name} has no extras`);
  return z.object(call.extras).parse(env);
}

/** A business error: exactly this code, no data, and a non-empty human message (not a bare key). */
export function expectError(env: Envelope, name: ErrorName): void {
  expect(env.code, `expected ${name} (${ErrorCode[name]}), got ${env.code} ${env.msg}`).toBe(ErrorCode[name]);
  expect(typeof env.msg).toBe('string');
  expect(env.msg.trim().length).toBeGreaterThan(0);
  expect(env.msg.startsWith('errors.')).toBe(false);
  expect(env.data ?? null).toBeNull();
}

/** A call whose auth is 'required' answers 999 with no token, an unknown token, and an unknown Bearer token. */
export async function expectTokenRequired<C extends CallDef>(
  up: TestUpstream,
  call: C,
  input: Record<string, unknown> = {},
): Promise<void> {
  expect(call.auth).toBe('required');
  expectError(await up.call(call, input), 'TokenInvalid');
  expectError(await up.call(call, input, { token: 'not-a-token-0123456789abcdefghijklmnopqrstu' }), 'TokenInvalid');
  expectError(await up.call(call, input, { token: 'Bearer not-a-token-0123456789abcdefghijklmnopqrstu' }), 'TokenInvalid');
}

/** A money figure as the contract sends it: a finite JSON number with at most 6 decimals. */
export function expectMoney(value: unknown): void {
  expect(typeof value).toBe('number');
  const n = value as number;
  expect(Number.isFinite(n)).toBe(true);
  expect(Number(n.toFixed(6))).toBe(n);
}

interface OutboxRow {
  channel: string;
  recipient: string;
  subject: string;
  body: string;
}

/** The newest outbox messages sent to `to` (newest first). */
export async function outbox(up: TestUpstream, to: string): Promise<OutboxRow[]> {
  const res = await up.admin('GET', `/admin/outbox?to=${encodeURIComponent(to)}`);
  expect(res.status).toBe(200);
  return (res.json as { outbox: OutboxRow[] }).outbox;
}

/** The 6-digit code of the newest message to `to`. */
export async function lastCode(up: TestUpstream, to: string): Promise<string> {
  const [latest] = await outbox(up, to);
  const m = /\b(\d{6})\b/.exec(latest?.body ?? '');
  if (!m) throw new Error(`no code in the outbox for ${to}: ${JSON.stringify(latest)}`);
  return m[1]!;
}

let emailSeq = 0;
/** A fresh e-mail address, unique within the test run. */
export function freshEmail(prefix = 'user'): string {
  emailSeq += 1;
  return `${prefix}.${emailSeq}.${Date.now().toString(36)}@example.com`;
}

/** Registers a real account by e-mail with a code read from the outbox; returns its session. */
export async function registerByEmail(
  up: TestUpstream,
  email: string,
  password = 'secret123',
): Promise<{ token: string; user: z.output<typeof account.UserSchema> }> {
  expectOk(account.sendEmail, await up.call(account.sendEmail, { to: email, type: 1 }));
  const code = await lastCode(up, email);
  const env = await up.call(account.register, { type: 1, account: email, password, re_password: password, sms_code: code });
  return expectOk(account.register, env);
}

/**
 * A step-up grant for `action` on this session, as an account without the authenticator gets one: the code sent to
 * its e-mail, read from the outbox. A code for the same action sent less than a minute ago moves the clock past it.
 */
export async function grantFor(up: TestUpstream, token: string, action: security.StepUpAction): Promise<string> {
  const me = expectOk(account.info, await up.call(account.info, {}, { token }));
  let sent = await up.call(security.stepUpSend, { action }, { token });
  if (sent.code === ErrorCode.CodeTooSoon) {
    up.advance(61_000);
    sent = await up.call(security.stepUpSend, { action }, { token });
  }
  expectOk(security.stepUpSend, sent);
  const code = await lastCode(up, me.email!);
  return expectOk(security.stepUp, await up.call(security.stepUp, { action, code }, { token })).grant;
}

/**
 * Calls a protected call with a grant for `action`, getting a new one only when the last was spent: a refused call
 * keeps its grant (so a test of many refusals does not send a code for each).
 */
export function withGrants(up: TestUpstream, action: security.StepUpAction) {
  const kept = new Map<string, string>();
  return async <C extends CallDef>(call: C, input: Record<string, unknown>, token: string): Promise<Envelope> => {
    const grant = kept.get(token) ?? (await grantFor(up, token, action));
    const env = await up.call(call, { ...input, grant }, { token });
    if (env.code === 1) kept.delete(token);
    else kept.set(token, grant);
    return env;
  };
}
