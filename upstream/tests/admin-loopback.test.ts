/** Issue 9 #9: the back office answers on loopback only, even when the API listens on every interface. */
import os from 'node:os';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { isLoopback } from '../http/admin';
import { startTestUpstream, type TestUpstream } from '../testing';

let up: TestUpstream;
beforeAll(async () => {
  up = await startTestUpstream({ host: '0.0.0.0' });
});
afterAll(() => up.close());

/** This machine's own address on a real interface (what another host would reach). */
const external = Object.values(os.networkInterfaces())
  .flat()
  .find((i) => i && !i.internal && i.family === 'IPv4')?.address;

test('the admin API refuses a request that arrives on a non-loopback interface, with the right key too', async () => {
  expect(external, 'this test needs a non-loopback IPv4 interface').toBeTruthy();
  const res = await fetch(`http://${external}:${up.port}/admin/outbox`, { headers: { 'x-admin-key': up.adminKey } });
  expect(res.status).toBe(404);
  // The public API still answers there.
  const api = await fetch(`http://${external}:${up.port}/api/basicSet/getBasicInfo`);
  expect(((await api.json()) as { code: number }).code).toBe(1);
  // A forged X-Forwarded-For does not make a remote request local.
  const forged = await fetch(`http://${external}:${up.port}/admin/outbox`, {
    headers: { 'x-admin-key': up.adminKey, 'x-forwarded-for': '127.0.0.1' },
  });
  expect(forged.status).toBe(404);
  // Loopback with the key is the back office.
  expect((await fetch(`http://127.0.0.1:${up.port}/admin/outbox`, { headers: { 'x-admin-key': up.adminKey } })).status).toBe(200);
});

test('loopback addresses', () => {
  for (const a of ['127.0.0.1', '127.5.6.7', '::1', '::ffff:127.0.0.1']) expect(isLoopback(a)).toBe(true);
  for (const a of ['192.0.2.2', '::ffff:10.0.0.1', 'fd00::2', '', undefined, '1127.0.0.1']) expect(isLoopback(a)).toBe(false);
});
