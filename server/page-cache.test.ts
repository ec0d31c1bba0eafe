/**
 * The visitor page cache in front of a stand-in for the app (the real app is behind it in the browser tests
 * and in production.test.ts): the stand-in writes its nonce and the visitor's CSRF token into the page, as the
 * root route does, with remix-utils' real CSRF and cookie signing.
 */
import { createCookie } from '@remix-run/node';
import express from 'express';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import zlib from 'node:zlib';
import { CSRF } from 'remix-utils/csrf/server';
import { afterEach, describe, expect, test } from 'vitest';
import { visitorPageCache, type VisitorPageRules } from './page-cache';

const csrfCookie = createCookie('__Host-csrf', { path: '/', secure: true, secrets: ['s'] });
const csrf = new CSRF({ cookie: csrfCookie, secret: 's' });
const rules: VisitorPageRules = {
  paths: ['/'],
  ttlMs: 1000,
  personalCookies: ['__Host-sid', '__Host-toast'],
  tokenCookie: '__Host-csrf',
  commitToken: (headers) => csrf.commitToken(headers),
};

interface Setup {
  base: string;
  renders: Request[];
  clock: { now: number };
  market: { key: string };
  /** What the stand-in answers next (defaults to a 200 page). */
  answer: { status: number; setCookie?: string };
  cache: ReturnType<typeof visitorPageCache>;
}

const servers: http.Server[] = [];
afterEach(() => servers.splice(0).forEach((s) => s.close()));

async function setUp(): Promise<Setup> {
  const renders: Request[] = [];
  const clock = { now: 1_000_000 };
  const market = { key: 'up,1:1' };
  const answer: Setup['answer'] = { status: 200 };
  const app = express();
  let nonces = 0;
  app.use((_req, res, next) => {
    res.locals.cspNonce = `nonce${++nonces}`;
    next();
  });
  const cache = visitorPageCache({
    rules,
    now: () => clock.now,
    marketKey: () => market.key,
    render: async (request, nonce) => {
      renders.push(request);
      const [token, cookie] = await csrf.commitToken(request);
      const lng = /lng=(\w+)/.exec(request.headers.get('cookie') ?? '')?.[1] ?? 'hk';
      const headers = new Headers({ 'content-type': 'text/html; charset=utf-8' });
      if (cookie) headers.append('set-cookie', cookie);
      if (answer.setCookie) headers.append('set-cookie', answer.setCookie);
      const body = `<html lang="${lng}"><script nonce="${nonce}">window.token="${token}"</script><p>market ${market.key} page ${renders.length}</p></html>`;
      return new Response(body, { status: answer.status, headers });
    },
  });
  app.use(cache.middleware);
  app.use((_req, res) => void res.status(200).send('rendered by the app for this request alone'));
  const server = await new Promise<http.Server>((resolve) => {
    const s = app.listen(0, '127.0.0.1', () => resolve(s));
  });
  servers.push(server);
  return { base: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, renders, clock, market, answer, cache };
}

async function get(base: string, path: string, cookie = '') {
  const res = await fetch(base + path, { headers: cookie ? { cookie } : {} });
  const text = await res.text();
  const token = /window\.token="([^"]+)"/.exec(text)?.[1];
  const nonce = /nonce="([^"]+)"/.exec(text)?.[1];
  return { status: res.status, text, token, nonce, setCookie: res.headers.getSetCookie() };
}

/** An answer's bytes as sent (fetch would undo the gzip). */
function raw(base: string, encoding: string, method = 'GET', cookie = '') {
  return new Promise<{ headers: http.IncomingHttpHeaders; body: Buffer }>((resolve, reject) => {
    http
      .request(`${base}/`, { method, headers: { 'accept-encoding': encoding, ...(cookie ? { cookie } : {}) } }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ headers: res.headers, body: Buffer.concat(chunks) }));
      })
      .on('error', reject)
      .end();
  });
}

/** The cookie a response set, as the browser sends it back. */
const sentBack = (setCookie: string[]) => setCookie.map((c) => c.split(';')[0]).join('; ');

