/**
 * Remix's `<Scripts>` writes its `<link rel="modulepreload">` tags without the CSP nonce, and the CSP
 * (`script-src 'nonce-…' 'strict-dynamic'`) then drops those preloads without a word: the page's modules were
 * fetched only once the HTML had been parsed, behind the stylesheet, a round trip late on every phone (on a
 * throttled phone profile the pages hydrated 0.3–0.5 s later; decision 0017). This stream gives each of those
 * tags the response's nonce. A tag may be cut between two chunks: the last characters of a chunk that could
 * begin one wait for the next chunk.
 *
 * It also drops the NUL bytes React 18 pads a chunk with: React encodes the page into 2,048-byte buffers, and
 * when a character of several bytes (Chinese, Arabic…) does not fit at a buffer's end it still writes the whole
 * buffer, unwritten bytes included (react#24985, fixed in react#26228 after 18.3.1). The Chinese home page had
 * `aria-label="\0\0市場"` on its list, which a browser reads as two replacement characters.
 */
import { Transform } from 'node:stream';

const TAG = '<link rel="modulepreload"';

export function nonceOnModulePreloads(nonce: string): Transform {
  const withNonce = `<link nonce="${nonce}" rel="modulepreload"`;
  let carry = '';
  return new Transform({
    transform(chunk: Buffer | string, _encoding, done) {
      const text = (carry + withoutPadding(chunk)).replaceAll(TAG, withNonce);
      let keep = 0;
      for (let n = Math.min(TAG.length - 1, text.length); n > 0 && keep === 0; n--)
        if (TAG.startsWith(text.slice(text.length - n))) keep = n;
      carry = text.slice(text.length - keep);
      done(null, text.slice(0, text.length - keep));
    },
    flush(done) {
      done(null, carry);
    },
  });
}

/** A chunk's text without the NUL bytes at its end (no page has a NUL of its own: HTML forbids it). */
function withoutPadding(chunk: Buffer | string): string {
  if (typeof chunk === 'string') return chunk;
  let end = chunk.length;
  while (end > 0 && chunk[end - 1] === 0) end--;
  return chunk.toString('utf8', 0, end);
}
