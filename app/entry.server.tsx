import type { EntryContext } from '@remix-run/node';
import { isRouteErrorResponse, RemixServer } from '@remix-run/react';
import { renderToPipeableStream } from 'react-dom/server';
import { Writable } from 'node:stream';
import { I18nProvider } from './i18n/react';
import { getLanguage, i18nFor } from './i18n/i18next.server';
import { ShellCss } from './utils/shell-styles';
import { shellCss } from './styles/shell-css.server';
import { sessionCookie } from './utils/session.server';

export { streamSession } from './utils/stream-session.server';
export { keepCatalogueWarm } from './upstream/market.server';
/** Which pages are the same for every visitor, and what they vary with (server/pages.ts caches them). */
export { sharedPages } from './utils/shared-pages.server';
/** The server's caching rule and the stream key on this cookie's presence (server/pages.ts, server/web.ts). */
export const sessionCookieName = sessionCookie.name;

const ABORT_DELAY_MS = 5_000;
export const streamTimeout = ABORT_DELAY_MS;

/**
 * The whole document, as one text: the server compresses and hashes it whole (server/pages.ts), so there is
 * nothing to gain from streaming its pieces. React 18.3.1 can pad a piece's end with NUL bytes where a character
 * of several bytes did not fit (react#24985, fixed after 18.3.1): they are taken out here.
 */
export default async function handleRequest(request: Request, status: number, headers: Headers, remixContext: EntryContext) {
  const i18n = await i18nFor(await getLanguage(request));
  return new Promise<Response>((resolve, reject) => {
    let shellRendered = false;
    const chunks: Buffer[] = [];
    const page = new Writable({
      write(chunk: Buffer, _encoding, done) {
        chunks.push(chunk);
        done();
      },
      final(done) {
        headers.set('Content-Type', 'text/html; charset=utf-8');
        resolve(new Response(Buffer.concat(chunks).toString('utf8').replaceAll('\0', ''), { headers, status }));
        done();
      },
    });
    const { pipe, abort } = renderToPipeableStream(
      <I18nProvider i18n={i18n}>
        <ShellCss.Provider value={shellCss}>
          <RemixServer context={remixContext} url={request.url} abortDelay={ABORT_DELAY_MS} />
        </ShellCss.Provider>
      </I18nProvider>,
      {
        onShellReady: () => (shellRendered = true),
        onAllReady: () => pipe(page),
        onShellError: reject,
        onError(error: unknown) {
          status = 500;
          // An error before the shell is the whole page's: Remix renders its error page and logs it.
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
