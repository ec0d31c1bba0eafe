/**
 * /passkey (issue 38): the options a passkey ceremony starts with, for the browser's passkey button
 * (app/components/passkey-button.tsx; passkeys need JavaScript, as WebAuthn does). `intent` names the ceremony:
 * `register` (signed in), `login` (signed out, or finishing the half-done log-in this browser began) and `step-up`
 * (the kept form `id`). The browser's answer then goes to its page as a plain form post (Post/Redirect/Get). JSON
 * answers, never cached; CSRF on every post.
 */
import type { ActionFunctionArgs } from '@remix-run/node';
import { z } from 'zod';
import { failureMessage, upstreamApi, UpstreamError, UpstreamUnavailable } from '~/upstream/api.server';
import { ceremonyOptions, type Ceremony } from '~/upstream/passkeys.server';
import { readBoundedForm } from '~/utils/bounded-form.server';
import { validateCsrf } from '~/utils/csrf.server';
import { requireRealAccount } from '~/utils/guards.server';
import { keptForm } from '~/utils/step-up.server';
import { halfLoginOf } from './login_.factor/half-login.server';

const PostSchema = z.object({ intent: z.enum(['register', 'login', 'step-up']), id: z.string().max(64).optional() });
const noStore = { 'Cache-Control': 'private, no-store' };

/** The ceremony asked for, with what it is bound to; null when there is nothing to begin (a kept form gone). */
async function ceremonyOf(request: Request, intent: z.infer<typeof PostSchema>['intent'], id?: string): Promise<Ceremony | null> {
  if (intent === 'login') {
    const { login } = await halfLoginOf(request);
    return { kind: 'login', ticket: login?.ticket };
  }
  await requireRealAccount(request);
  if (intent === 'register') return { kind: 'register' };
  const kept = await keptForm(request, id);
  return kept ? { kind: 'step-up', action: kept.action } : null;
}

export async function action({ request, context }: ActionFunctionArgs) {
  const form = await readBoundedForm(request);
  await validateCsrf(form, request.headers);
  const parsed = PostSchema.safeParse(Object.fromEntries(form));
  if (!parsed.success) return Response.json({ error: 'invalid' }, { status: 400, headers: noStore });
  const ceremony = await ceremonyOf(request, parsed.data.intent, parsed.data.id);
  if (!ceremony) return Response.json({ error: 'expired' }, { status: 410, headers: noStore });
  const api = await upstreamApi(request, context);
  try {
    return Response.json({ options: await ceremonyOptions(api, ceremony) }, { headers: noStore });
  } catch (error) {
    if (error instanceof UpstreamError || error instanceof UpstreamUnavailable)
      return Response.json(
        { error: await failureMessage(request, error) },
        { status: error instanceof UpstreamError ? 400 : 503, headers: noStore },
      );
    throw error;
  }
}
