/**
 * /login/passkey (issue 38): where a passkey's answer is posted to sign in — from /login (no password: any passkey
 * of this site) or from /login/factor (the half-done log-in's second step, its ticket kept on the server). The session
 * starts as a password's does; a refusal goes back to the page it came from, saying why (Post/Redirect/Get).
 */
import type { ActionFunctionArgs } from '@remix-run/node';
import { redirect } from '@remix-run/node';
import { z } from 'zod';
import { PASSKEY_ANSWER_MAX } from '#contract/calls/passkeys';
import { translator } from '~/i18n/i18next.server';
import { failureMessage, upstreamApi, UpstreamError, UpstreamUnavailable } from '~/upstream/api.server';
import { loginWithPasskey } from '~/upstream/passkeys.server';
import { readBoundedForm } from '~/utils/bounded-form.server';
import { validateCsrf } from '~/utils/csrf.server';
import { redirectWithToast, startSession } from '~/utils/session.server';
import { endHalfLogin, halfLoginOf } from './login_.factor/half-login.server';

const PostSchema = z.object({ answer: z.string().min(1).max(PASSKEY_ANSWER_MAX), from: z.string().max(2048).optional() });

export const loader = () => redirect('/login');

export async function action({ request, context }: ActionFunctionArgs) {
  const form = await readBoundedForm(request);
  await validateCsrf(form, request.headers);
  const { login } = await halfLoginOf(request);
  const back = login ? '/login/factor' : '/login';
  const parsed = PostSchema.safeParse(Object.fromEntries(form));
  if (!parsed.success) return redirect(back);
  const api = await upstreamApi(request, context);
  try {
    const session = await loginWithPasskey(api, parsed.data.answer, login?.ticket);
    const { t } = await translator(request, 'auth');
    const response = await startSession(request, session, login?.from ?? parsed.data.from ?? '/', {
      kind: 'success',
      message: t('login.success'),
    });
    if (login) response.headers.append('Set-Cookie', await endHalfLogin(login.id));
    return response;
  } catch (error) {
    if (!(error instanceof UpstreamError) && !(error instanceof UpstreamUnavailable)) throw error;
    const from = parsed.data.from && !login ? `/login?${new URLSearchParams({ from: parsed.data.from })}` : back;
    return redirectWithToast(request, from, { kind: 'error', message: await failureMessage(request, error) });
  }
}
