/**
 * What was typed into a form whose post leads to a next step on the same page (a code sent, a new picture), kept on
 * the server so that the step is a GET page (Post/Redirect/Get, decision 0041): Back and reload never ask to send the
 * form again. In the step-up's store (session.server.ts), bound to the web session, short-lived; the page's address
 * carries only the random id (`?kept=`). Passwords are never kept, so a page never carries one back.
 */
import { redirect } from '@remix-run/node';
import { ownerOf } from './step-up.server';
import { currentPath, keepRecord, newRecordId, readRecord } from './session.server';

export const KEPT_PARAM = 'kept';
/** As long as a code is good for: after that the form comes back empty, as a new visit. */
const KEEP_FIELDS_MS = 10 * 60 * 1000;
/** Never kept, whatever the form: the token is the page's own, the others say which button was pressed. */
const NEVER_KEPT = ['csrf', 'intent', 'in_place'];

interface KeptFields {
  owner: string;
  fields: Record<string, string>;
}

/** Keeps the posted fields but `secrets`, and redirects to the form's page showing them again. */
export async function redirectKeepingFields(request: Request, formData: FormData, secrets: readonly string[], init?: ResponseInit) {
  const leaveOut = new Set([...NEVER_KEPT, ...secrets]);
  const fields: Record<string, string> = {};
  for (const [name, value] of formData) {
    if (typeof value === 'string' && !leaveOut.has(name) && !(name in fields)) fields[name] = value.slice(0, 256);
  }
  const id = newRecordId();
  await keepRecord(id, { owner: await ownerOf(request), fields } satisfies KeptFields, KEEP_FIELDS_MS);
  const url = new URL(currentPath(request), 'http://same-origin.invalid');
  url.searchParams.set(KEPT_PARAM, id);
  return redirect(`${url.pathname}${url.search}`, init);
}

/** For a loader: the fields kept for this page (`?kept=`), if they are this session's; else none. */
export async function keptFields(request: Request): Promise<Record<string, string>> {
  const id = new URL(request.url).searchParams.get(KEPT_PARAM);
  if (!id) return {};
  const [kept, owner] = await Promise.all([readRecord<KeptFields>(id), ownerOf(request)]);
  return kept && kept.owner === owner ? kept.fields : {};
}
