/**
 * Request checks and headers of the web server: the Content-Security-Policy, the usual hardening headers, a
 * cross-site refusal for every state-changing request, and the desktop-site redirect.
 */
import net from 'node:net';
import type { NextFunction, Request, Response } from 'express';

/**
 * A page that embeds a third party (the online-service chat) names its origin in this response header;
 * the CSP then allows framing that origin, on that page only. The header itself never leaves the server.
 */
export const FRAME_SOURCE_HEADER = 'x-csp-frame-src';
const ORIGIN = /^https?:\/\/[a-z0-9.-]+(:\d{1,5})?$/i;

/**
 * Scripts from this origin, and the inline scripts whose hashes a page names (./pages.ts): an injected inline
 * script runs nowhere. This origin serves no script a user could have written (uploads are images, checked by
 * content and sent with nosniff), so `'self'` admits only our build (decision 0038).
 */
export function contentSecurityPolicy({
  dev,
  scripts = [],
  frameSource,
}: {
  dev: boolean;
  scripts?: readonly string[];
  frameSource?: string;
}): string {
  return [
    "default-src 'self'",
    ["script-src 'self'", ...scripts, ...(dev ? ["'unsafe-eval'"] : [])].join(' '),
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data:",
    // Fonts, the manifest and fetches fall back to default-src 'self': every page's header says it once.
    ...(dev ? ["connect-src 'self' ws:"] : []),
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'none'",
    ...(frameSource && ORIGIN.test(frameSource) ? [`frame-src ${frameSource}`] : []),
  ].join('; ');
}

/** Two years, subdomains included (api.<domain> and pc.<domain> are ours too). */
export const HSTS = 'max-age=63072000; includeSubDomains';

/** Every answer's hardening headers; a page's own CSP, with its scripts' hashes, replaces this one (./pages.ts). */
export function securityHeaders(dev: boolean, hsts: (req: Request) => boolean = (req) => req.secure) {
  const policy = contentSecurityPolicy({ dev });
  return (req: Request, res: Response, next: NextFunction) => {
    // Over HTTPS (directly, or as a trusted proxy says with X-Forwarded-Proto) browsers must stay on HTTPS.
    if (hsts(req)) res.setHeader('Strict-Transport-Security', HSTS);
    res.setHeader('Content-Security-Policy', policy);
    res.setHeader('X-Content-Type-Options', 'nosniff');
    res.setHeader('Referrer-Policy', 'same-origin');
    res.setHeader('X-Frame-Options', 'DENY');
    res.setHeader('Cross-Origin-Opener-Policy', 'same-origin');
    res.setHeader('Permissions-Policy', 'camera=(), microphone=(), geolocation=()');
    next();
  };
}

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * Is this state-changing request from our own pages? Browsers send Sec-Fetch-Site; older ones send Origin.
 * (remix-utils 7 misspells the Sec-Fetch header, so this is ours.) A request with neither is left to the
 * CSRF token.
 */
export function isCrossSite(method: string, headers: Record<string, string | string[] | undefined>, host: string | undefined): boolean {
  if (SAFE_METHODS.has(method.toUpperCase())) return false;
  const site = headers['sec-fetch-site'];
  if (typeof site === 'string') return site !== 'same-origin' && site !== 'none';
  const origin = headers.origin;
  if (typeof origin === 'string') {
    if (origin === 'null') return true;
    try {
      return new URL(origin).host !== host;
    } catch {
      return true;
    }
  }
  return false;
}

export function refuseCrossSite(req: Request, res: Response, next: NextFunction) {
  if (isCrossSite(req.method, req.headers, req.get('host'))) {
    res.status(403).type('text/plain').send('Cross-site request refused.');
    return;
  }
  next();
}

const MOBILE_OR_TABLET = /Mobi|Android|iPhone|iPad|iPod|Windows Phone|Opera Mini|IEMobile|Silk|Kindle|Tablet/i;
const DESKTOP = /Windows NT|Macintosh|X11|CrOS/i;

/**
 * The desktop site lives on the host whose first label is `pc` (spec §1). Only for a real domain name:
 * never for localhost or an IP address, and never when we are already there.
 */
export function desktopSiteUrl(
  userAgent: string | undefined,
  host: string | undefined,
  originalUrl: string,
  protocol: string,
): string | null {
  if (!userAgent || !host || MOBILE_OR_TABLET.test(userAgent) || !DESKTOP.test(userAgent)) return null;
  const name = host.replace(/:\d+$/, '').replace(/^\[|\]$/g, '');
  if (name === 'localhost' || name.endsWith('.localhost') || net.isIP(name) !== 0) return null;
  const labels = name.split('.');
  if (labels.length < 2 || labels[0] === 'pc') return null;
  labels[0] = 'pc';
  const port = /:\d+$/.exec(host)?.[0] ?? '';
  return `${protocol}://${labels.join('.')}${port}${originalUrl}`;
}

/** A Host header we can build a URL from: a DNS name or IP, an optional port up to 65535. */
export function validHost(host: string | undefined): boolean {
  if (!host || host.length > 255) return false;
  const m =
    /^(?:((?:[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*)|\[([0-9A-Fa-f:.]+)\])(?::(\d{1,5}))?$/.exec(
      host,
    );
  if (!m) return false;
  if (m[2] !== undefined && !net.isIPv6(m[2])) return false;
  return m[3] === undefined || Number(m[3]) <= 65535;
}

const SERVED_METHODS = new Set(['GET', 'HEAD', 'POST']);

/**
 * Requests the app cannot answer are refused before anything reads them: another method (TRACE, PUT…)
 * with 405, a Host header that is no host with 400 — a clear 4xx, never a 500 from deep inside.
 */
export function refuseMalformed() {
  return (req: Request, res: Response, next: NextFunction) => {
    if (!SERVED_METHODS.has(req.method)) {
      res.setHeader('Allow', 'GET, HEAD, POST');
      res.status(405).type('text/plain').send('Method not allowed');
      return;
    }
    if (!validHost(req.headers.host)) {
      res.status(400).type('text/plain').send('Bad Host header');
      return;
    }
    next();
  };
}

/** How much of an unread body is read and dropped after the answer, so the client sees the answer (not a reset). */
const LINGER_BYTES = 256 * 1024;
const LINGER_MS = 5_000;

/**
 * An answer finished before its request body was read to the end (a refusal of an oversized post, an
 * action that answered without reading): a little more is read and dropped, as node does to keep the
 * connection, so that the client reads the answer rather than a reset; past LINGER_BYTES or LINGER_MS the
 * connection is closed, so a client streaming an endless body costs nothing more.
 */
export function unreadBodyCloses() {
  return (req: Request, res: Response, next: NextFunction) => {
    res.on('finish', () => {
      if (req.complete) return;
      let dropped = 0;
      const timer = setTimeout(() => req.socket.destroy(), LINGER_MS).unref();
      req.once('end', () => clearTimeout(timer));
      // Whoever was reading the body (the app's stream) has given up on it.
      req.removeAllListeners('data');
      req.on('data', (chunk: Buffer) => {
        dropped += chunk.length;
        if (dropped > LINGER_BYTES) req.socket.destroy();
      });
      req.resume();
    });
    next();
  };
}
