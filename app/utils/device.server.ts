import { createCookie } from '@remix-run/node';

/** This device's demo account id: a uuid kept for three years, so the same phone gets the same demo back. */
export const deviceCookie = createCookie('__Host-device', {
  path: '/',
  httpOnly: true,
  secure: true,
  sameSite: 'lax',
  maxAge: 60 * 60 * 24 * 365 * 3,
});
