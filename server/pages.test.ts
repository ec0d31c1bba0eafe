import express from 'express';
import crypto from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import zlib from 'node:zlib';
import { afterEach, describe, expect, test } from 'vitest';
import { inlineScriptHashes, remixPages, SHARED_PAGE_CACHE_CONTROL, type SharedPageRules } from './pages';
import { securityHeaders } from './security';

const rules: SharedPageRules = {
  isShared: (method, pathname, cookie) => method === 'GET' && pathname === '/' && !/sid=/.test(cookie ?? ''),
  variant: (cookie) => /lng=(\w+)/.exec(cookie ?? '')?.[1] ?? '',
};

const PAGE = (text: string) =>
  `<!DOCTYPE html><html><head><script type="module" src="/assets/shell.js"></script></head><body>${text}<script>window.a=1</script><script type="module">import("/assets/b.js")</script></body></html>`;

let server: http.Server | undefined;
afterEach(() => server?.close());

/** A web server of one stand-in Remix handler, as ./web.ts mounts the real one. */
async function serve(remix: (request: Request) => Promise<Response>, now = () => 0) {
  const app = express();
  app.use(securityHeaders(false));
  const pages = remixPages({ remix, dev: false, rules, sessionCookie: 'sid', loadContext: () => ({}) as never, now });
  app.all('*', pages.handler);
  server = app.listen(0, '127.0.0.1');
  await new Promise((r) => server!.once('listening', r));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const get = (path: string, headers: Record<string, string> = {}) =>
    new Promise<{ status: number; headers: http.IncomingHttpHeaders; body: Buffer }>((resolve, reject) => {
      http
        .get(`${base}${path}`, { headers, agent: false }, (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks) }));
        })
        .on('error', reject);
    });
  return { get, pages };
}

const html = (body: string, headers: Record<string, string> = {}) =>
  new Response(body, { headers: { 'content-type': 'text/html; charset=utf-8', ...headers } });

test('the CSP names the hash of each inline script and nothing else', async () => {
  const { get } = await serve(async () => html(PAGE('hello')));
  const page = await get('/news');
  const csp = String(page.headers['content-security-policy']);
  const hashes = inlineScriptHashes(page.body.toString());
  expect(hashes).toHaveLength(2);
  expect(csp).toContain(`script-src 'self' ${hashes.join(' ')};`);
  // Worked by hand: sha256("window.a=1"), base64.
  expect(hashes[0]).toBe(`'sha256-${crypto.createHash('sha256').update('window.a=1').digest('base64')}'`);
  expect(csp).not.toContain('nonce');
});

describe('caching rules', () => {
  test("a shared page is public for a second; a visitor's other page private, no-cache; a signed-in one and a post no-store", async () => {
    const { get } = await serve(async () => html('<p>x</p>'));
    expect((await get('/')).headers['cache-control']).toBe(SHARED_PAGE_CACHE_CONTROL);
    expect((await get('/news')).headers['cache-control']).toBe('private, no-cache');
    expect((await get('/', { cookie: 'sid=1' })).headers['cache-control']).toBe('private, no-store');
  });

  test("a route's own Cache-Control stands", async () => {
    const { get } = await serve(async () => Response.json({ a: 1 }, { headers: { 'cache-control': 'public, max-age=5' } }));
    expect((await get('/candles')).headers['cache-control']).toBe('public, max-age=5');
  });
});

describe('compression', () => {
  test('a page goes whole in brotli, gzip or as is, as the browser takes it; a small answer as is', async () => {
    const text = PAGE('市場 '.repeat(2000));
    const { get } = await serve(async () => html(text));
    const br = await get('/news', { 'accept-encoding': 'gzip, deflate, br' });
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers.vary).toMatch(/accept-encoding/i);
    expect(zlib.brotliDecompressSync(br.body).toString()).toBe(text);
    const gz = await get('/news', { 'accept-encoding': 'gzip' });
    expect(zlib.gunzipSync(gz.body).toString()).toBe(text);
    const plain = await get('/news', { 'accept-encoding': 'identity' });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body.toString()).toBe(text);
    expect(Number(plain.headers['content-length'])).toBe(plain.body.length);
  });

  test('an image passes through as it is', async () => {
    const png = Buffer.from([0x89, 0x50, 0x4e, 0x47, ...Array(3000).fill(7)]);
    const { get } = await serve(async () => new Response(png, { headers: { 'content-type': 'image/png' } }));
    const got = await get('/logos/x.png', { 'accept-encoding': 'br' });
    expect(got.headers['content-encoding']).toBeUndefined();
    expect(got.body.equals(png)).toBe(true);
  });
});

describe('shared pages', () => {
  test("one render a second per language; a visitor with a session is never served another's copy", async () => {
    let renders = 0;
    let clock = 0;
    const { get, pages } = await serve(
      async (request) => html(`<p>render ${++renders} ${request.headers.get('cookie') ?? ''}</p>`),
      () => clock,
    );
    const first = await get('/', { cookie: 'lng=en' });
    expect((await get('/', { cookie: 'lng=en; other=1' })).body.equals(first.body)).toBe(true);
    expect(renders).toBe(1);
    expect((await get('/', { cookie: 'lng=de' })).body.toString()).toContain('render 2');
    expect((await get('/', { cookie: 'lng=en; sid=abc' })).body.toString()).toContain('render 3 lng=en; sid=abc');
    clock = 1001;
    expect((await get('/', { cookie: 'lng=en' })).body.toString()).toContain('render 4');
    expect(pages.stats()).toMatchObject({ hits: 1, misses: 3 });
  });

  test('a burst of visitors waits for one render', async () => {
    let renders = 0;
    const { get } = await serve(async () => {
      renders++;
      await new Promise((r) => setTimeout(r, 50));
      return html('<p>slow</p>');
    });
    const answers = await Promise.all(Array.from({ length: 5 }, () => get('/')));
    expect(renders).toBe(1);
    expect(answers.every((a) => a.status === 200)).toBe(true);
  });

  test('an answer that sets a cookie, or is not a plain page, is its asker’s alone, also for those who waited for it', async () => {
    let renders = 0;
    const { get } = await serve(async () => {
      const n = ++renders;
      await new Promise((r) => setTimeout(r, 30));
      return html(`<p>${n}</p>`, { 'set-cookie': `a=${n}; Path=/` });
    });
    const [first, waiter] = await Promise.all([get('/'), get('/')]);
    expect(first.headers['set-cookie']).toEqual(['a=1; Path=/']);
    expect(waiter.headers['set-cookie']).toEqual(['a=2; Path=/']);
    expect((await get('/')).body.toString()).toContain('<p>3</p>');
  });
});

test('a page has one CSP: its own replaces the default one', async () => {
  const { get } = await serve(async () => html(PAGE('x')));
  const page = await get('/news');
  expect(String(page.headers['content-security-policy'])).toMatch(/^default-src 'self'; script-src 'self' 'sha256-[^,]+$/);
});
