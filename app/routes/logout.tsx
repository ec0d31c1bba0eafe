/**
 * POST /logout (spec §4): revoke the token upstream, end the session and go home with "You have logged
 * out.". A GET (a typed or bookmarked URL) only opens the confirmation.
 */
import type { ActionFunctionArgs } from '@remix-run/node';
import { redirect } from '@remix-run/node';
import { translator } from '~/i18n/i18next.server';
import { logout } from '~/upstream/account.server';
import { upstreamApi, upstreamFallback } from '~/upstream/api.server';
import { validateCsrf } from '~/utils/csrf.server';
import { endSession, getSignedIn } from '~/utils/session.server';
import { readBoundedForm } from '~/utils/bounded-form.server';

export async function loader() {
  return redirect('/mine/system?confirm=logout');
}

export async function action({ request, context }: ActionFunctionArgs) {
  const formData = await readBoundedForm(request);
  await validateCsrf(formData, request.headers);
  const signedIn = await getSignedIn(request);
  if (signedIn) {
    const api = await upstreamApi(request, context);
    // The session ends here whatever the upstream says: a token it cannot revoke now expires on its own.
    await logout(api, signedIn.token).catch(upstreamFallback(undefined, 'the upstream logout'));
    // Spec §4: logout is also sent on the realtime channel (the user's live socket upstream).
    context.onLogout?.(signedIn.user.id);
  }
  const { t } = await translator(request);
  return endSession(request, '/', { kind: 'success', message: t('toasts.logoutSuccess') });
}
