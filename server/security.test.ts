import { describe, expect, test } from 'vitest';
import express from 'express';
import type { AddressInfo } from 'node:net';
import http from 'node:http';
import { contentSecurityPolicy, desktopSiteUrl, HSTS, isCrossSite, refuseMalformed, securityHeaders, validHost } from './security';

describe('cross-site refusal of state-changing requests', () => {
  test('Sec-Fetch-Site decides when present', () => {
    expect(isCrossSite('POST', { 'sec-fetch-site': 'same-origin' }, 'app.example.com')).toBe(false);
    expect(isCrossSite('POST', { 'sec-fetch-site': 'none' }, 'app.example.com')).toBe(false);
    expect(isCrossSite('POST', { 'sec-fetch-site': 'cross-site' }, 'app.example.com')).toBe(true);
    expect(isCrossSite('POST', { 'sec-fetch-site': 'same-site' }, 'app.example.com')).toBe(true);
  });
  test('Origin decides otherwise', () => {
    expect(isCrossSite('POST', { origin: 'https://app.example.com' }, 'app.example.com')).toBe(false);
    expect(isCrossSite('POST', { origin: 'https://evil.example' }, 'app.example.com')).toBe(true);
    expect(isCrossSite('POST', { origin: 'null' }, 'app.example.com')).toBe(true);
  });
  test('reads are never refused', () => {
    expect(isCrossSite('GET', { 'sec-fetch-site': 'cross-site' }, 'app.example.com')).toBe(false);
  });
});

describe('desktop site', () => {
  const desktop = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120 Safari/537.36';
  const phone = 'Mozilla/5.0 (Linux; Android 13; Pixel 5) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120 Mobile Safari/537.36';
  test('a desktop browser on the mobile domain goes to pc.<domain>', () => {
    expect(desktopSiteUrl(desktop, 'm.broker.com', '/trade?x=1', 'https')).toBe('https://pc.broker.com/trade?x=1');
  });
  test('phones, localhost, IPs and the pc host itself stay', () => {
    expect(desktopSiteUrl(phone, 'm.broker.com', '/', 'https')).toBeNull();
    expect(desktopSiteUrl(desktop, 'localhost:3000', '/', 'http')).toBeNull();
    expect(desktopSiteUrl(desktop, '127.0.0.1:3000', '/', 'http')).toBeNull();
    expect(desktopSiteUrl(desktop, '[::1]:3000', '/', 'http')).toBeNull();
    expect(desktopSiteUrl(desktop, 'pc.broker.com', '/', 'https')).toBeNull();
  });
});

test('scripts from this origin and the named inline ones only: no unsafe-inline, no eval', () => {
  const csp = contentSecurityPolicy({ dev: false, scripts: ["'sha256-abc='"] });
  expect(csp).toContain("script-src 'self' 'sha256-abc='");
  expect(csp).not.toMatch(/script-src[^;]*unsafe/);
  expect(csp).toContain("frame-ancestors 'none'");
  expect(csp).toContain("object-src 'none'");
  expect(csp).toContain("base-uri 'none'");
  expect(contentSecurityPolicy({ dev: false })).toMatch(/script-src 'self';/);
});

describe('framing one origin on one page (the online-service chat)', () => {
  test('a named origin may be framed; a value that is not an origin is ignored', () => {
    expect(contentSecurityPolicy({ dev: false, frameSource: 'https://support.example.com' })).toContain(
      'frame-src https://support.example.com',
    );
    expect(contentSecurityPolicy({ dev: false })).not.toContain('frame-src');
    expect(contentSecurityPolicy({ dev: false, frameSource: "https://a.example 'unsafe-inline'" })).not.toContain('frame-src');
  });
});

describe('HSTS (issue 9 #10)', () => {
  /** The web server's own order: trust the loopback proxy, then the security headers. */
  async function hstsOf(headers: Record<string, string>) {
    const app = express();
    app.set('trust proxy', 'loopback');
    app.use(securityHeaders(false));
    app.get('/', (_req, res) => res.send('ok'));
    const server = app.listen(0, '127.0.0.1');
    await new Promise((r) => server.once('listening', r));
    try {
      const res = await fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}/`, { headers });
      return res.headers.get('strict-transport-security');
    } finally {
      server.close();
    }
  }
  test('sent when a trusted proxy says the request came over HTTPS', async () => {
    expect(await hstsOf({ 'x-forwarded-proto': 'https' })).toBe(HSTS);
  });
  test('not sent over plain HTTP (localhost development, tests)', async () => {
    expect(await hstsOf({})).toBeNull();
  });
});

describe('malformed requests get a clear 4xx, never a 500 (issue 9 #3)', () => {
  test('host headers', () => {
    for (const ok of ['localhost', 'localhost:3000', 'app.example.com', '127.0.0.1:80', '[::1]:3000', '[::1]'])
      expect(validHost(ok), ok).toBe(true);
    for (const bad of ['a b', '[::', 'localhost:99999', '', undefined, 'exa mple.com', 'a..b', '[zz]', 'host:port'])
      expect(validHost(bad), String(bad)).toBe(false);
  });

  async function send(method: string, host: string) {
    const app = express();
    app.use(refuseMalformed());
    app.all('*', (_req, res) => res.send('ok'));
    const server = app.listen(0, '127.0.0.1');
    await new Promise((r) => server.once('listening', r));
    const port = (server.address() as AddressInfo).port;
    try {
      return await new Promise<number>((resolve, reject) => {
        const req = http.request({ host: '127.0.0.1', port, method, path: '/', headers: { host } }, (res) => {
          res.resume();
          resolve(res.statusCode ?? 0);
        });
        req.on('error', reject);
        req.end();
      });
    } finally {
      server.close();
    }
  }
  test('TRACE and other methods are 405; a broken Host is 400; a good request passes', async () => {
    expect(await send('TRACE', 'localhost')).toBe(405);
    expect(await send('PUT', 'localhost')).toBe(405);
    expect(await send('GET', 'a b')).toBe(400);
    expect(await send('GET', '[::')).toBe(400);
    expect(await send('GET', 'localhost:99999')).toBe(400);
    expect(await send('GET', 'localhost:3000')).toBe(200);
    expect(await send('POST', 'localhost')).toBe(200);
  });
});
