/** CSRF: a signed token in a `__Host-` cookie, echoed by every state-changing form (remix-utils). */
import { createCookie } from '@remix-run/node';
import { CSRF, CSRFError } from 'remix-utils/csrf/server';
import { SECRET } from './session.server';

const cookie = createCookie('__Host-csrf', { path: '/', httpOnly: true, secure: true, sameSite: 'lax', secrets: [SECRET] });

export const csrf = new CSRF({ cookie, formDataKey: 'csrf', secret: SECRET });

/** Throws a 403 response when the form's token does not match the cookie's. */
export async function validateCsrf(formData: FormData, headers: Headers): Promise<void> {
  try {
    await csrf.validate(formData, headers);
  } catch (error) {
    if (error instanceof CSRFError) throw new Response('Invalid form: please reload the page and try again.', { status: 403 });
    throw error;
  }
}
