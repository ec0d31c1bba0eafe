/**
 * A plain form read with bounds (issue 9 #1): the body is read only up to FORM_BODY_LIMIT, and it may hold
 * at most MAX_FIELDS fields and MAX_REPEATS of one name — past any of these the request is refused with 413
 * before anything parses it, so one crafted post can neither fill memory nor keep the server busy.
 * Multipart forms (photos) have their own bounded reader in form-action.server.ts.
 */
export const FORM_BODY_LIMIT = 64 * 1024;
const MAX_FIELDS = 200;
export const MAX_REPEATS = 20;

function tooLarge(): Response {
  return new Response('Payload too large', { status: 413, headers: { 'content-type': 'text/plain; charset=utf-8' } });
}

/** The request body as text, refused (413) past `limit` bytes whatever its Content-Length says. */
async function readBoundedText(request: Request, limit = FORM_BODY_LIMIT): Promise<string> {
  if (Number(request.headers.get('content-length') ?? 0) > limit) throw tooLarge();
  if (!request.body) return '';
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      // Not cancelled: that would drop the connection before the refusal is written. The server deals with
      // the unread rest once the answer is out (server/security.ts, unreadBodyCloses).
      reader.releaseLock();
      throw tooLarge();
    }
    chunks.push(value);
  }
  return new TextDecoder().decode(Buffer.concat(chunks));
}

/** A url-encoded form (the only kind our plain forms send) as FormData, within the bounds above. */
export async function readBoundedForm(request: Request): Promise<FormData> {
  const type = request.headers.get('content-type') ?? '';
  if (!type.startsWith('application/x-www-form-urlencoded')) {
    // JSON, text or nothing: not a form of ours. An empty form fails its CSRF check with a clear 403.
    if (type.startsWith('multipart/form-data')) throw new Response('Unsupported form encoding', { status: 415 });
    await readBoundedText(request);
    return new FormData();
  }
  const params = new URLSearchParams(await readBoundedText(request));
  const form = new FormData();
  const repeats = new Map<string, number>();
  let fields = 0;
  for (const [name, value] of params) {
    fields += 1;
    const n = (repeats.get(name) ?? 0) + 1;
    repeats.set(name, n);
    if (fields > MAX_FIELDS || n > MAX_REPEATS) throw tooLarge();
    form.append(name, value);
  }
  return form;
}