describe('visitor page cache', () => {
  test('one render serves every visitor for a second, each with their own nonce and their own token', async () => {
    const s = await setUp();
    const first = await get(s.base, '/');
    const second = await get(s.base, '/');
    expect(s.renders).toHaveLength(1);
    expect(first.text).toContain('page 1');
    expect(second.text).toContain('page 1');
    // Each response carries the nonce its own CSP names, never the render's.
    expect([first.nonce, second.nonce]).toEqual(['nonce1', 'nonce2']);
    // Two visitors without cookies: two different tokens, each given with its cookie.
    expect(first.token).toBeTruthy();
    expect(second.token).toBeTruthy();
    expect(first.token).not.toBe(second.token);
    expect(first.setCookie).toHaveLength(1);
    expect(await csrf.getToken(new Headers({ cookie: sentBack(first.setCookie) }))).toBe(first.token);
    expect(await csrf.getToken(new Headers({ cookie: sentBack(second.setCookie) }))).toBe(second.token);
  });

  test('a kept copy goes out gzipped as made once, a valid stream with each response its own nonce and token', async () => {
    const s = await setUp();
    // The miss that renders the copy goes out as before (a copy never asked for again costs no gzip template).
    expect((await raw(s.base, 'gzip')).headers['content-encoding']).toBeUndefined();
    const answers = [
      await raw(s.base, 'gzip, deflate, br'),
      await raw(s.base, 'gzip'),
      await raw(s.base, 'identity'),
      await raw(s.base, 'gzip;q=0, br'),
    ];
    expect(s.renders).toHaveLength(1);
    expect(answers.map((a) => a.headers['content-encoding'])).toEqual(['gzip', 'gzip', undefined, undefined]);
    const texts = answers.map(({ headers, body }) => {
      expect(headers.vary).toMatch(/accept-encoding/i);
      expect(Number(headers['content-length'])).toBe(body.length);
      return headers['content-encoding'] === 'gzip' ? zlib.gunzipSync(body).toString() : body.toString();
    });
    const nonces = texts.map((t) => /nonce="([^"]+)"/.exec(t)?.[1]);
    const tokens = texts.map((t) => /window\.token="([^"]+)"/.exec(t)?.[1]);
    expect(new Set(nonces).size).toBe(4);
    expect(new Set(tokens).size).toBe(4);
    // The same page but for its own nonce and token.
    const shape = (t: string, i: number) => t.replace(nonces[i]!, 'N').replace(tokens[i]!, 'T');
    texts.forEach((t, i) => expect(shape(t, i)).toBe(shape(texts[0]!, 0)));
    // HEAD: the same headers, no body.
    const head = await raw(s.base, 'gzip', 'HEAD');
    expect(head.headers['content-encoding']).toBe('gzip');
    expect(Number(head.headers['content-length'])).toBeGreaterThan(0);
    expect(head.body.length).toBe(0);
  });

  test('a token of another length than the copy was zipped for goes out uncompressed here, whole', async () => {
    const s = await setUp();
    await raw(s.base, 'gzip');
    expect((await raw(s.base, 'gzip')).headers['content-encoding']).toBe('gzip');
    const odd = await raw(s.base, 'gzip', 'GET', (await csrfCookie.serialize('short')).split(';')[0]!);
    expect(odd.headers['content-encoding']).toBeUndefined();
    expect(odd.body.toString()).toContain('window.token="short"');
  });

  test('a visitor who has a token keeps it and is given no new cookie', async () => {
    const s = await setUp();
    const { setCookie, token } = await get(s.base, '/');
    await get(s.base, '/'); // kept now
    const again = await get(s.base, '/', sentBack(setCookie));
    expect(again.token).toBe(token);
    expect(again.setCookie).toEqual([]);
    expect(s.renders).toHaveLength(1);
  });

  test('the copy lasts ttlMs; then the page is rendered again', async () => {
    const s = await setUp();
    await get(s.base, '/');
    s.clock.now += 999;
    expect((await get(s.base, '/')).text).toContain('page 1');
    s.clock.now += 1;
    expect((await get(s.base, '/')).text).toContain('page 2');
  });

  test('a change of market status or feed is never served from an older copy', async () => {
    const s = await setUp();
    await get(s.base, '/');
    s.market.key = 'up,1:2';
    expect((await get(s.base, '/')).text).toContain('market up,1:2');
    expect(s.renders).toHaveLength(2);
  });

  test('language, query and other cookies are part of the key; the token cookie is not', async () => {
    const s = await setUp();
    expect((await get(s.base, '/', 'lng=en')).text).toContain('lang="en"');
    expect((await get(s.base, '/', 'lng=de')).text).toContain('lang="de"');
    expect((await get(s.base, '/?category=3', 'lng=de')).text).toContain('page 3');
    expect((await get(s.base, '/', 'lng=de; __Host-csrf=whatever')).text).toContain('page 2');
    expect(s.renders).toHaveLength(3);
  });

  test("a signed-in visitor's or a toast's page is never kept nor served from a copy", async () => {
    const s = await setUp();
    await get(s.base, '/');
    expect((await get(s.base, '/', '__Host-sid=abc')).text).toBe('rendered by the app for this request alone');
    expect((await get(s.base, '/', 'lng=en; __Host-toast=xyz')).text).toBe('rendered by the app for this request alone');
    expect(s.cache.stats()).toMatchObject({ hits: 0, misses: 1, bypassed: 2 });
  });

  test('other paths and posts go to the app', async () => {
    const s = await setUp();
    expect((await get(s.base, '/login')).text).toBe('rendered by the app for this request alone');
    const post = await fetch(s.base + '/', { method: 'POST' });
    expect(await post.text()).toBe('rendered by the app for this request alone');
    expect(s.renders).toHaveLength(0);
  });

  test('an error page or a page that sets a cookie is served to its asker once, and not kept', async () => {
    const s = await setUp();
    s.answer.status = 503;
    const failed = await get(s.base, '/');
    expect(failed.status).toBe(503);
    expect(failed.nonce).toBe('nonce1');
    s.answer.status = 200;
    s.answer.setCookie = 'lng=en; Path=/';
    const cookied = await get(s.base, '/');
    expect(cookied.setCookie.some((c) => c.startsWith('lng=en'))).toBe(true);
    s.answer.setCookie = undefined;
    await get(s.base, '/');
    await get(s.base, '/');
    expect(s.renders).toHaveLength(3);
  });

  test('a burst of visitors arriving together waits for one render', async () => {
    const s = await setUp();
    const pages = await Promise.all(Array.from({ length: 20 }, () => get(s.base, '/')));
    expect(s.renders).toHaveLength(1);
    expect(new Set(pages.map((p) => p.token)).size).toBe(20);
    expect(new Set(pages.map((p) => p.nonce)).size).toBe(20);
  });
});
