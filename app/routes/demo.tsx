/**
 * POST /demo: opens (or reopens) this device's demo account with no sign-up. The device is a uuid kept in
 * a long-lived cookie, so the same phone gets the same demo account back.
 */
import type { ActionFunctionArgs } from '@remix-run/node';
import { redirect } from '@remix-run/node';
import { translator } from '~/i18n/i18next.server';
import { demoLogin } from '~/upstream/account.server';
import { failureMessage, upstreamApi } from '~/upstream/api.server';
import { validateCsrf } from '~/utils/csrf.server';
import { deviceCookie } from '~/utils/device.server';
import { safeRedirectPath } from '~/utils/safe-redirect';
import { redirectWithToast, startSession } from '~/utils/session.server';
import { readBoundedForm } from '~/utils/bounded-form.server';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[1-8][0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/i;

export async function loader() {
  return redirect('/login');
}

export async function action({ request, context }: ActionFunctionArgs) {
  const formData = await readBoundedForm(request);
  await validateCsrf(formData, request.headers);
  const from = safeRedirectPath(formData.get('from'), '/');
  const stored: unknown = await deviceCookie.parse(request.headers.get('Cookie'));
  const demoId = typeof stored === 'string' && UUID.test(stored) ? stored : crypto.randomUUID();
  const api = await upstreamApi(request, context);
  try {
    const session = await demoLogin(api, demoId);
    const { t } = await translator(request, 'auth');
    const response = await startSession(request, session.data, from, { kind: 'success', message: t('demo.opened') });
    response.headers.append('Set-Cookie', await deviceCookie.serialize(demoId));
    return response;
  } catch (error) {
    return redirectWithToast(request, `/login${from !== '/' ? `?from=${encodeURIComponent(from)}` : ''}`, {
      kind: 'error',
      message: await failureMessage(request, error),
    });
  }
}
