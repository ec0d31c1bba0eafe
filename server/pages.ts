/**
 * How an answer of the app (a page, a form's redirect, a resource route) leaves the server, in order:
 *
 * 1. A shared page (one the app names, asked for without a session or toast cookie) is answered from the copy
 *    kept for its second, if there is one: the same bytes for every visitor (docs/decisions/0038).
 * 2. Remix answers the request.
 * 3. Caching rules: a route's own Cache-Control stands; else a shared page is `public` for a second, a visitor's
 *    page `private, no-cache`, and a signed-in page or any post `private, no-store`.
 * 4. A page's Content-Security-Policy names the SHA-256 of each inline script it carries (no per-response nonce:
 *    a shared page cannot have one).
 * 5. Text is compressed whole, brotli or gzip, once: a page is a few milliseconds from its end, so there is
 *    nothing to stream (decision 0031).
 * 6. A shared page's finished answer is kept for its second.
 *
 * Security headers, host and method checks and the cross-site refusal come before this (./web.ts).
 */
import { createReadableStreamFromReadable, writeReadableStreamToWritable, type AppLoadContext } from '@remix-run/node';
import type express from 'express';
import Negotiator from 'negotiator';
import crypto from 'node:crypto';
import zlib from 'node:zlib';
import { cookieValue } from '../contract/cookies';
import { contentSecurityPolicy, FRAME_SOURCE_HEADER } from './security';

/** The pages the app shares among visitors (its build entry exports them: app/utils/shared-pages.server.ts). */
export interface SharedPageRules {
  /** Whether this request is for a shared page: the same for every visitor during its second. */
  isShared(method: string, pathname: string, cookie: string | null | undefined): boolean;
  /** What else a shared page depends on besides its URL (the language cookie's value). */
  variant(cookie: string | null | undefined): string;
}

/** Shared caches (nginx, a CDN) keep a shared page for a second; browsers revalidate it. */
export const SHARED_PAGE_CACHE_CONTROL = 'public, max-age=0, s-maxage=1';
const SHARED_PAGE_SECONDS = 1;

/** Brotli quality 5 with a 256 KB window (decision 0029: a page is under 100 KB). */
const BROTLI: zlib.BrotliOptions = {
  params: { [zlib.constants.BROTLI_PARAM_LGWIN]: 18, [zlib.constants.BROTLI_PARAM_QUALITY]: 5 },
};
/** Smaller answers go as they are (a compressed header and block cost more than they save). */
const COMPRESS_FROM_BYTES = 1024;
const COMPRESSIBLE = /^(text\/|application\/(json|javascript|manifest\+json|xml)|image\/svg\+xml)/;
/** Distinct shared copies kept at most (the query string is part of the key: random ones must not grow memory). */
const MAX_KEPT = 500;

interface Finished {
  status: number;
  headers: [string, string][];
  body: Buffer;
}

/** Whether the Cookie header carries the named cookie (its value unread). */
export function carriesCookie(cookie: string | null | undefined, name: string): boolean {
  return cookieValue(cookie, name) !== null;
}

/** The Cache-Control of an answer that does not say its own. */
export function pageCacheControl(method: string, cookie: string | null | undefined, shared: boolean, sessionCookie: string): string {
  if (shared) return SHARED_PAGE_CACHE_CONTROL;
  // A stale or forged session cookie counts too: the store is not read for this.
  const read = method === 'GET' || method === 'HEAD';
  return read && !carriesCookie(cookie, sessionCookie) ? 'private, no-cache' : 'private, no-store';
}

/** `'sha256-…'` of each inline script in the page: the only inline scripts its CSP allows. */
export function inlineScriptHashes(html: string): string[] {
  const hashes = new Set<string>();
  for (const [, attributes, body] of html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/gi))
    if (!/\bsrc\s*=/i.test(attributes!) && body) hashes.add(`'sha256-${crypto.createHash('sha256').update(body).digest('base64')}'`);
  return [...hashes];
}

/** The encoding to send in: the browser's ranking, brotli before gzip on a tie. */
function encodingFor(req: express.Request): 'br' | 'gzip' | 'identity' {
  // (@types/negotiator leaves out `preferred`, which negotiator 0.6.4 takes.)
  const negotiator = new Negotiator(req) as unknown as { encoding(available: string[], preferred: string[]): string | undefined };
  const chosen = negotiator.encoding(['br', 'gzip', 'identity'], ['br', 'gzip']);
  return chosen === 'br' || chosen === 'gzip' ? chosen : 'identity';
}

/** The fetch API's Request for Remix, aborted when the browser leaves before its answer. */
function remixRequest(req: express.Request, res: express.Response): Request {
  const controller = new AbortController();
  res.on('close', () => {
    if (!res.writableFinished) controller.abort();
  });
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (value === undefined) continue;
    for (const v of Array.isArray(value) ? value : [value]) headers.append(name, v);
  }
  // req.protocol and req.get('host') follow TRUST_PROXY; originalUrl keeps the full path.
  const url = `${req.protocol}://${req.get('host') ?? 'localhost'}${req.originalUrl}`;
  const hasBody = req.method !== 'GET' && req.method !== 'HEAD';
  return new Request(url, {
    method: req.method,
    headers,
    signal: controller.signal,
    ...(hasBody ? { body: createReadableStreamFromReadable(req), duplex: 'half' } : {}),
  } as RequestInit);
}

export interface RemixPages {
  handler: express.RequestHandler;
  stats(): { hits: number; misses: number; kept: number };
}

