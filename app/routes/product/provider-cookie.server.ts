import { createCookie } from '@remix-run/node';

/** The service provider chosen with "direct enter" (spec §9: kept three years). */
export const providerCookie = createCookie('__Host-company', {
  path: '/',
  httpOnly: true,
  secure: true,
  sameSite: 'lax',
  maxAge: 60 * 60 * 24 * 365 * 3,
});
