/**
 * Whole pages behind the same `compression` middleware as the web process (production.test.ts checks a real page
 * of the built app): a stand-in writes a page the way Remix's adapter does, in pieces with a flush after each.
 */
import compression from 'compression';
import express from 'express';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { PAGE_BROTLI, wholePages } from './whole-pages';

const PAGE = `<!DOCTYPE html><html><body>${'<p>市場 EURUSD 1.08345</p>'.repeat(400)}</body></html>`;
const PIECES = [PAGE.slice(0, 5000), PAGE.slice(5000, 9000), PAGE.slice(9000)];
/** About 1 MB: past the bound a page is held to. */
const BIG = PAGE.repeat(60);

let base = '';
let server: http.Server;
beforeAll(async () => {
  const app = express();
  app.use(compression({ brotli: PAGE_BROTLI }));
  app.use(wholePages());
  // As @remix-run/express writes a streamed document: headers, then each piece and a flush.
  const streamed = (status: number) => async (_req: express.Request, res: express.Response) => {
    res.status(status).setHeader('Content-Type', 'text/html; charset=utf-8');
    for (const piece of PIECES) {
      res.write(Buffer.from(piece));
      (res as { flush?: () => void }).flush?.();
      await new Promise((r) => setImmediate(r));
    }
    res.end();
  };
  app.get('/page', streamed(200));
  app.get('/missing', streamed(404));
  app.get('/data', (_req, res) => res.json({ rows: PIECES }));
  app.get('/no-transform', (_req, res) => {
    res.setHeader('Cache-Control', 'no-transform');
    res.type('html').send(PAGE);
  });
  app.get('/head-first', (_req, res) => {
    res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' });
    res.end(PAGE);
  });
  app.get('/big', (_req, res) => {
    res.setHeader('Content-Type', 'text/html; charset=utf-8');
    for (let i = 0; i < BIG.length; i += 64 * 1024) res.write(BIG.slice(i, i + 64 * 1024));
    res.end();
  });
  server = app.listen(0);
  await new Promise((r) => server.once('listening', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise((r) => server.close(r)));

function get(path: string, acceptEncoding: string) {
  return new Promise<{ res: http.IncomingMessage; pieces: Buffer[] }>((resolve, reject) => {
    http
      .get(`${base}${path}`, { headers: { 'accept-encoding': acceptEncoding }, agent: false }, (res) => {
        const pieces: Buffer[] = [];
        res.on('data', (d: Buffer) => pieces.push(d));
        res.on('end', () => resolve({ res, pieces }));
      })
      .on('error', reject);
  });
}

describe('a rendered page', () => {
  test('goes to a browser that takes brotli as one brotli body with its length', async () => {
    const { res, pieces } = await get('/page', 'gzip, deflate, br, zstd');
    expect(res.headers['content-encoding']).toBe('br');
    expect(res.headers.vary).toMatch(/accept-encoding/i);
    const body = Buffer.concat(pieces);
    expect(Number(res.headers['content-length'])).toBe(body.length);
    expect(zlib.brotliDecompressSync(body).toString('utf8')).toBe(PAGE);
  });

  test('is streamed as before where brotli is not taken, or when it is not a 200 page', async () => {
    const gzip = await get('/page', 'gzip');
    expect(gzip.res.headers['content-encoding']).toBe('gzip');
    expect(gzip.res.headers['content-length']).toBeUndefined();
    expect(zlib.gunzipSync(Buffer.concat(gzip.pieces)).toString('utf8')).toBe(PAGE);

    const missing = await get('/missing', 'br');
    expect(missing.res.statusCode).toBe(404);
    expect(missing.res.headers['content-length']).toBeUndefined();
    expect(zlib.brotliDecompressSync(Buffer.concat(missing.pieces)).toString('utf8')).toBe(PAGE);
  });

  test('leaves other answers to the compression middleware', async () => {
    const { res, pieces } = await get('/data', 'br');
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    expect(res.headers['content-encoding']).toBe('br');
    expect(JSON.parse(zlib.brotliDecompressSync(Buffer.concat(pieces)).toString('utf8'))).toEqual({ rows: PIECES });
  });
});

describe('what is not held', () => {
  test('a page marked no-transform, one whose head went first, a browser that prefers gzip, and a page past the size bound stream as before', async () => {
    const body = async (path: string, acceptEncoding: string) => {
      const { res, pieces } = await get(path, acceptEncoding);
      return { res, body: Buffer.concat(pieces) };
    };
    const noTransform = await body('/no-transform', 'br');
    expect(noTransform.res.headers['content-encoding']).toBeUndefined();
    expect(noTransform.body.toString('utf8')).toBe(PAGE);

    const headFirst = await body('/head-first', 'br');
    expect(headFirst.res.headers['content-length']).toBeUndefined();
    expect(zlib.brotliDecompressSync(headFirst.body).toString('utf8')).toBe(PAGE);

    const prefersGzip = await body('/page', 'gzip;q=1, br;q=0.5');
    expect(prefersGzip.res.headers['content-encoding']).toBe('gzip');
    expect(zlib.gunzipSync(prefersGzip.body).toString('utf8')).toBe(PAGE);

    const large = await body('/big', 'br');
    expect(large.res.headers['content-encoding']).toBe('br');
    expect(large.res.headers['content-length']).toBeUndefined();
    expect(zlib.brotliDecompressSync(large.body).toString('utf8')).toBe(BIG);
  });
});
