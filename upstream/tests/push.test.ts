/**
 * Web Push from the real upstream to a push endpoint on this machine. Chromium cannot reach a real push
 * service here (no network beyond the package registries), so the test plays the push service and the
 * phone: it makes the phone's P-256 key pair and auth secret, subscribes with them, receives what the
 * upstream posts, checks the VAPID token against the upstream's public key, and decrypts the payload
 * itself (RFC 8291 / RFC 8188, with node's crypto only, not the library the upstream sends with).
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import * as alerts from '../../contract/calls/alerts';
import * as push from '../../contract/calls/push';
import { startTestUpstream, type TestUpstream } from '../testing';
import { decryptPush, phone } from '../../tests/push-phone';
import { expectError, expectOk, expectTokenRequired } from './contract-helpers';

interface Received {
  path: string;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
}

let up: TestUpstream;
let service: http.Server;
let serviceUrl = '';
const received: Received[] = [];
/** What the push service answers next (a phone that unsubscribed: 410). */
let answer = 201;

beforeAll(async () => {
  service = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      received.push({ path: req.url ?? '', headers: req.headers, body: Buffer.concat(chunks) });
      res.writeHead(answer).end();
    });
  });
  await new Promise<void>((r) => service.listen(0, '127.0.0.1', r));
  serviceUrl = `http://127.0.0.1:${(service.address() as AddressInfo).port}`;
  up = await startTestUpstream({ pushServiceHosts: [new URL(serviceUrl).host, 'fcm.googleapis.com'] });
});
afterAll(async () => {
  await up.close();
  service.close();
});

/** The VAPID token (RFC 8292): signed by the key whose public half the upstream gives to browsers. */
function verifyVapid(authorization: string, publicKey: string, endpoint: string) {
  const m = /^vapid t=([^,\s]+),\s*k=([A-Za-z0-9_-]+)$/.exec(authorization);
  expect(m, authorization).not.toBeNull();
  const [, jwt, k] = m!;
  expect(k).toBe(publicKey);
  const [header, claims, signature] = jwt!.split('.');
  const raw = Buffer.from(publicKey, 'base64url');
  const key = crypto.createPublicKey({
    key: { kty: 'EC', crv: 'P-256', x: raw.subarray(1, 33).toString('base64url'), y: raw.subarray(33, 65).toString('base64url') },
    format: 'jwk',
  });
  const ok = crypto.verify(
    'sha256',
    Buffer.from(`${header}.${claims}`),
    { key, dsaEncoding: 'ieee-p1363' },
    Buffer.from(signature!, 'base64url'),
  );
  expect(ok).toBe(true);
  const body = JSON.parse(Buffer.from(claims!, 'base64url').toString()) as { aud: string; exp: number; sub: string };
  expect(body.aud).toBe(new URL(endpoint).origin);
  expect(body.exp * 1000).toBeGreaterThan(Date.now());
}

describe('push/key', () => {
  test('gives the VAPID public key, made at first start and kept in the data folder across restarts', async () => {
    const { public_key } = expectOk(push.pushKey, await up.call(push.pushKey));
    expect(Buffer.from(public_key, 'base64url')).toHaveLength(65);
    const kept = JSON.parse(fs.readFileSync(path.join(up.dataDir, 'vapid.json'), 'utf8')) as { publicKey: string };
    expect(kept.publicKey).toBe(public_key);
    expect(fs.statSync(path.join(up.dataDir, 'vapid.json')).mode & 0o077).toBe(0);
    // Another data folder has its own key; a restart on the same folder keeps it.
    const dir = fs.mkdtempSync(path.join(up.dataDir, 'restart-'));
    const keyOf = async () => {
      const other = await startTestUpstream({ dataDir: dir });
      try {
        return expectOk(push.pushKey, await other.call(push.pushKey)).public_key;
      } finally {
        await other.close();
      }
    };
    const first = await keyOf();
    expect(first).not.toBe(public_key);
    expect(await keyOf()).toBe(first);
  });
});

