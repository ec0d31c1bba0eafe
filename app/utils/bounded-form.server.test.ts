/** Issue 9 #1–#3: plain forms are read with bounds; anything else is a clear 4xx. */
import { expect, test } from 'vitest';
import { FORM_BODY_LIMIT, MAX_REPEATS, readBoundedForm } from './bounded-form.server';

const post = (body: BodyInit, type = 'application/x-www-form-urlencoded', headers: Record<string, string> = {}) =>
  new Request('http://localhost/login', { method: 'POST', body, headers: { 'content-type': type, ...headers } });

async function status(p: Promise<unknown>): Promise<number> {
  try {
    await p;
    return 200;
  } catch (e) {
    if (e instanceof Response) return e.status;
    throw e;
  }
}

test('a normal form reads as FormData', async () => {
  const form = await readBoundedForm(post('csrf=abc&account=a%40b.co&password=x'));
  expect(form.get('account')).toBe('a@b.co');
});

test('1 MB of one repeated name and a body past the limit are refused (413), whatever the length header says', async () => {
  expect(await status(readBoundedForm(post('a=1&'.repeat(262_144))))).toBe(413);
  expect(await status(readBoundedForm(post('x'.repeat(FORM_BODY_LIMIT + 1))))).toBe(413);
  // No length header: the reader counts as it reads (a chunked body).
  const stream = new ReadableStream({
    pull(c) {
      c.enqueue(new TextEncoder().encode('b=2&'.repeat(4096)));
    },
  });
  expect(
    await status(
      readBoundedForm(
        new Request('http://localhost/', {
          method: 'POST',
          body: stream,
          duplex: 'half',
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
        } as RequestInit),
      ),
    ),
  ).toBe(413);
  expect(await status(readBoundedForm(post(`${'r=1&'.repeat(MAX_REPEATS + 1)}`)))).toBe(413);
});

test('JSON, text or no content type is no form: an empty one (its CSRF check then refuses it with 403)', async () => {
  expect([...(await readBoundedForm(post('{"a":1}', 'application/json'))).keys()]).toEqual([]);
  expect([...(await readBoundedForm(post('hello', 'text/plain'))).keys()]).toEqual([]);
  expect(await status(readBoundedForm(post('--x--', 'multipart/form-data; boundary=x')))).toBe(415);
});
