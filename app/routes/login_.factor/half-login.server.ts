/**
 * A half-done log-in (issue 38): the password was right and the account has a second factor. The upstream's ticket
 * stays on the server (a record of LOGIN_TICKET_TTL_MS); the browser holds only a random id in an HttpOnly cookie.
 */
import { createCookie, redirect } from '@remix-run/node';
import { LOGIN_TICKET_TTL_MS } from '#contract/calls/security';
import type { LoginFactor } from '~/upstream/account.server';
import { safeRedirectPath } from '~/utils/safe-redirect';
import { dropRecord, keepRecord, newRecordId, readRecord, SECRET } from '~/utils/session.server';

const cookie = createCookie('__Host-login', {
  path: '/',
  httpOnly: true,
  secure: true,
  sameSite: 'lax',
  secrets: [SECRET],
  maxAge: LOGIN_TICKET_TTL_MS / 1000,
});
const recordOf = (id: string) => `login-${id}`;

export interface HalfLogin {
  id: string;
  ticket: string;
  /** Where the log-in was asked from (same-origin path). */
  from: string;
  /** What the second step takes. */
  factors: LoginFactor[];
  /** Where a code for this log-in was sent (masked), once one was. */
  sentTo?: string;
}

/** Keeps the ticket and sends the browser to the code page (Post/Redirect/Get). */
export async function beginHalfLogin(ticket: string, factors: LoginFactor[], from: string): Promise<Response> {
  const id = newRecordId();
  await keepRecord(recordOf(id), { ticket, factors, from: safeRedirectPath(from, '/') }, LOGIN_TICKET_TTL_MS);
  return redirect('/login/factor', { headers: { 'Set-Cookie': await cookie.serialize(id) } });
}

/** This browser's half-done log-in; `started` says whether it had begun one (then expired or spent). */
export async function halfLoginOf(request: Request): Promise<{ login: HalfLogin | null; started: boolean }> {
  const id: unknown = await cookie.parse(request.headers.get('Cookie'));
  if (typeof id !== 'string') return { login: null, started: false };
  const kept = await readRecord<Omit<HalfLogin, 'id'>>(recordOf(id));
  return { login: kept ? { id, ...kept } : null, started: true };
}

/** Notes where this log-in's code went (the record keeps its first expiry's length again: a few seconds more at most). */
export async function noteLoginCodeSent(login: HalfLogin, to: string): Promise<void> {
  const { id, ...kept } = login;
  await keepRecord(recordOf(id), { ...kept, sentTo: to }, LOGIN_TICKET_TTL_MS);
}

/** Forgets a half-done log-in; answers the Set-Cookie that clears its cookie. */
export async function endHalfLogin(id: string | null): Promise<string> {
  if (id) await dropRecord(recordOf(id));
  return cookie.serialize('', { maxAge: 0 });
}
