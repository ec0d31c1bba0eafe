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
import zlib from 'node:zlib';

/** Brotli quality 5 with a 256 KB window: the figures of decision 0029 (a page is under 100 KB). */
export const PAGE_BROTLI: zlib.BrotliOptions = {
  params: { [zlib.constants.BROTLI_PARAM_LGWIN]: 18, [zlib.constants.BROTLI_PARAM_QUALITY]: 5 },
};

type WriteCallback = (error?: Error | null) => void;

export function wholePages(): express.RequestHandler {
  return (req, res, next) => {
    if (req.method !== 'GET' || !req.acceptsEncodings('br')) return next();
    const write = res.write.bind(res) as (...args: unknown[]) => boolean;
    const end = res.end.bind(res) as (...args: unknown[]) => express.Response;
    const flush = (res as { flush?: () => void }).flush?.bind(res);
    const pieces: Buffer[] = [];
    let whole: boolean | undefined;
    // Decided at the first write, when the status and headers are set.
    const held = () =>
      (whole ??=
        res.statusCode === 200 &&
        String(res.getHeader('Content-Type') ?? '').startsWith('text/html') &&
        !res.getHeader('Content-Encoding'));
    const keep = (chunk: unknown, encoding: unknown) => {
      if (chunk == null) return;
      pieces.push(
        Buffer.isBuffer(chunk)
          ? chunk
          : chunk instanceof Uint8Array
            ? Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength)
            : Buffer.from(String(chunk), typeof encoding === 'string' ? (encoding as BufferEncoding) : 'utf8'),
      );
    };
    const callbackOf = (...args: unknown[]) => args.find((a): a is WriteCallback => typeof a === 'function');

    res.write = ((...args: unknown[]) => {
      if (!held()) return write(...args);
      keep(args[0], args[1]);
      const done = callbackOf(...args);
      if (done) process.nextTick(done);
      return true;
    }) as typeof res.write;

    res.end = ((...args: unknown[]) => {
      if (!held()) return end(...args);
      // end(cb), end(chunk, cb) or end(chunk, encoding, cb)
      if (typeof args[0] !== 'function') keep(args[0], args[1]);
      const body = zlib.brotliCompressSync(Buffer.concat(pieces), PAGE_BROTLI);
      pieces.length = 0;
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
