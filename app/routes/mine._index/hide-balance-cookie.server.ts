import { createCookie } from '@remix-run/node';

/** Whether the user centre shows the balance as ****** (the eye toggle), remembered for a year. */
export const hideBalanceCookie = createCookie('__Host-hide-balance', {
  path: '/',
  httpOnly: true,
  secure: true,
  sameSite: 'lax',
  maxAge: 60 * 60 * 24 * 365,
});
