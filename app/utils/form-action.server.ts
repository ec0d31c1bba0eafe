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

/** A form with one image (a deposit proof, an ID photo), read with bounds before anything is buffered. */
export interface UploadForm {
  formData: FormData;
  /** The image part, if one was chosen and fits. */
  file: File | null;
  /** The chosen image was over the limit (it was not kept; the other fields were). */
  tooLarge: boolean;
}

/** Beyond this the request is not read at all: no honest phone photo plus a few fields is this big. */
const HARD_BODY_LIMIT = IMAGE_UPLOAD_MAX_BYTES * 2;

/**
 * Reads a multipart form (or a plain one, when JavaScript already uploaded the image) and checks its
 * CSRF token. The image part is kept up to IMAGE_UPLOAD_MAX_BYTES; a larger one is drained and dropped
 * so the typed fields still come back; text fields are small; a body past HARD_BODY_LIMIT is refused.
 */
export async function readUploadForm(request: Request, fileField: string): Promise<UploadForm> {
  const length = Number(request.headers.get('content-length') ?? 0);
  if (length > HARD_BODY_LIMIT) throw new Response('Payload too large', { status: 413 });
  if (!(request.headers.get('content-type') ?? '').startsWith('multipart/form-data')) {
    const formData = await request.formData();
    await validateCsrf(formData, request.headers);
    return { formData, file: null, tooLarge: false };
  }
  let tooLarge = false;
  let seenFile = false;
  const imageHandler: UploadHandler = async ({ name, filename, contentType, data }) => {
    if (filename === undefined) return undefined; // a text field: the memory handler below
    const wanted = name === fileField && !seenFile;
    seenFile ||= wanted;
    const chunks: Uint8Array<ArrayBuffer>[] = [];
    let size = 0;
    for await (const chunk of data) {
      size += chunk.byteLength;
      if (size > HARD_BODY_LIMIT) throw new Response('Payload too large', { status: 413 });
      if (wanted && size <= IMAGE_UPLOAD_MAX_BYTES) chunks.push(new Uint8Array(chunk));
    }
    if (!wanted || size === 0) return undefined;
    if (size > IMAGE_UPLOAD_MAX_BYTES) {
      tooLarge = true;
      return undefined;
    }
    return new File(chunks, filename || 'photo', { type: contentType });
  };
  const formData = await unstable_parseMultipartFormData(
    request,
    unstable_composeUploadHandlers(imageHandler, unstable_createMemoryUploadHandler({ maxPartSize: 64 * 1024 })),
  ).catch((error: unknown) => {
    if (error instanceof MaxPartSizeExceededError) throw new Response('Field too large', { status: 413 });
    throw error;
  });
  await validateCsrf(formData, request.headers);
  const file = formData.get(fileField);
  return { formData, file: file instanceof File && file.size > 0 ? file : null, tooLarge };
}
