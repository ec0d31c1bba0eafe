/**
 * What every form action does first: read the form, check its CSRF token, and parse it with the same zod
 * schema the browser used. Failures come back as conform replies with status 400 (the typed values kept).
 */
import { parseWithZod } from '@conform-to/zod/v3';
import { data } from '@remix-run/node';
import type { z } from 'zod';
import { failureMessage, UpstreamError, UpstreamUnavailable } from '~/upstream/api.server';
import { validateCsrf } from './csrf.server';

export async function readForm<S extends z.ZodTypeAny>(request: Request, schema: S) {
  const formData = await request.formData();
  await validateCsrf(formData, request.headers);
  return { formData, submission: parseWithZod(formData, { schema }) };
}

/** The form again with the upstream's message (or the network error with its code) above it. */
export async function replyWithFailure(
  request: Request,
  submission: { reply: (o: { formErrors?: string[]; hideFields?: string[] }) => unknown },
  error: unknown,
  hideFields: string[] = [],
) {
  if (!(error instanceof UpstreamError) && !(error instanceof UpstreamUnavailable)) throw error;
  const message = await failureMessage(request, error);
  return data({ result: submission.reply({ formErrors: [message], hideFields }) }, { status: error instanceof UpstreamError ? 400 : 503 });
}

/** The form again with its field errors (status 400). */
export function invalid(submission: { reply: (o: { hideFields?: string[] }) => unknown }, hideFields: string[] = []) {
  return data({ result: submission.reply({ hideFields }) }, { status: 400 });
}
