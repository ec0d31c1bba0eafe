/**
 * The page's HTML on its way from React to the response.
 *
 * - **Module preloads get the CSP nonce.** Remix's `<Scripts>` writes its `<link rel="modulepreload">` tags without
 *   it, and the CSP (`script-src 'nonce-…' 'strict-dynamic'`) then drops those preloads without a word: the page's
 *   modules were fetched only once the HTML had been parsed, a round trip late on every phone (decision 0017). A
 *   tag may be cut between two chunks: the last characters of a chunk that could begin one wait for the next.
 * - **Text in, text out.** React 18 encodes a page into 2,048-byte buffers piece by piece, and when a character of
 *   several bytes (Chinese, Arabic…) does not fit at a buffer's end it writes the whole buffer, unwritten bytes
 *   included (react#24985): the Chinese home page had `aria-label="\0\0市場"`. Our patch of react-dom
 *   (patches/README.md) has it write each flush as one string instead, cheaper and with no padding; this stream
 *   keeps strings as strings (`decodeStrings: false`) so a page is encoded once, when it leaves.
 * - **What React writes in one go leaves as one chunk.** React writes a page in dozens of small pieces, all in the
 *   same turn of the event loop, and Remix flushes the compressor after every chunk it reads
 *   (`writeReadableStreamToWritable`). Each flush ends a compressed block and is its own write to the socket:
 *   `/trade` left as 27 pieces and 19.4 KB of gzip. The pieces of one turn now go out together, at the next
 *   `setImmediate`, so a later turn (the route data React streams after the shell) is still sent when it comes.
 *   (A browser that takes brotli gets the page compressed whole at its end instead: server/whole-pages.ts.)
 */
import { Transform } from 'node:stream';

const TAG = '<link rel="modulepreload"';

export function pageStream(nonce: string): Transform {
  const withNonce = `<link nonce="${nonce}" rel="modulepreload"`;
  let carry = '';
  let pending = '';
  let scheduled = false;
  const stream = new Transform({
    decodeStrings: false,
    transform(chunk: Buffer | string, _encoding, done) {
      const text = (carry + String(chunk)).replaceAll(TAG, withNonce);
      let keep = 0;
      for (let n = Math.min(TAG.length - 1, text.length); n > 0 && keep === 0; n--)
        if (TAG.startsWith(text.slice(text.length - n))) keep = n;
      carry = text.slice(text.length - keep);
      pending += text.slice(0, text.length - keep);
      if (!scheduled) {
        scheduled = true;
        setImmediate(sendPending);
      }
      done();
    },
    flush(done) {
      const rest = pending + carry;
      pending = '';
      done(null, rest);
    },
  });
  const sendPending = () => {
    scheduled = false;
    if (pending === '') return;
    stream.push(pending);
    pending = '';
  };
  return stream;
}
