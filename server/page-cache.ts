/**
 * A visitor's page kept for a moment (docs/decisions/0016-visitor-page-cache.md). The market list is the
 * most visited page and the same for every visitor with the same language: rendering it for each one cost
 * about 10 ms of CPU, which capped a 2-core machine well below the traffic it should take. A rendered copy
 * is served for `ttlMs`, filled with each response's own CSP nonce and CSRF token.
 *
 * Only what cannot be someone's is kept: a GET or HEAD of a listed path, without the session or any other
 * personal cookie, answered 200 with HTML and no cookie of its own. The key holds everything else the page
 * depends on: path and query, every other cookie (language…), Save-Data, and the market's state as the
 * relay sees it (statuses and feed), so a market that closes or a feed that drops is shown at once; only
 * prices may be up to `ttlMs` older, and the page's stream brings the latest as soon as it runs.
 */
import type express from 'express';
import { fillGzip, gzipTemplate, type GzipTemplate } from './gzip-template';

export interface VisitorPageRules {
  /** Paths whose visitor page may be kept. */
  paths: readonly string[];
  /** How long a copy is served. */
  ttlMs: number;
  /** Cookies whose presence makes a page someone's (the session, a one-time toast). */
  personalCookies: readonly string[];
  /** The CSRF cookie: not part of the key, each response carries its visitor's token. */
  tokenCookie: string;
  /** This visitor's CSRF token, and the Set-Cookie that gives it when they have none yet (remix-utils' commitToken). */
  commitToken(headers: Headers): Promise<readonly [string, string | null]>;
}

/** What the page renders with, in place of this response's nonce and token. */
const NONCE_SLOT = 'pagecacheNonceSlot0';
const TOKEN_SLOT = 'pagecacheTokenSlot0';
/** Distinct keys kept at most (a query string is part of the key: random ones must not grow memory). */
const MAX_ENTRIES = 500;

interface Kept {
  until: number;
  status: number;
  headers: [string, string][];
  /** The page with NONCE_SLOT and TOKEN_SLOT where the response's own go. */
  template: string;
  /** False when this answer may not be reused (not 200 HTML, or it set a cookie): served once, to its asker. */
  reusable: boolean;
  /**
   * The template gzipped once around its slots, made by the first hit that takes gzip (for its nonce's and token's
   * lengths): compressing the page for each response was most of a hit's CPU (gzip-template.ts). Not made on the
   * miss that rendered it: a copy never asked for again (a query string of its own) costs no more than before.
   * Null when it cannot be made (a page with a NUL byte).
   */
  gzip?: GzipTemplate | null;
}

export interface VisitorPageCache {
  middleware: express.RequestHandler;
  stats(): { hits: number; misses: number; bypassed: number; entries: number };
  clear(): void;
}

/**
 * `render(request, nonce, req)` runs the app for a request (the Remix handler, the whole document at once).
 * `marketKey(req)` names the market's current state (statuses, feed) for the key.
 */
