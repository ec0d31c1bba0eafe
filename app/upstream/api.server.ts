/**
 * The upstream as a route sees it: the request's language and the session's token on every call, and the
 * spec's error rules — code 999 ends the session and sends the user to /login?from=<path> (unless the
 * call is flagged initial); other codes and transport failures are raised for the route to show.
 */
import type { AppLoadContext } from '@remix-run/node';
import { redirect } from '@remix-run/node';
import type { z } from 'zod';
import type { CallDef } from '#contract/calls/define';
import { getLanguage, translator } from '~/i18n/i18next.server';
import { currentPath, getSession, getSignedIn, loginRedirect, sessionStorage, type SignedIn } from '~/utils/session.server';
import { callUpstream, UpstreamError, UpstreamUnavailable, type CallResult } from './client.server';

export { UpstreamError, UpstreamUnavailable };

export interface Api {
  lang: Awaited<ReturnType<typeof getLanguage>>;
  signedIn: SignedIn | null;
  call<C extends CallDef>(call: C, input: z.input<C['request']>, options?: { initial?: boolean; token?: string }): Promise<CallResult<C>>;
}

export async function upstreamApi(request: Request, context: AppLoadContext): Promise<Api> {
  const [lang, signedIn] = await Promise.all([getLanguage(request), getSignedIn(request)]);
  return {
    lang,
    signedIn,
    async call(call, input, options = {}) {
      try {
        return await callUpstream(context.upstream, call, input, {
          lang,
          token: options.token ?? signedIn?.token,
          clientIp: context.clientIp,
          signal: request.signal,
        });
      } catch (error) {
        if (error instanceof UpstreamError && error.sessionExpired && !options.initial && call.auth !== 'none') {
          const session = await getSession(request);
          throw redirect(loginRedirect(request, currentPath(request)), { headers: { 'Set-Cookie': await sessionStorage.destroySession(session) } });
        }
        throw error;
      }
    },
  };
}

/** The code shown with a network-level failure (spec §8: "a toast with the error code"). */
export function failureCode(error: UpstreamUnavailable): string {
  return { timeout: 'UPSTREAM_TIMEOUT', network: 'UPSTREAM_UNREACHABLE', malformed: 'UPSTREAM_MALFORMED', http: 'UPSTREAM_HTTP' }[error.reason];
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
