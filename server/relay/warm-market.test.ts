/**
 * Server rendering from the relay's warm quotes, with real parts: the real upstream, a real relay holding
 * its websocket, and the app's own `instrumentList` reading the relay through the load context as a page
 * does. A small proxy in front of the upstream's HTTP API only counts the `trade_list` calls the app makes.
 */
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { startTestUpstream, type TestUpstream } from '../../upstream/testing';
import { createRelay } from './hub';
import { until } from './test-support';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'warm-market-test-'));
process.env.DATA_DIR = dir;
const { upstreamApi } = await import('../../app/upstream/api.server');
const { keepCatalogueWarm, instrumentList } = await import('../../app/upstream/market.server');

let up: TestUpstream;
let proxy: http.Server;
let apiUrl = '';
let tradeListCalls = 0;
/** The upstream's HTTP API stops answering: each connection is dropped (a real outage's symptom). */
let unreachable = false;
beforeAll(async () => {
  up = await startTestUpstream();
  for (const code of ['EURUSD', 'GBPUSD']) up.forceMarket(code, 'open');
  proxy = http.createServer(async (req, res) => {
    if (unreachable) return void req.socket.destroy();
    if (req.url?.includes('/trade_list')) tradeListCalls++;
    const answer = await fetch(new URL(req.url ?? '/', up.url), { headers: { lang: String(req.headers.lang ?? 'en') } });
    res.writeHead(answer.status, { 'content-type': answer.headers.get('content-type') ?? 'application/json' });
    res.end(Buffer.from(await answer.arrayBuffer()));
  });
  await new Promise<void>((r) => proxy.listen(0, '127.0.0.1', r));
  apiUrl = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;
});
afterAll(async () => {
  proxy.close();
  await up.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

/** The market list as a page's loader gets it, with this relay (or none) in the load context. */
async function marketList(relay: ReturnType<typeof createRelay> | null, lang = 'en', baseUrl = apiUrl) {
  const request = new Request('http://localhost/', { headers: { Cookie: `lng=${btoa(JSON.stringify(lang))}` } });
  const api = await upstreamApi(request, { upstream: { baseUrl }, market: relay?.warmMarket });
  const list = await instrumentList(api);
  const byCode = (code: string) => list.instruments.find((i) => i.code === code)!;
  return { eurusd: byCode('EURUSD'), gbpusd: byCode('GBPUSD'), stale: list.stale };
}

test('with a warm relay the list takes prices and market status from the feed, with no trade_list per request', async () => {
  const relay = createRelay({ upstreamUrl: up.url, log: () => {} });
  try {
    await until(() => relay.stats().upstream === 'up' && relay.stats().quotes > 0, 5000, 'a warm relay');
    await marketList(relay); // the catalogue, once
    const before = tradeListCalls;
    up.setPrice('EURUSD', 1.23456);
    up.forceMarket('GBPUSD', 'closed');
    const warm = () => relay.warmMarket().quotes;
    await until(() => warm().get(1)?.price === 1.23456, 3000, 'the new price');
    await until(() => warm().get(2)?.marketOpen === false, 3000, 'closed');
    const { eurusd, gbpusd } = await marketList(relay);
    expect(eurusd.quote.price).toBe(1.23456);
    expect(gbpusd.quote.marketOpen).toBe(false);
    expect(tradeListCalls).toBe(before);
  } finally {
    up.forceMarket('GBPUSD', 'open');
    relay.close();
  }
});

test('a relay whose feed is down is not used: the list comes from the upstream, with the price the relay never got', async () => {
  const relay = createRelay({ upstreamUrl: up.url, log: () => {} });
  await until(() => relay.stats().upstream === 'up' && relay.stats().quotes > 0, 5000, 'a warm relay');
  await marketList(relay);
  relay.close(); // its quotes stay, but nothing vouches for them any more
  up.setPrice('EURUSD', 1.11111);
  const before = tradeListCalls;
  const { eurusd } = await marketList(relay);
  expect(eurusd.quote.price).toBe(1.11111);
  expect(tradeListCalls).toBe(before + 1);
});

test('without a relay (an upstream no stream has opened yet) every list asks the upstream', async () => {
  const before = tradeListCalls;
  up.setPrice('EURUSD', 1.2222);
  expect((await marketList(null)).eurusd.quote.price).toBe(1.2222);
  await marketList(null);
  expect(tradeListCalls).toBe(before + 2);
});

test('a process that has shown no page still has the catalogue when the upstream stops answering (its warm-up)', async () => {
  // Another address for the same proxy: a process of its own, whose lists are not yet kept.
  const fresh = apiUrl.replace('127.0.0.1', 'localhost');
  const before = tradeListCalls;
  const warming = keepCatalogueWarm({ baseUrl: fresh });
  try {
    await warming.first;
    expect(tradeListCalls).toBe(before + 1);
    unreachable = true;
    // Its first page, in a language it has never listed: the products and their rules, marked stale.
    const { eurusd, stale } = await marketList(null, 'ar', fresh);
    expect(stale).toBe(true);
    expect(eurusd).toMatchObject({ code: 'EURUSD', leverages: expect.arrayContaining([expect.any(Number)]) });
    // Without the warm-up nothing stands in: the outage is the page's to show.
    await expect(marketList(null, 'ar', apiUrl.replace('127.0.0.1', '127.0.0.2'))).rejects.toThrow(/network/);
  } finally {
    unreachable = false;
    warming.stop();
  }
});
