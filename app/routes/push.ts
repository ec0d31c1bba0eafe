/**
 * /push, used by the "notify this phone" switch (app/components/push-switch.tsx; it needs JavaScript, as
 * Web Push does): GET gives the key to subscribe with, POST keeps (`intent=subscribe`) or drops
 * (`intent=unsubscribe`) this phone's subscription for the signed-in user. JSON answers (Responses of their own:
 * Remix warned on every call that React Router 7 will not make them from plain data); CSRF on posts.
 */
import type { ActionFunctionArgs, LoaderFunctionArgs } from '@remix-run/node';
import { z } from 'zod/v4';
import { PushSubscriptionSchema } from '#contract/calls/push';
import { failureMessage, upstreamApi, UpstreamError, UpstreamUnavailable } from '~/upstream/api.server';
import { pushPublicKey, subscribePhone, unsubscribePhone } from '~/upstream/push.server';
import { readBoundedForm } from '~/utils/bounded-form.server';
import { validateCsrf } from '~/utils/csrf.server';
import { requireSignedIn } from '~/utils/session.server';

export async function loader({ request, context }: LoaderFunctionArgs) {
  await requireSignedIn(request);
  const api = await upstreamApi(request, context);
  return Response.json({ publicKey: await pushPublicKey(api) }, { headers: { 'Cache-Control': 'private, no-store' } });
}

const PostSchema = z.discriminatedUnion('intent', [
  PushSubscriptionSchema.extend({ intent: z.literal('subscribe') }),
  z.object({ intent: z.literal('unsubscribe'), endpoint: z.string().url().max(1024) }),
]);

export async function action({ request, context }: ActionFunctionArgs) {
  await requireSignedIn(request);
  const form = await readBoundedForm(request);
  await validateCsrf(form, request.headers);
  const parsed = PostSchema.safeParse(Object.fromEntries(form));
  if (!parsed.success) return Response.json({ ok: false, error: 'invalid' }, { status: 400 });
  const api = await upstreamApi(request, context);
  try {
    const { intent, ...fields } = parsed.data;
    if (intent === 'subscribe') await subscribePhone(api, fields as z.infer<typeof PushSubscriptionSchema>);
    else await unsubscribePhone(api, parsed.data.endpoint);
    return Response.json({ ok: true });
  } catch (error) {
    if (error instanceof UpstreamError || error instanceof UpstreamUnavailable)
      return Response.json(
        { ok: false, error: await failureMessage(request, error) },
        { status: error instanceof UpstreamError ? 400 : 503 },
      );
    throw error;
  }
}
