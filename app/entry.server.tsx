import type { AppLoadContext, EntryContext } from '@remix-run/node';
import { createReadableStreamFromReadable } from '@remix-run/node';
import { isRouteErrorResponse, RemixServer } from '@remix-run/react';
import { isbot } from 'isbot';
import { renderToPipeableStream } from 'react-dom/server';
import { I18nProvider } from './i18n/react';
import { getLanguage, i18nFor } from './i18n/i18next.server';
import { pageStream } from './utils/page-stream.server';
import { NonceProvider } from './utils/nonce';
import { ShellCss } from './utils/shell-styles';
import { shellCss } from './styles/shell-css.server';
import { csrf, csrfCookieName } from './utils/csrf.server';
import { sessionCookie, toastCookie } from './utils/session.server';

export { streamSession } from './utils/stream-session.server';
export { keepCatalogueWarm } from './upstream/market.server';
/** The server's caching rule keys on this cookie's presence (server/caching.ts). */
export const sessionCookieName = sessionCookie.name;

/**
 * The market list is the same for every visitor in a language: the server keeps a rendered copy for a second
 * and fills in each visitor's nonce and CSRF token (server/page-cache.ts, docs/decisions/0016). A session or
 * a toast makes the page someone's: never kept.
 */
export const visitorPageRules = {
  paths: ['/'],
  ttlMs: 1000,
  personalCookies: [sessionCookie.name, toastCookie.name],
  tokenCookie: csrfCookieName,
  commitToken: (headers: Headers) => csrf.commitToken(headers),
};

const ABORT_DELAY_MS = 5_000;
export const streamTimeout = ABORT_DELAY_MS;

export default async function handleRequest(
  request: Request,
  responseStatusCode: number,
  responseHeaders: Headers,
  remixContext: EntryContext,
  loadContext: AppLoadContext,
) {
  const nonce = loadContext.cspNonce;
  const i18n = await i18nFor(await getLanguage(request));
  // Bots and no-JS clients get the whole document at once, as does a page the server keeps; browsers get the
  // shell as soon as it is ready.
  const waitForAll = loadContext.wholeDocument === true || isbot(request.headers.get('user-agent') ?? '');
  return new Promise<Response>((resolve, reject) => {
    let shellRendered = false;
    const { pipe, abort } = renderToPipeableStream(
      <I18nProvider i18n={i18n}>
        <NonceProvider value={nonce}>
          <ShellCss.Provider value={shellCss}>
            <RemixServer context={remixContext} url={request.url} abortDelay={ABORT_DELAY_MS} nonce={nonce} />
          </ShellCss.Provider>
        </NonceProvider>
      </I18nProvider>,
      {
        nonce,
        [waitForAll ? 'onAllReady' : 'onShellReady']() {
          shellRendered = true;
          // The nonce on Remix's module preloads, and React's pieces sent together (utils/page-stream.server.ts).
          const body = pageStream(nonce);
          responseHeaders.set('Content-Type', 'text/html; charset=utf-8');
          resolve(new Response(createReadableStreamFromReadable(body), { headers: responseHeaders, status: responseStatusCode }));
          pipe(body);
        },
        onShellError(error: unknown) {
          reject(error);
        },
        onError(error: unknown) {
          responseStatusCode = 500;
          if (shellRendered) console.error(error);
        },
      },
    );
    setTimeout(abort, ABORT_DELAY_MS + 1000);
  });
}

/** Logs real failures only: a 404 or a redirect is not an error. */
export function handleError(error: unknown, { request }: { request: Request }) {
  if (request.signal.aborted) return;
  if (isRouteErrorResponse(error) && error.status < 500) return;
  if (error instanceof Response && error.status < 500) return;
  console.error(error);
}
