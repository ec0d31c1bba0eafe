/**
 * The server half of the "Send code" step of sign-up, forgotten password and password change (spec §4:
 * 60 seconds before a new code). When a code may be asked for again is kept in a short cookie, so a page
 * rendered without JavaScript shows the wait and keeps the button disabled until then.
 */
import { createCookie, data } from '@remix-run/node';
import { CodePurpose } from '#contract/enums';
import { sendEmailCode, sendSmsCode } from '~/upstream/account.server';
import type { Api } from '~/upstream/api.server';
import { replyWithFailure } from '~/utils/form-action.server';
import { redirectKeepingFields } from '~/utils/kept-fields.server';
import { IN_PLACE_FIELD } from './verification-code';

/** No wait is longer than this, whatever a stale or edited cookie says. */
const LONGEST_WAIT_SECONDS = 600;

const cookieOptions = { path: '/', httpOnly: true, secure: true, sameSite: 'lax' } as const;
const waitCookies: Record<CodePurpose, ReturnType<typeof createCookie>> = {
  [CodePurpose.Register]: createCookie('__Host-code-wait-register', cookieOptions),
  [CodePurpose.Reset]: createCookie('__Host-code-wait-reset', cookieOptions),
};

/** Seconds until this browser may ask for another code of this kind (0: now). */
export async function resendWait(request: Request, purpose: CodePurpose): Promise<number> {
  const until: unknown = await waitCookies[purpose].parse(request.headers.get('Cookie'));
  if (typeof until !== 'number' || !Number.isFinite(until)) return 0;
  const left = Math.ceil((until - Date.now()) / 1000);
  return Math.min(Math.max(left, 0), LONGEST_WAIT_SECONDS);
}

export type CodeDestination = { channel: 'email'; to: string } | { channel: 'sms'; to: string; areaId: number };

/**
 * Asks the upstream to send a code. The button of a page without JavaScript posts the whole form: the answer is a
 * redirect to the page (Post/Redirect/Get), what was typed kept on the server but its `secrets` (kept-fields.server.ts),
 * and the page shows the wait. The fetcher of the page with JavaScript (`in_place`) gets the wait as data. An upstream
 * refusal (address invalid, asked too soon, …) comes back as the form's error.
 */
export async function sendCode(
  request: Request,
  api: Api,
  submission: { reply: (o?: { formErrors?: string[]; hideFields?: string[] }) => unknown },
  purpose: CodePurpose,
  destination: CodeDestination,
  page: { formData: FormData; secrets: readonly string[] },
) {
  try {
    const answer =
      destination.channel === 'email'
        ? await sendEmailCode(api, { to: destination.to, type: purpose })
        : await sendSmsCode(api, { to: destination.to, area_id: destination.areaId, type: purpose });
    const resendIn = answer.data.resend_after;
    const cookie = await waitCookies[purpose].serialize(Date.now() + resendIn * 1000, { maxAge: resendIn });
    if (page.formData.get(IN_PLACE_FIELD) !== '1') {
      return redirectKeepingFields(request, page.formData, page.secrets, { headers: { 'Set-Cookie': cookie } });
    }
    return data({ result: submission.reply(), codeSent: { resendIn } }, { headers: { 'Set-Cookie': cookie } });
  } catch (error) {
    return replyWithFailure(request, submission, error);
  }
}
