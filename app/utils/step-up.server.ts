/**
 * Step-up before money or identity changes (issue 38, decision 0039). A protected action posted without a fresh
 * grant is refused by the upstream (StepUp* codes); the action then keeps the posted form here, on the server (a
 * password too, never rendered back), and redirects to /step-up?id=<opaque id>. The step-up page trades a code for
 * a grant and stores it with the kept form; back on the form's page, one tap ("finish") posts the kept fields with
 * the grant. The grant never reaches the browser; the record is bound to this web session and forgotten on success.
 */
import { redirect } from '@remix-run/node';
import crypto from 'node:crypto';
import type { StepUpAction } from '#contract/calls/security';
import { ErrorCode } from '#contract/errors';
import { UpstreamError } from '~/upstream/api.server';
import { safeRedirectPath } from './safe-redirect';
import { dropRecord, keepRecord, newRecordId, readRecord, sessionIdOf } from './session.server';

/** The field that names a kept form when its page posts again, and the flag of the one-tap "finish". */
export const RESUME_FIELD = 'resume';
export const FINISH_FIELD = 'finish';
/** How long a form is kept while its step-up is asked (the grant itself lives STEP_UP_TTL_MS at the upstream). */
export const KEEP_MS = 10 * 60 * 1000;

export interface KeptForm {
  /** Whose: a hash of the web session's id. */
  owner: string;
  action: StepUpAction;
  /** The posted fields, without the CSRF token. */
  fields: [string, string][];
  /** The form's page (a same-origin path). */
  back: string;
  /** Where a code for this action was sent (masked), once one was. */
  sentTo?: string;
  grant?: string;
}

/** Upstream refusals that a step-up answers: no grant, or one not good for this user, time or action. */
const STEP_UP_CODES: ReadonlySet<number> = new Set([
  ErrorCode.StepUpRequired,
  ErrorCode.StepUpInvalid,
  ErrorCode.StepUpExpired,
  ErrorCode.StepUpWrongAction,
]);
export const needsStepUp = (error: unknown): boolean => error instanceof UpstreamError && STEP_UP_CODES.has(error.code);

/** A hash of the web session id: records bound to a session name it, never the id itself. */
export async function ownerOf(request: Request): Promise<string> {
  const id = (await sessionIdOf(request.headers.get('Cookie'))) ?? '';
  return crypto.createHash('sha256').update(`owner:${id}`).digest('base64url');
}

/** The kept form `id`, if it belongs to this session. */
export async function keptForm(request: Request, id: unknown): Promise<KeptForm | null> {
  if (typeof id !== 'string' || !id) return null;
  const [kept, owner] = await Promise.all([readRecord<KeptForm>(id), ownerOf(request)]);
  return kept && kept.owner === owner ? kept : null;
}

export const saveKeptForm = (id: string, kept: KeptForm) => keepRecord(id, kept, KEEP_MS);

/** The step-up page of a kept form. */
export const stepUpUrl = (id: string, back: string) => `/step-up?${new URLSearchParams({ id, back })}`;

/** Keeps the posted form and sends the user to confirm it is them (Post/Redirect/Get). */
export async function askStepUp(request: Request, action: StepUpAction, formData: FormData, back: string): Promise<Response> {
  const id = newRecordId();
  const skip = new Set(['csrf', RESUME_FIELD, FINISH_FIELD]);
  const fields = [...formData.entries()].filter((e): e is [string, string] => typeof e[1] === 'string' && !skip.has(e[0]));
  const path = safeRedirectPath(back, '/mine');
  await saveKeptForm(id, { owner: await ownerOf(request), action, fields, back: path });
  return redirect(stepUpUrl(id, path));
}

/** The form's page again, naming the kept form that now has its grant. */
export function finishUrl(back: string, id: string): string {
  const url = new URL(safeRedirectPath(back, '/mine'), 'http://same-origin.invalid');
  url.searchParams.set(RESUME_FIELD, id);
  return `${url.pathname}${url.search}`;
}

/**
 * What a protected action works with: on "finish", the kept fields; after a refusal on the finished form, what was
 * posted again; in both cases the grant of the kept form named by `resume`. Without one, the posted form alone.
 */
export async function resumeStepUp(
  request: Request,
  posted: FormData,
  action: StepUpAction,
): Promise<{ formData: FormData; grant: string | undefined; keptId: string | null }> {
  const id = posted.get(RESUME_FIELD);
  const kept = await keptForm(request, id);
  if (!kept || kept.action !== action || !kept.grant) return { formData: posted, grant: undefined, keptId: null };
  if (posted.get(FINISH_FIELD) !== '1') return { formData: posted, grant: kept.grant, keptId: id as string };
  const formData = new FormData();
  for (const [name, value] of kept.fields) formData.append(name, value);
  return { formData, grant: kept.grant, keptId: id as string };
}

/** The action succeeded: its kept form (a password, maybe) is forgotten at once. */
export async function forgetKeptForm(id: string | null): Promise<void> {
  if (id) await dropRecord(id);
}

/** For a loader: the kept form of `?resume=` when it has its grant for `action` (the page then offers to finish). */
export async function readyToFinish(request: Request, action: StepUpAction): Promise<string | null> {
  const id = new URL(request.url).searchParams.get(RESUME_FIELD);
  const kept = await keptForm(request, id);
  return kept && kept.action === action && kept.grant ? id : null;
}