describe('push/subscribe and push/unsubscribe', () => {
  test('need a login (999)', async () => {
    await expectTokenRequired(up, push.pushSubscribe, phone(serviceUrl, 'x').subscription);
    await expectTokenRequired(up, push.pushUnsubscribe, { endpoint: `${serviceUrl}/push/x` });
  });

  test('an endpoint that is not a known push service, or not HTTPS off this machine, is refused', async () => {
    const { token } = await up.demo();
    const { subscription } = phone(serviceUrl, 'y');
    for (const endpoint of [
      'http://169.254.169.254/latest',
      'https://evil.example/push',
      'http://fcm.googleapis.com/fcm/send/1',
      'not a url',
    ])
      expectError(await up.call(push.pushSubscribe, { ...subscription, endpoint }, { token }), 'InvalidRequest');
    expectError(await up.call(push.pushSubscribe, { ...subscription, p256dh: 'short' }, { token }), 'InvalidRequest');
    expectOk(
      push.pushSubscribe,
      await up.call(push.pushSubscribe, { ...subscription, endpoint: 'https://fcm.googleapis.com/fcm/send/abc' }, { token }),
    );
  });

  test('a push reaches every phone of the user, encrypted for each, signed with the VAPID key; an unsubscribed phone gets none', async () => {
    const { token, userId } = await up.demo();
    const { public_key } = expectOk(push.pushKey, await up.call(push.pushKey));
    const a = phone(serviceUrl, `a-${userId}`);
    const b = phone(serviceUrl, `b-${userId}`);
    for (const p of [a, b]) expectOk(push.pushSubscribe, await up.call(push.pushSubscribe, p.subscription, { token }));
    received.length = 0;
    const payload = { title: 'EUR/USD rose to 1.10500', body: 'Your alert at 1.10500 fired.', url: '/alerts', tag: 'alert-1' };
    expect(await up.upstream.push.send(userId, payload)).toBe(2);
    expect(received.map((r) => r.path).sort()).toEqual([`/push/a-${userId}`, `/push/b-${userId}`]);
    for (const r of received) {
      const p = r.path.endsWith(`a-${userId}`) ? a : b;
      expect(r.headers['content-encoding']).toBe('aes128gcm');
      expect(Number(r.headers.ttl)).toBeGreaterThan(0);
      verifyVapid(String(r.headers.authorization), public_key, p.subscription.endpoint);
      expect(JSON.parse(decryptPush(r.body, p))).toEqual(payload);
      // The other phone's keys cannot read it.
      expect(() => decryptPush(r.body, p === a ? b : a)).toThrow();
    }
    expectOk(push.pushUnsubscribe, await up.call(push.pushUnsubscribe, { endpoint: b.subscription.endpoint }, { token }));
    received.length = 0;
    expect(await up.upstream.push.send(userId, payload)).toBe(1);
    expect(received.map((r) => r.path)).toEqual([`/push/a-${userId}`]);
  });

  test('a phone the push service says is gone (410) is forgotten', async () => {
    const { token, userId } = await up.demo();
    const p = phone(serviceUrl, `gone-${userId}`);
    expectOk(push.pushSubscribe, await up.call(push.pushSubscribe, p.subscription, { token }));
    answer = 410;
    try {
      expect(await up.upstream.push.send(userId, { title: 't', body: 'b', url: '/' })).toBe(0);
    } finally {
      answer = 201;
    }
    expect(up.upstream.push.subscriptionsOf(userId)).toBe(0);
  });
});

describe('a price alert that fires', () => {
  test('is pushed once to the user’s phones, in the language it was set in, opening the alerts screen', async () => {
    const { token, userId } = await up.demo();
    const p = phone(serviceUrl, `alert-${userId}`);
    expectOk(push.pushSubscribe, await up.call(push.pushSubscribe, p.subscription, { token }));
    up.forceMarket('EURUSD', 'open');
    up.setPrice('EURUSD', 1.1);
    const forexId = up.upstream.market.getByCode('EURUSD')!.id;
    const alert = expectOk(
      alerts.alertAdd,
      await up.call(alerts.alertAdd, { forex_id: forexId, direction: 1, price: '1.105' }, { token, lang: 'fr' }),
    );
    received.length = 0;
    up.setPrice('EURUSD', 1.106);
    up.setPrice('EURUSD', 1.107);
    await expect.poll(() => received.length).toBe(1);
    expect(received[0]!.path).toBe(`/push/alert-${userId}`);
    expect(JSON.parse(decryptPush(received[0]!.body, p))).toEqual({
      title: 'Alerte de prix : EUR/USD à 1.10600',
      body: expect.stringMatching(
        /^EUR\/USD est monté à 1\.10600 et a atteint votre alerte à 1\.10500 \(\d{4}-\d\d-\d\d \d\d:\d\d UTC\)\.$/,
      ),
      url: '/alerts?code=EURUSD',
      tag: `alert-${alert.id}`,
    });
    await new Promise((r) => setTimeout(r, 200));
    expect(received).toHaveLength(1);
    up.setPrice('EURUSD', 1.1);
  });
});
