/**
 * The anti-loss check (spec §7 "Other", §8): when the upstream's check answers a non-zero status, every
 * page sends the browser to its `loss_url`. Asked at most once per few seconds per upstream, so a page
 * view costs no extra round trip; an upstream that cannot answer never blocks the site (it fails open).
 */
import type { AppLoadContext } from '@remix-run/node';
import * as content from '#contract/calls/content';
import { callUpstream, UpstreamError, UpstreamUnavailable } from '~/upstream/client.server';

export const LOSS_CHECK_TTL_MS = 5000;

type Answer = { redirectTo: string | null; at: number };
const answers = new Map<string, Answer>();
const pending = new Map<string, Promise<Answer>>();

async function ask(context: AppLoadContext, now: number): Promise<Answer> {
  try {
    const { data } = await callUpstream(context.upstream, content.lossCheck, {}, { lang: 'en', timeoutMs: 2000 });
    const url = data.status !== 0 ? safeAbsolute(data.loss_url) : null;
    return { redirectTo: url, at: now };
  } catch (error) {
    if (!(error instanceof UpstreamError) && !(error instanceof UpstreamUnavailable)) throw error;
    console.warn(`anti-loss check unavailable: ${error.message}`);
    return { redirectTo: null, at: now };
  }
}

/** An http(s) address to send the browser to, or null for anything else (a script URL, a typo). */
function safeAbsolute(url: string): string | null {
  try {
    const u = new URL(url);
    return u.protocol === 'https:' || u.protocol === 'http:' ? u.href : null;
  } catch {
    return null;
  }
}

/** Where this page request must go instead, or null. Never redirects a request to the target itself. */
export async function lossCheckRedirect(request: Request, context: AppLoadContext, now = Date.now()): Promise<string | null> {
  // This request already found the upstream silent: asking again would only delay the page.
  if (context.upstreamOutage) return null;
  const key = context.upstream.baseUrl;
  let answer = answers.get(key);
  if (!answer || now - answer.at >= LOSS_CHECK_TTL_MS) {
    let inflight = pending.get(key);
    if (!inflight) {
      inflight = ask(context, now).finally(() => pending.delete(key));
      pending.set(key, inflight);
    }
    answer = await inflight;
    answers.set(key, answer);
  }
  if (!answer.redirectTo) return null;
  const target = new URL(answer.redirectTo);
  const here = new URL(request.url);
  return target.origin === here.origin && target.pathname === here.pathname ? null : answer.redirectTo;
}

/** Tests: forget the cached answers. */
export function resetLossCheck(): void {
  answers.clear();
  pending.clear();
}