export function remixPages(options: {
  /** Remix's request handler (`createRequestHandler(build)`). */
  remix: (request: Request, context: AppLoadContext) => Promise<Response>;
  dev: boolean;
  loadContext: (req: express.Request) => AppLoadContext;
  /** The app's shared pages (absent: none). */
  rules?: SharedPageRules;
  /** The session cookie: a request without it is a visitor's (absent: every request is treated as signed in). */
  sessionCookie?: string;
  /** Answers from a kept copy (hit) or rendered (miss). */
  count?: (result: 'hit' | 'miss') => void;
  now?: () => number;
}): RemixPages {
  const { remix, dev, rules } = options;
  const now = options.now ?? Date.now;
  const kept = new Map<string, { until: number; answer: Finished }>();
  /** Renders of a shared page under way, by key: a burst of visitors waits for one. */
  const rendering = new Map<string, Promise<Finished | null>>();
  let hits = 0;
  let misses = 0;
  const cacheControl = (req: express.Request, shared: boolean) =>
    options.sessionCookie ? pageCacheControl(req.method, req.get('cookie'), shared, options.sessionCookie) : 'private, no-store';

  /** Steps 3 to 5 for an answer with a body to compress; null when it goes as it is (an image, a stream). */
  async function finish(req: express.Request, response: Response, shared: boolean, encoding: string): Promise<Finished | null> {
    const headers = new Headers(response.headers);
    if (!headers.has('cache-control')) headers.set('Cache-Control', cacheControl(req, shared));
    const type = headers.get('content-type') ?? '';
    if (type.startsWith('text/html')) {
      const html = await response.text();
      const frame = headers.get(FRAME_SOURCE_HEADER) ?? undefined;
      headers.delete(FRAME_SOURCE_HEADER);
      headers.set('Content-Security-Policy', contentSecurityPolicy({ dev, scripts: inlineScriptHashes(html), frameSource: frame }));
      return compress(response.status, headers, Buffer.from(html), encoding);
    }
    if (!response.body || !COMPRESSIBLE.test(type) || headers.has('content-encoding') || type.startsWith('text/event-stream')) return null;
    return compress(response.status, headers, Buffer.from(await response.arrayBuffer()), encoding);
  }

  function compress(status: number, headers: Headers, body: Buffer, encoding: string): Finished {
    headers.delete('content-length');
    if (body.length >= COMPRESS_FROM_BYTES && encoding !== 'identity') {
      body = encoding === 'br' ? zlib.brotliCompressSync(body, BROTLI) : zlib.gzipSync(body);
      headers.set('Content-Encoding', encoding);
    }
    headers.append('Vary', 'Accept-Encoding');
    const list: [string, string][] = [];
    headers.forEach((value, name) => {
      if (name !== 'set-cookie') list.push([name, value]);
    });
    for (const cookie of headers.getSetCookie()) list.push(['set-cookie', cookie]);
    return { status, headers: list, body };
  }

  function send(req: express.Request, res: express.Response, answer: Finished) {
    res.status(answer.status);
    // The page's own headers replace the defaults set before it (its CSP, with its scripts' hashes).
    for (const [name, value] of answer.headers)
      if (name === 'set-cookie') res.append(name, value);
      else res.setHeader(name, value);
    res.setHeader('Content-Length', answer.body.length);
    res.end(req.method === 'HEAD' ? undefined : answer.body);
  }

  /** Steps 2 to 5 for one request: the finished answer, or null when it went out as it came (an image, a stream). */
  async function render(req: express.Request, res: express.Response, shared: boolean, encoding: string): Promise<Finished | null> {
    const response = await remix(remixRequest(req, res), options.loadContext(req));
    const answer = await finish(req, response, shared, encoding);
    if (answer) return answer;
    res.status(response.status);
    response.headers.forEach((value, name) => {
      if (name !== 'set-cookie') res.setHeader(name, value);
    });
    const cookies = response.headers.getSetCookie();
    if (cookies.length) res.setHeader('Set-Cookie', cookies);
    if (!response.headers.has('cache-control')) res.setHeader('Cache-Control', cacheControl(req, shared));
    if (response.body && req.method !== 'HEAD') await writeReadableStreamToWritable(response.body, res);
    else res.end();
    return null;
  }

  /** Only a plain page is anyone's: a redirect or an error, or one that sets a cookie, goes to its asker alone. */
  const anyones = (answer: Finished | null): answer is Finished =>
    answer !== null && answer.status === 200 && !answer.headers.some(([name]) => name === 'set-cookie');

  async function sharedAnswer(req: express.Request, res: express.Response, key: string, encoding: string): Promise<Finished | null> {
    const copy = kept.get(key);
    if (copy && copy.until > now()) {
      hits++;
      options.count?.('hit');
      return copy.answer;
    }
    misses++;
    options.count?.('miss');
    const pending = rendering.get(key);
    if (pending) {
      const answer = await pending;
      return anyones(answer) ? answer : render(req, res, true, encoding);
    }
    const mine = render(req, res, true, encoding).finally(() => rendering.delete(key));
    rendering.set(key, mine);
    const answer = await mine;
    if (anyones(answer)) {
      kept.delete(key);
      kept.set(key, { until: now() + SHARED_PAGE_SECONDS * 1000, answer });
      if (kept.size > MAX_KEPT) kept.delete(kept.keys().next().value!);
    }
    return answer;
  }

  const handler: express.RequestHandler = (req, res, next) => {
    const cookie = req.get('cookie');
    // Development renders every request.
    const shared = !dev && !!rules?.isShared(req.method, req.path, cookie);
    const encoding = encodingFor(req);
    const answering = shared
      ? sharedAnswer(req, res, [req.originalUrl, encoding, rules!.variant(cookie)].join('\n'), encoding)
      : render(req, res, false, encoding);
    answering.then((answer) => answer && send(req, res, answer)).catch(next);
  };

  return { handler, stats: () => ({ hits, misses, kept: kept.size }) };
}
