/**
 * A page the app renders leaves in brotli made in one call, not through a compression stream.
 *
 * Remix streams a document in two or three pieces within a few milliseconds (the HTML, then the route data it
 * streams after it) and flushes the compressor after each. A brotli stream's writes, flushes and end each go to
 * the thread pool and back: for `/trade` (52 KB) that cost 2.6 ms of CPU, against 1.4 ms for the same bytes
 * compressed in one synchronous call; `/login` (27 KB) 1.9 ms against 0.6 ms (docs/decisions/0031). A page is
 * never more than a few milliseconds from its end (no route defers data), so holding its pieces until then costs
 * the browser nothing it could use.
 *
 * Only GET answers of `text/html` not already encoded (a kept visitor page goes out gzipped as made, page-cache.ts)
 * to a browser that takes brotli; anything else passes to the `compression` middleware as before. Registered after
 * it, so that these writes reach the response first; `compression` leaves an answer with a Content-Encoding alone.
 */
import type express from 'express';
import Negotiator from 'negotiator';
import zlib from 'node:zlib';

/** Brotli quality 5 with a 256 KB window: the figures of decision 0029 (a page is under 100 KB). */
export const PAGE_BROTLI: zlib.BrotliOptions = {
  params: { [zlib.constants.BROTLI_PARAM_LGWIN]: 18, [zlib.constants.BROTLI_PARAM_QUALITY]: 5 },
};

type WriteCallback = (error?: Error | null) => void;

/** A page larger than this (none is near it: `/` is 56 KB) goes on through the compression stream instead. */
const MAX_HELD_BYTES = 512 * 1024;

/** What the compression middleware would choose: the browser's ranking, brotli before gzip on a tie. */
function encodingFor(req: express.Request): string | undefined {
  // (@types/negotiator leaves out `preferred`, which negotiator 0.6.4 takes and the middleware passes.)
  const negotiator = new Negotiator(req) as unknown as { encoding(available: string[], preferred: string[]): string | undefined };
  return negotiator.encoding(['br', 'gzip', 'deflate', 'identity'], ['br', 'gzip']);
}

export function wholePages(): express.RequestHandler {
  return (req, res, next) => {
    if (req.method !== 'GET' || encodingFor(req) !== 'br') return next();
    const write = res.write.bind(res) as (...args: unknown[]) => boolean;
    const end = res.end.bind(res) as (...args: unknown[]) => express.Response;
    const flush = (res as { flush?: () => void }).flush?.bind(res);
    const pieces: Buffer[] = [];
    let size = 0;
    let whole: boolean | undefined;
    // Decided at the first write, end or flush, when the status and headers are set and not yet sent.
    const held = () =>
      (whole ??=
        !res.headersSent &&
        res.statusCode === 200 &&
        String(res.getHeader('Content-Type') ?? '').startsWith('text/html') &&
        !res.getHeader('Content-Encoding') &&
        !/\bno-transform\b/.test(String(res.getHeader('Cache-Control') ?? '')));
    /** From here on the page streams through the compression middleware, held pieces first. */
    const letGo = () => {
      whole = false;
      for (const piece of pieces.splice(0)) write(piece);
    };
    const keep = (chunk: unknown, encoding: unknown) => {
      if (chunk == null) return;
      const piece = Buffer.isBuffer(chunk)
        ? chunk
        : chunk instanceof Uint8Array
          ? Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength)
          : Buffer.from(String(chunk), typeof encoding === 'string' ? (encoding as BufferEncoding) : 'utf8');
      pieces.push(piece);
      size += piece.length;
    };
    const callbackOf = (...args: unknown[]) => args.find((a): a is WriteCallback => typeof a === 'function');

    res.write = ((...args: unknown[]) => {
      if (!held()) return write(...args);
      // A browser already gone: nothing to keep for it.
      if (!res.destroyed) keep(args[0], args[1]);
      if (size > MAX_HELD_BYTES) letGo();
      const done = callbackOf(...args);
      if (done) process.nextTick(done);
      return true;
    }) as typeof res.write;

    res.end = ((...args: unknown[]) => {
      if (!held()) return end(...args);
      whole = false; // a second end, or writes after this one, meet the response's own rules
      // A browser already gone gets nothing made for it.
      if (res.destroyed) return end(callbackOf(...args));
      // end(cb), end(chunk, cb) or end(chunk, encoding, cb)
      if (typeof args[0] !== 'function') keep(args[0], args[1]);
      const body = zlib.brotliCompressSync(Buffer.concat(pieces.splice(0)), PAGE_BROTLI);
      res.setHeader('Content-Encoding', 'br');
      res.setHeader('Content-Length', body.length);
      res.vary('Accept-Encoding');
      return end(body, callbackOf(...args));
    }) as typeof res.end;

    // Remix flushes after each piece; a held page has nothing to flush until its end.
    if (flush) (res as { flush?: () => void }).flush = () => (held() ? undefined : flush());
    next();
  };
}
