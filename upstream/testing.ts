/**
 * Test support: a real upstream on a random loopback port with a temporary database, and raw calls
 * that return the envelope as the upstream sent it. Used by contract, engine, websocket tests and bench.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { z } from 'zod/v4';
import type { CallDef } from '../contract/calls/define';
import { CLIENT_ORIGIN_HEADER } from '../contract/calls/passkeys';
import { USER_AGENT_HEADER } from '../contract/calls/security';
import { start, type RunningUpstream, type StartOptions } from './index';

export interface TestUpstream extends RunningUpstream {
  dataDir: string;
  /** Calls the upstream as the web does; returns the whole envelope. */
  call<C extends CallDef>(
    call: C,
    input?: z.input<C['request']> | Record<string, unknown>,
    options?: { token?: string; lang?: string; ip?: string; userAgent?: string; origin?: string },
  ): Promise<Envelope>;
  /** A fresh demo account: its token and user id. */
  demo(): Promise<{ token: string; userId: number }>;
  /** The admin API (see upstream/http/admin.ts). */
  admin(method: 'GET' | 'POST', urlPath: string, body?: Record<string, unknown>): Promise<{ status: number; json: unknown }>;
  /** Sets an instrument's price now, as one tick (the test-only price injection). */
  setPrice(code: string, price: number): void;
  /** Forces one market open or closed ('auto' returns it to its hours). */
  forceMarket(code: string, status: 'open' | 'closed' | 'auto'): void;
  /** Moves the upstream's clock forward (on top of any clock the test gave). */
  advance(ms: number): void;
}

export interface Envelope {
  code: number;
  msg: string;
  data: unknown;
  [extra: string]: unknown;
}

export async function startTestUpstream(options: StartOptions = {}): Promise<TestUpstream> {
  const dataDir = options.dataDir ?? fs.mkdtempSync(path.join(os.tmpdir(), 'upstream-test-'));
  let offsetMs = 0;
  const given = options.clock ?? Date.now;
  const running = await start({
    simulate: false,
    backfill: false,
    allowPriceInjection: true,
    validateResponses: true,
    log: () => {},
    ...options,
    clock: () => given() + offsetMs,
    dataDir,
    port: 0,
  });
  const base = running.url;
  const t: TestUpstream = {
    ...running,
    dataDir,
    async call(call, input = {}, opts = {}) {
      const url = new URL(call.path, base);
      const headers: Record<string, string> = { lang: opts.lang ?? 'en' };
      if (opts.token) headers.authorization = opts.token;
      // The address of the person, as the web server names it (the upstream trusts it from loopback).
      if (opts.ip) headers['x-forwarded-for'] = opts.ip;
      // The browser's user agent, as the web server passes it (a signed-in device).
      if (opts.userAgent) headers[USER_AGENT_HEADER] = opts.userAgent;
      // The page's origin, as the web server passes it (a passkey's relying party).
      if (opts.origin) headers[CLIENT_ORIGIN_HEADER] = opts.origin;
      let body: string | undefined;
      const params = Object.entries(input as Record<string, unknown>).filter(([, v]) => v !== undefined && v !== null);
      if (call.method === 'GET') {
        for (const [k, v] of params) url.searchParams.set(k, String(v));
        url.searchParams.set('t', String(Date.now()));
      } else {
        headers['content-type'] = 'application/x-www-form-urlencoded';
        body = new URLSearchParams(params.map(([k, v]) => [k, String(v)])).toString();
      }
      const res = await fetch(url, { method: call.method, headers, body });
      if (res.status !== 200) throw new Error(`${call.name}: HTTP ${res.status}`);
      return (await res.json()) as Envelope;
    },
    async demo() {
      const { account } = await import('../contract/index');
      // Each test account is a different person (a different address), as the demo limit counts addresses.
      const ip = `198.18.${crypto.randomInt(0, 256)}.${crypto.randomInt(1, 255)}`;
      const env = await t.call(account.createAccountDemoForU, { demo_id: crypto.randomUUID() }, { ip });
      if (env.code !== 1) throw new Error(`demo: ${env.msg}`);
      const data = env.data as { token: string; user: { id: number } };
      return { token: data.token, userId: data.user.id };
    },
    async admin(method, urlPath, body) {
      const res = await fetch(new URL(urlPath, base), {
        method,
        headers: { 'x-admin-key': running.adminKey, ...(body ? { 'content-type': 'application/json' } : {}) },
        body: body ? JSON.stringify(body) : undefined,
      });
      return { status: res.status, json: await res.json().catch(() => null) };
    },
    setPrice(code, price) {
      const inst = running.upstream.market.getByCode(code);
      if (!inst) throw new Error(`no instrument ${code}`);
      running.upstream.market.applyTick(inst.id, Math.round(price * 10 ** inst.precision));
    },
    forceMarket(code, status) {
      const inst = running.upstream.market.getByCode(code);
      if (!inst) throw new Error(`no instrument ${code}`);
      running.upstream.market.forceStatus(inst.id, status === 'open' ? 1 : status === 'closed' ? 0 : null);
    },
    advance(ms) {
      offsetMs += ms;
    },
    async close() {
      await running.close();
      if (!options.dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
  return t;
}
