import { createCookie } from '@remix-run/node';

/** Three years (spec §9 keeps the company choice that long; the device and language follow it). */
export const THREE_YEARS_SECONDS = 60 * 60 * 24 * 365 * 3;

/** A remembered choice: HttpOnly, Secure, SameSite=Lax, for the whole site, for three years. */
export function longLivedCookie(name: string) {
  return createCookie(name, { path: '/', httpOnly: true, secure: true, sameSite: 'lax', maxAge: THREE_YEARS_SECONDS });
}
