/**
 * The upstream as a route sees it: the request's language and the session's token on every call, and the
 * spec's error rules — code 999 ends the session and sends the user to /login?from=<path> (unless the
 * call is flagged initial); other codes and transport failures are raised for the route to show.
 */
import type { AppLoadContext } from '@remix-run/node';
import { redirect } from '@remix-run/node';
import type { z } from 'zod/v4';
import type { CallDef } from '#contract/calls/define';
import { getLanguage, translator } from '~/i18n/i18next.server';
import { currentPath, getSession, getSignedIn, loginRedirect, sessionStorage, type SignedIn } from '~/utils/session.server';
import { IMAGE_READ_PREFIX } from '#contract/calls/identity';
import { callUpstream, UPSTREAM_TIMEOUT_MS, uploadToUpstream, UpstreamError, UpstreamUnavailable, type CallResult } from './client.server';

export { UpstreamError, UpstreamUnavailable };

export interface Api {
  lang: Awaited<ReturnType<typeof getLanguage>>;
  /** Which upstream this is (server-side only): keys what is remembered of it. */
  upstreamUrl: string;
  signedIn: SignedIn | null;
  /** The live relay's warm quotes for this upstream, when there is a relay (see ./warm-market.server.ts). */
  market?: AppLoadContext['market'];
  call<C extends CallDef>(call: C, input: z.input<C['request']>, options?: ApiCallOptions): Promise<CallResult<C>>;
  /** A multipart call carrying one file (the image upload). */
  upload<C extends CallDef>(call: C, file: { field: string; blob: Blob; filename: string }): Promise<CallResult<C>>;
  /** An uploaded image read back with the session's token (null when it is not this user's or is gone). */
  image(url: string): Promise<Response | null>;
}

export interface ApiCallOptions {
  /** Code 999 does not end the session (spec §4). */
  initial?: boolean;
  token?: string;
  /** A shorter wait than the default. */
  timeoutMs?: number;
  /** The request can do without this call: its timeout does not mark the upstream as down for the rest of the request. */
  optional?: boolean;
}

export async function upstreamApi(request: Request, context: AppLoadContext): Promise<Api> {
  const [lang, signedIn] = await Promise.all([getLanguage(request), getSignedIn(request)]);
  const options = () => ({
    lang,
    token: signedIn?.token,
    clientIp: context.clientIp,
    userAgent: request.headers.get('user-agent'),
    pageOrigin: new URL(request.url).origin,
    signal: request.signal,
  });
  /** Code 999 ends the session and sends the user to log in (spec §4), unless the call is initial. */
  async function expired(error: unknown, initial: boolean | undefined, auth: string): Promise<never> {
    if (error instanceof UpstreamError && error.sessionExpired && !initial && auth !== 'none') {
      const session = await getSession(request);
      throw redirect(loginRedirect(request, currentPath(request)), {
        headers: { 'Set-Cookie': await sessionStorage.destroySession(session) },
      });
    }
    throw error;
  }
  return {
    lang,
    upstreamUrl: context.upstream.baseUrl,
    signedIn,
    market: context.market,
    async call(call, input, callOptions = {}) {
      if (context.upstreamOutage)
        throw new UpstreamUnavailable('timeout', call.name, 'the upstream did not answer earlier in this request');
      try {
        return await callUpstream(context.upstream, call, input, {
          ...options(),
          token: callOptions.token ?? signedIn?.token,
          timeoutMs: callOptions.timeoutMs,
        });
      } catch (error) {
        if (error instanceof UpstreamUnavailable && (error.reason === 'network' || (error.reason === 'timeout' && !callOptions.optional)))
          context.upstreamOutage = true;
        return expired(error, callOptions.initial, call.auth);
      }
    },
    async upload(call, file) {
      try {
        return await uploadToUpstream(context.upstream, call, file, options());
      } catch (error) {
        return expired(error, false, call.auth);
      }
    },
    async image(url) {
      if (!signedIn || !url.startsWith(IMAGE_READ_PREFIX) || !/^[0-9a-f]{32}\.jpg$/.test(url.slice(IMAGE_READ_PREFIX.length))) return null;
      try {
        const res = await fetch(new URL(url, context.upstream.baseUrl), {
          headers: { authorization: signedIn.token },
          signal: AbortSignal.any([request.signal, AbortSignal.timeout(UPSTREAM_TIMEOUT_MS)]),
        });
        return res.ok ? res : null;
      } catch {
        return null;
      }
    },
  };
}

/**
 * For a call a page can do without: an upstream refusal or outage gives `fallback` (and a log line);
 * anything else (a redirect that ends the session, a bug) goes on.
 */
export function upstreamFallback<T>(fallback: T, what: string) {
  return (error: unknown): T => {
    if (error instanceof UpstreamUnavailable || (error instanceof UpstreamError && !error.sessionExpired)) {
      console.warn(`[upstream] ${what} left out: ${error.message}`);
      return fallback;
    }
    throw error;
  };
}

/** The code shown with a network-level failure (spec §8: "a toast with the error code"). */
function failureCode(error: UpstreamUnavailable): string {
  return { timeout: 'UPSTREAM_TIMEOUT', network: 'UPSTREAM_UNREACHABLE', malformed: 'UPSTREAM_MALFORMED', http: 'UPSTREAM_HTTP' }[
    error.reason
  ];
}

/** The words for an upstream failure in the user's language: the upstream's own `msg`, or the network error with its code. */
export async function failureMessage(request: Request, error: unknown): Promise<string> {
  if (error instanceof UpstreamError) return error.msg;
  const { t } = await translator(request);
  if (error instanceof UpstreamUnavailable) return t('errors.network', { code: failureCode(error) });
  throw error;
}

/** A loader whose upstream is unreachable renders the error page (503) instead of a stack trace. */
export async function loaderFailure(request: Request, error: unknown): Promise<never> {
  if (error instanceof UpstreamUnavailable || (error instanceof UpstreamError && !error.sessionExpired)) {
    throw new Response(await failureMessage(request, error), { status: 503 });
  }
  throw error;
}
