/**
 * Pages that show nothing personal to a visitor: the same bytes for every visitor during their second, so a
 * shared cache (nginx's microcache, a CDN, or the server's own copy: server/pages.ts) may answer them. Such a
 * page carries no CSRF token and sets no cookie; the pages a visitor can post from get their token from the
 * root loader (root.tsx), and leaving a shared page fetches it (decision 0038).
 */
import { cookieValue } from '#contract/cookies';
import { LANGUAGE_COOKIE } from '~/i18n/config';
import { sessionCookie, toastCookie } from './session.server';
import { SHARED_PATHS } from './shared-pages';

/** Cookies that make a page someone's: the session, and a one-time toast. */
const PERSONAL_COOKIES = [sessionCookie.name, toastCookie.name];

export const sharedPages = {
  isShared(method: string, pathname: string, cookie: string | null | undefined): boolean {
    if ((method !== 'GET' && method !== 'HEAD') || !SHARED_PATHS.includes(pathname)) return false;
    return PERSONAL_COOKIES.every((name) => cookieValue(cookie, name) === null);
  },
  /** A shared page differs only by its URL and its language (deploy/nginx.conf keys on the same cookie). */
  variant: (cookie: string | null | undefined): string => cookieValue(cookie, LANGUAGE_COOKIE) ?? '',
};

/** Whether this request is for a shared page. */
export function isSharedPage(request: Request): boolean {
  return sharedPages.isShared(request.method, new URL(request.url).pathname, request.headers.get('Cookie'));
}
