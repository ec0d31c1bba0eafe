/**
 * Cache-Control of pages (Remix responses). Static files have their own (immutable hashed assets).
 *
 * - A signed-in request (the session cookie is present, whether or not it is still valid: the server
 *   does not read the session store here) or any form post: `private, no-store`. Account data is never
 *   kept, not even in the back/forward cache.
 * - A visitor's GET: `private, no-cache`. Without `no-store` the page may enter the browser's back/forward
 *   cache, so Back is instant; `no-cache` still revalidates every ordinary load, and `private` keeps it out
 *   of shared caches (pages carry the visitor's language and CSRF token).
 */
/** Whether the Cookie header carries the named cookie (its value unread). */
export function carriesCookie(cookie: string | undefined, name: string): boolean {
  return (cookie ?? '').split(';').some((c) => c.trim().startsWith(`${name}=`));
}

export function pageCacheControl(method: string, cookie: string | undefined, sessionCookieName: string | undefined): string {
  const read = method === 'GET' || method === 'HEAD';
  // The app names its cookie (its build entry exports it); without a name, treat everyone as signed in.
  const signedIn = !sessionCookieName || carriesCookie(cookie, sessionCookieName);
  return read && !signedIn ? 'private, no-cache' : 'private, no-store';
}
