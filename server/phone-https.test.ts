/**
 * Trying the app on a phone (decision 0043): the private addresses found, the certificate made once, and the built
 * server with LAN_HTTPS=on answering over HTTPS on loopback as a phone would reach it, by a private address in its
 * Host (never a real LAN address): sign in, a signed-in page, never cached; a cross-site post still refused.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import https from 'node:https';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { buildDirectory } from './build-directory';
import { ensureLanCertificate, isPrivateIPv4, lanAddresses, lanHttpsPort, lanLines } from './phone-https';

const ENTRY = path.join(buildDirectory(process.env.BUILD_DIR), 'server-bin', 'index.js');

test('private IPv4 addresses are the RFC 1918 ranges only', () => {
  for (const ip of ['10.0.0.1', '172.16.0.5', '172.31.255.254', '192.168.1.23']) expect(isPrivateIPv4(ip)).toBe(true);
  for (const ip of ['8.8.8.8', '172.15.0.1', '172.32.0.1', '192.169.0.1', '127.0.0.1', '169.254.1.1', '10.0.0', 'fe80::1'])
    expect(isPrivateIPv4(ip)).toBe(false);
});

test("the phone's addresses: private, IPv4, not loopback, each once", () => {
  const info = (address: string, family: 'IPv4' | 'IPv6', internal = false) =>
    ({ address, family, internal, netmask: '', mac: '', cidr: null }) as os.NetworkInterfaceInfo;
  expect(
    lanAddresses({
      lo: [info('127.0.0.1', 'IPv4', true)],
      eth0: [info('192.168.1.23', 'IPv4'), info('fe80::1', 'IPv6')],
      wlan0: [info('10.0.0.7', 'IPv4'), info('192.168.1.23', 'IPv4')],
      docker0: [info('203.0.113.9', 'IPv4')],
    }),
  ).toEqual(['192.168.1.23', '10.0.0.7']);
});

test('the HTTPS port: off by default, PORT + 443, or HTTPS_PORT', () => {
  expect(lanHttpsPort({ LAN_HTTPS: 'off', PORT: 3000 })).toBeNull();
  expect(lanHttpsPort({ LAN_HTTPS: 'on', PORT: 3000 })).toBe(3443);
  expect(lanHttpsPort({ LAN_HTTPS: 'on', PORT: 3000, HTTPS_PORT: 8443 })).toBe(8443);
  expect(lanLines(3443, ['192.168.1.23'])[0]).toBe('On a phone on this network: https://192.168.1.23:3443');
});

test('the certificate is made once, names the addresses, and is made again for a new address', async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'lan-cert-'));
  try {
    const first = await ensureLanCertificate(dir, ['192.168.1.23']);
    const cert = new crypto.X509Certificate(first.cert);
    expect(cert.checkIP('192.168.1.23')).toBe('192.168.1.23');
    expect(cert.checkHost('localhost')).toBe('localhost');
    expect(fs.statSync(path.join(dir, 'lan-https.key')).mode & 0o077).toBe(0);
    expect(await ensureLanCertificate(dir, ['192.168.1.23'])).toEqual(first);
    const moved = await ensureLanCertificate(dir, ['10.0.0.7']);
    expect(moved.cert).not.toBe(first.cert);
    expect(new crypto.X509Certificate(moved.cert).checkIP('10.0.0.7')).toBe('10.0.0.7');
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

describe.skipIf(!fs.existsSync(ENTRY))('the built server with LAN_HTTPS=on', () => {
  // E2E_PORT and the next one, or two ports the system says are free.
  let PORT = Number(process.env.E2E_PORT);
  let HTTPS_PORT = PORT + 1;
  // What the phone puts in Host: the machine's private address and the HTTPS port. The request goes to loopback.
  let HOST = '';
  let ORIGIN = '';
  let child: ChildProcess;
  let dataDir: string;
  let out = '';

  function request(method: 'GET' | 'POST', urlPath: string, headers: Record<string, string>, body?: string): Promise<Answer> {
    return new Promise((resolve, reject) => {
      const req = https.request(
        {
          host: '127.0.0.1',
          port: HTTPS_PORT,
          method,
          path: urlPath,
          rejectUnauthorized: false,
          agent: false,
          headers: { host: HOST, ...headers },
        },
        (res) => {
          let text = '';
          res.setEncoding('utf8');
          res.on('data', (d) => (text += d));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: text }));
        },
      );
      req.on('error', reject);
      req.end(body);
    });
  }
  const cookiesOf = (a: Answer) => ((a.headers['set-cookie'] as string[] | undefined) ?? []).map((c) => c.split(';')[0]!);

  beforeAll(async () => {
    if (!PORT) [PORT, HTTPS_PORT] = [await freePort(), await freePort()];
    HOST = `192.168.77.10:${HTTPS_PORT}`;
    ORIGIN = `https://${HOST}`;
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'lan-https-test-'));
    child = spawn(process.execPath, [ENTRY], {
      env: {
        ...process.env,
        NODE_ENV: 'production',
        PORT: String(PORT),
        HTTPS_PORT: String(HTTPS_PORT),
        LAN_HTTPS: 'on',
        HOST: '127.0.0.1',
        DATA_DIR: dataDir,
        WEB_CONCURRENCY: '2',
        UPSTREAM_MARKET_HOURS: 'always',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child.stdout!.on('data', (d) => (out += d));
    child.stderr!.on('data', (d) => (out += d));
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`not ready:\n${out}`)), 60_000);
      child.stdout!.on('data', () => /continue to the site|no private network address/.test(out) && (clearTimeout(timer), resolve()));
      child.once('exit', () => reject(new Error(`exited:\n${out}`)));
    });
  }, 70_000);

  afterAll(async () => {
    if (child.exitCode === null) {
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGTERM');
      await exited;
    }
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  test('prints where a phone opens it, and makes its certificate in DATA_DIR', () => {
    expect(out).toMatch(new RegExp(`ready at http://localhost:${PORT}`));
    for (const ip of lanAddresses()) expect(out).toContain(`https://${ip}:${HTTPS_PORT}`);
    expect(fs.existsSync(path.join(dataDir, 'lan-https.crt'))).toBe(true);
  });

  test('a phone signs in over HTTPS by a private address and sees its signed-in page, never cached', async () => {
    // English, as the language picker sets it (a Secure cookie too).
    const language = await request('GET', '/language?lng=en&redirectTo=/login', {});
    expect(language.status).toBe(302);
    let cookie = cookiesOf(language).join('; ');
    const login = await request('GET', '/login', { cookie });
    expect(login.status).toBe(200);
    expect(login.headers['strict-transport-security']).toBeUndefined();
    const csrf = /name="csrf" value="([^"]+)"/.exec(login.body)?.[1];
    expect(csrf).toBeTruthy();
    cookie = [...cookie.split('; '), ...cookiesOf(login)].join('; ');
    expect(cookie).toContain('__Host-csrf=');

    // What the phone's browser sends with a form post: its own origin, same-origin.
    const form = { 'content-type': 'application/x-www-form-urlencoded', origin: ORIGIN, 'sec-fetch-site': 'same-origin', cookie };
    const demo = await request('POST', '/demo', form, new URLSearchParams({ csrf: csrf!, from: '/mine' }).toString());
    expect(demo.status).toBe(302);
    const setCookies = (demo.headers['set-cookie'] as string[] | undefined) ?? [];
    expect(setCookies.some((c) => /^__Host-sid=.+; .*Secure/i.test(c))).toBe(true);
    cookie = [...cookie.split('; '), ...cookiesOf(demo)].join('; ');

    const mine = await request('GET', '/mine', { cookie });
    expect(mine.status).toBe(200);
    // The demo account's own section and balance (a visitor's /mine is the log-in's offer).
    expect(mine.body.includes('<section class="mine-account" aria-label="Your account">'), 'the account section').toBe(true);
    expect(mine.body.includes('100,000.00'), "the demo account's balance").toBe(true);
    expect(mine.headers['cache-control']).toMatch(/private/);
    expect(mine.headers['cache-control']).toMatch(/no-store/);
    const market = await request('GET', '/', { cookie });
    expect(market.status).toBe(200);
    expect(market.headers['cache-control']).toMatch(/no-store/);
  });

  test('a post from another site is still refused on that port', async () => {
    const login = await request('GET', '/login', {});
    const csrf = /name="csrf" value="([^"]+)"/.exec(login.body)?.[1] ?? '';
    const posted = await request(
      'POST',
      '/demo',
      { 'content-type': 'application/x-www-form-urlencoded', origin: 'https://evil.example', cookie: cookiesOf(login).join('; ') },
      new URLSearchParams({ csrf }).toString(),
    );
    expect(posted.status).toBe(403);
  });
});