export function visitorPageCache(options: {
  rules: VisitorPageRules;
  render: (request: Request, nonce: string, req: express.Request) => Promise<Response>;
  marketKey: (req: express.Request) => string;
  count?: (result: 'hit' | 'miss' | 'bypass') => void;
  now?: () => number;
}): VisitorPageCache {
  const { rules, render, marketKey } = options;
  const now = options.now ?? Date.now;
  const paths = new Set(rules.paths);
  const personal = new Set(rules.personalCookies);
  const kept = new Map<string, Kept>();
  /** Renders under way, by key. */
  const rendering = new Map<string, Promise<Kept>>();
  let hits = 0;
  let misses = 0;
  let bypassed = 0;

  async function renderFor(req: express.Request, cookies: Map<string, string>, token: string, tokenCookie: string | null): Promise<Kept> {
    const headers = new Headers();
    for (const [name, value] of Object.entries(req.headers)) {
      if (name === 'cookie' || value === undefined) continue;
      for (const v of Array.isArray(value) ? value : [value]) headers.append(name, v);
    }
    // The page renders with this visitor's token cookie, given now when they had none: the app then sets no
    // cookie of its own, and the token it writes is the one replaced by TOKEN_SLOT.
    const cookie = [...cookies].map(([n, v]) => `${n}=${v}`);
    if (tokenCookie) cookie.push(tokenCookie);
    if (cookie.length) headers.set('cookie', cookie.join('; '));
    const url = new URL(req.originalUrl, `${req.protocol}://${req.get('host') ?? 'localhost'}`);
    const response = await render(new Request(url, { method: 'GET', headers }), NONCE_SLOT, req);
    const text = await response.text();
    const reusable =
      response.status === 200 &&
      !response.headers.has('set-cookie') &&
      (response.headers.get('content-type') ?? '').startsWith('text/html');
    const kept: [string, string][] = [];
    response.headers.forEach((value, name) => {
      if (name !== 'content-length' && name !== 'set-cookie') kept.push([name, value]);
    });
    // A refused page's own cookies (a redirect's) go to this asker only.
    const ownCookies = response.headers.getSetCookie();
    return {
      until: now() + rules.ttlMs,
      status: response.status,
      headers: reusable ? kept : [...kept, ...ownCookies.map((c): [string, string] => ['set-cookie', c])],
      template: text.replaceAll(token, TOKEN_SLOT),
      reusable,
    };
  }

  const middleware: express.RequestHandler = (req, res, next) => {
    if ((req.method !== 'GET' && req.method !== 'HEAD') || !paths.has(req.path) || '_data' in req.query) return next();
    const cookies = parseCookies(req.get('cookie'));
    if ([...cookies.keys()].some((name) => personal.has(name))) {
      bypassed++;
      options.count?.('bypass');
      return next();
    }
    const tokenCookieValue = cookies.get(rules.tokenCookie);
    cookies.delete(rules.tokenCookie);
    const key = [req.originalUrl, [...cookies].sort().join(';'), req.get('save-data') ?? '', marketKey(req)].join('\n');

    const tokenHeaders = new Headers(tokenCookieValue ? { cookie: `${rules.tokenCookie}=${tokenCookieValue}` } : {});
    rules
      .commitToken(tokenHeaders)
      .then(async ([token, setCookie]) => {
        const keptPage = kept.get(key);
        const fresh = keptPage !== undefined && keptPage.until > now();
        options.count?.(fresh ? 'hit' : 'miss');
        if (fresh) hits++;
        else misses++;
        const page = fresh
          ? keptPage
          : await renderShared(key, req, cookies, token, setCookie ? setCookie.split(';')[0]! : `${rules.tokenCookie}=${tokenCookieValue}`);
        send(req, res, page, token, setCookie, fresh);
      })
      .catch(next);
  };

  /**
   * A burst of misses for one key waits for one render; each visitor still gets their own token in the page
   * (the render used the first one's, replaced by TOKEN_SLOT). A refused answer (not reusable) is its
   * asker's alone: another visitor waiting on it renders again for themselves.
   */
  async function renderShared(
    key: string,
    req: express.Request,
    cookies: Map<string, string>,
    token: string,
    tokenCookie: string,
  ): Promise<Kept> {
    const pending = rendering.get(key);
    if (pending) {
      const page = await pending;
      return page.reusable ? page : renderFor(req, cookies, token, tokenCookie);
    }
    const mine = renderFor(req, cookies, token, tokenCookie).finally(() => rendering.delete(key));
    rendering.set(key, mine);
    const page = await mine;
    if (page.reusable) remember(key, page);
    return page;
  }

  function remember(key: string, page: Kept) {
    kept.delete(key);
    kept.set(key, page);
    if (kept.size > MAX_ENTRIES) kept.delete(kept.keys().next().value!);
  }

  function send(req: express.Request, res: express.Response, page: Kept, token: string, setCookie: string | null, hit: boolean) {
    res.status(page.status);
    for (const [name, value] of page.headers) {
      if (name === 'set-cookie') res.append('Set-Cookie', value);
      else res.setHeader(name, value);
    }
    if (setCookie) res.append('Set-Cookie', setCookie);
    const nonce = String(res.locals.cspNonce ?? '');
    const values = { [NONCE_SLOT]: nonce, [TOKEN_SLOT]: token };
    res.vary('Accept-Encoding');
    // A kept copy goes out gzipped as made once (the compression middleware leaves an encoded answer alone), to a
    // browser that takes brotli too: 14.8 KB instead of brotli's 13.8 for `/`, at a twentieth of the CPU.
    if (page.reusable && req.acceptsEncodings('gzip')) {
      if (hit)
        page.gzip ??= gzipTemplate(page.template, { [NONCE_SLOT]: Buffer.byteLength(nonce), [TOKEN_SLOT]: Buffer.byteLength(token) });
      const zipped = page.gzip && fillGzip(page.gzip, values);
      if (zipped) {
        res.setHeader('Content-Encoding', 'gzip');
        res.setHeader('Content-Length', zipped.length);
        res.end(req.method === 'HEAD' ? undefined : zipped);
        return;
      }
    }
    // Replaced by functions: a string replacement would read a `$` in a value as a pattern.
    const body = page.template.replaceAll(NONCE_SLOT, () => nonce).replaceAll(TOKEN_SLOT, () => token);
    // Written as is: express's send would hash the page for an ETag that, with a nonce in it, never matches.
    res.setHeader('Content-Length', Buffer.byteLength(body));
    res.end(req.method === 'HEAD' ? undefined : body);
  }

  return {
    middleware,
    stats: () => ({ hits, misses, bypassed, entries: kept.size }),
    clear: () => kept.clear(),
  };
}

/** `a=1; b=2` → Map (a repeated name keeps its first value, as cookie parsers do). */
function parseCookies(header: string | undefined): Map<string, string> {
  const cookies = new Map<string, string>();
  for (const part of (header ?? '').split(';')) {
    const at = part.indexOf('=');
    if (at <= 0) continue;
    const name = part.slice(0, at).trim();
    if (name && !cookies.has(name)) cookies.set(name, part.slice(at + 1).trim());
  }
  return cookies;
}
