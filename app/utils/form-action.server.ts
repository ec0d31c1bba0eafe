/**
 * What every form action does first: read the form, check its CSRF token, and parse it with the same zod
 * schema the browser used. Failures come back as conform replies with status 400 (the typed values kept).
 */
import { parseWithZod } from '@conform-to/zod/v3';
import {
  data,
  MaxPartSizeExceededError,
  unstable_composeUploadHandlers,
  unstable_createMemoryUploadHandler,
  unstable_parseMultipartFormData,
  type UploadHandler,
} from '@remix-run/node';
import { IMAGE_UPLOAD_MAX_BYTES } from '#contract/calls/identity';
import type { z } from 'zod';
import { failureMessage, UpstreamError, UpstreamUnavailable } from '~/upstream/api.server';
import { readBoundedForm } from './bounded-form.server';
import { validateCsrf } from './csrf.server';

/** `schema` may be chosen from the form (an order's instrument decides its rules). */
export async function readForm<S extends z.ZodTypeAny>(request: Request, schema: S | ((formData: FormData) => S)) {
  const formData = await readBoundedForm(request);
  await validateCsrf(formData, request.headers);
  return { formData, submission: parseWithZod(formData, { schema: typeof schema === 'function' ? schema(formData) : schema }) };
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

/**
 * An upstream refusal shown next to the field it concerns (chosen by its code) or above the form, or an
 * outage with its code (503); anything else is not ours to handle and goes on.
 */
export async function replyToFailure<R>(
  request: Request,
  error: unknown,
  fieldOfCode: Readonly<Record<number, string>>,
  reply: (fieldErrors: Record<string, string[]>, formErrors: string[] | undefined, status: number) => R,
): Promise<R> {
  if (error instanceof UpstreamError) {
    const message = await failureMessage(request, error);
    const field = fieldOfCode[error.code];
    return field ? reply({ [field]: [message] }, undefined, 400) : reply({}, [message], 400);
  }
  if (error instanceof UpstreamUnavailable) return reply({}, [await failureMessage(request, error)], 503);
  throw error;
}

/** The form again with its field errors (status 400). */
export function invalid(submission: { reply: (o: { hideFields?: string[] }) => unknown }, hideFields: string[] = []) {
  return data({ result: submission.reply({ hideFields }) }, { status: 400 });
}

/** A form with images (a deposit proof, the two sides of an ID), read with bounds before anything is buffered. */
interface UploadForm {
  formData: FormData;
  /** The image part of the first file field, if one was chosen and fits. */
  file: File | null;
  /** The first file field's image was over the limit (it was not kept; the other fields were). */
  tooLarge: boolean;
  /** Every file field's image, by field name. */
  files: Record<string, File | null>;
  /** The file fields whose image was over the limit. */
  oversized: Set<string>;
}

/** Beyond this the request is not read at all: no honest phone photo plus a few fields is this big. */
const HARD_BODY_LIMIT = IMAGE_UPLOAD_MAX_BYTES * 2;

/**
 * Reads a multipart form (or a plain one, when JavaScript already uploaded the image) and checks its
 * CSRF token. The image part is kept up to IMAGE_UPLOAD_MAX_BYTES; a larger one is drained and dropped
 * so the typed fields still come back; text fields are small; a body past HARD_BODY_LIMIT is refused.
 */
export async function readUploadForm(request: Request, fileFields: string | readonly string[]): Promise<UploadForm> {
  const names = typeof fileFields === 'string' ? [fileFields] : [...fileFields];
  const length = Number(request.headers.get('content-length') ?? 0);
  if (length > HARD_BODY_LIMIT * names.length) throw new Response('Payload too large', { status: 413 });
  const oversized = new Set<string>();
  const result = (formData: FormData): UploadForm => {
    const files = Object.fromEntries(
      names.map((n) => {
        const f = formData.get(n);
        return [n, f instanceof File && f.size > 0 ? f : null];
      }),
    );
    return { formData, files, oversized, file: files[names[0]!] ?? null, tooLarge: oversized.has(names[0]!) };
  };
  if (!(request.headers.get('content-type') ?? '').startsWith('multipart/form-data')) {
    const formData = await readBoundedForm(request);
    await validateCsrf(formData, request.headers);
    return result(formData);
  }
  const seen = new Set<string>();
  const imageHandler: UploadHandler = async ({ name, filename, contentType, data }) => {
    if (filename === undefined) return undefined; // a text field: the memory handler below
    // One image per file field; anything else is read through and dropped.
    const wanted = names.includes(name) && !seen.has(name);
    if (wanted) seen.add(name);
    const chunks: Uint8Array<ArrayBuffer>[] = [];
    let size = 0;
    for await (const chunk of data) {
      size += chunk.byteLength;
      if (size > HARD_BODY_LIMIT) throw new Response('Payload too large', { status: 413 });
      if (wanted && size <= IMAGE_UPLOAD_MAX_BYTES) chunks.push(new Uint8Array(chunk));
    }
    if (!wanted || size === 0) return undefined;
    if (size > IMAGE_UPLOAD_MAX_BYTES) {
      oversized.add(name);
      return undefined;
    }
    return new File(chunks, filename || 'photo', { type: contentType });
  };
  const formData = await unstable_parseMultipartFormData(
    request,
    unstable_composeUploadHandlers(imageHandler, unstable_createMemoryUploadHandler({ maxPartSize: 64 * 1024 })),
  ).catch((error: unknown) => {
    if (error instanceof MaxPartSizeExceededError) throw new Response('Field too large', { status: 413 });
    if (error instanceof Response) throw error;
    // No boundary, a cut-off body, a broken part header: the sender's fault, never a 500.
    throw new Response('Malformed form', { status: 400 });
  });
  await validateCsrf(formData, request.headers);
  return result(formData);
}
