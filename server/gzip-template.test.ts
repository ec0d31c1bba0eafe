import fc from 'fast-check';
import zlib from 'node:zlib';
import { expect, test } from 'vitest';
import { fillGzip, gzipTemplate } from './gzip-template';

const NONCE = 'pagecacheNonceSlot0';
const TOKEN = 'pagecacheTokenSlot0';
// Replaced by functions: a string replacement would read `$&` in a value as a pattern.
const fill = (page: string, nonce: string, token: string) => page.replaceAll(NONCE, () => nonce).replaceAll(TOKEN, () => token);
const lengthsOf = (nonce: string, token: string) => ({ [NONCE]: Buffer.byteLength(nonce), [TOKEN]: Buffer.byteLength(token) });

test('any page, with its slots anywhere, unzips to the page with those slots filled', () => {
  // Repeats make the stretches refer back across the slots, into the values' places.
  const piece = fc.oneof(
    fc.string({ unit: 'grapheme', maxLength: 200 }),
    fc.constantFrom(NONCE, TOKEN, '<p class="row">', 'nonce="'),
    fc.constant('<p>'.repeat(50)),
  );
  fc.assert(
    fc.property(
      fc.array(piece, { maxLength: 30 }),
      fc.string({ maxLength: 40 }),
      fc.string({ unit: 'grapheme', maxLength: 40 }),
      (pieces, nonce, token) => {
        const page = pieces.join('');
        const template = gzipTemplate(page, lengthsOf(nonce, token));
        if (page.includes('\0')) return expect(template).toBeNull();
        const zipped = fillGzip(template!, { [NONCE]: nonce, [TOKEN]: token });
        expect(zlib.gunzipSync(zipped!).toString()).toBe(fill(page, nonce, token));
      },
    ),
    // Once found: a value with `$&` in it (the test's own replacement read it as a pattern).
    { numRuns: 300, examples: [[[NONCE], '$&', '']] },
  );
});

test('the same template serves many responses, each with its own values', () => {
  const page = `<style nonce="${NONCE}">a{}</style><input value="${TOKEN}"><script nonce="${NONCE}">x</script>`;
  const template = gzipTemplate(page, { [NONCE]: 24, [TOKEN]: 8 })!;
  for (const [nonce, token] of [
    ['AAAAAAAAAAAAAAAAAAAAAA==', 'tokenone'],
    ['nonce-with-other-bytes==', 'tokentwo'],
  ] as const) {
    expect(zlib.gunzipSync(fillGzip(template, { [NONCE]: nonce, [TOKEN]: token })!).toString()).toBe(fill(page, nonce, token));
  }
});

test('a value of another length than its slot is refused, not sent corrupt', () => {
  const template = gzipTemplate(`a${NONCE}b${NONCE}c`, { [NONCE]: 4, [TOKEN]: 4 })!;
  expect(fillGzip(template, { [NONCE]: 'abcd' })).not.toBeNull();
  expect(fillGzip(template, { [NONCE]: 'abcde' })).toBeNull();
  expect(fillGzip(template, {})).toBeNull();
});

test('a value longer than one stored block (64 KiB) is split across blocks', () => {
  const long = 'x'.repeat(150_000);
  const template = gzipTemplate(`<html>${NONCE}</html>`, { [NONCE]: long.length })!;
  expect(zlib.gunzipSync(fillGzip(template, { [NONCE]: long })!).toString()).toBe(`<html>${long}</html>`);
});

test('a page like the market list (60 KB, nine nonces) compresses within 2 % of gzip of the whole page', () => {
  const css = Array.from(
    { length: 800 },
    (_, i) => `.c${i}>.d${i % 13}{margin:${i % 17}px ${i % 5}px;color:var(--c${i % 9});border:${i}px}`,
  ).join('');
  const rows = Array.from(
    { length: 120 },
    (_, i) =>
      `<li aria-label="C${i}/USD"><a href="/trade?code=C${i}USD" class="market-row"><strong>C${i}/USD</strong><span class="price">1.0${i}43${i % 7}</span></a></li>`,
  ).join('');
  const preloads = Array.from({ length: 6 }, (_, i) => `<link nonce="${NONCE}" rel="modulepreload" href="/assets/chunk-${i}.js"/>`).join(
    '',
  );
  const page =
    `<html><head><style nonce="${NONCE}">${css}</style>${preloads}</head><body><ul>${rows}</ul>` +
    `<input name="csrf" value="${TOKEN}"><script nonce="${NONCE}">window.__remixContext={}</script><script nonce="${NONCE}" type="module">x</script></body></html>`;
  const [nonce, token] = ['n0nceN0nceN0nceN0nce00==', 't0kent0kent0kent0kent0kent0kent0kent0ken'];
  const zipped = fillGzip(gzipTemplate(page, lengthsOf(nonce, token))!, { [NONCE]: nonce, [TOKEN]: token })!;
  // Longer than deflate's 32 KB window: the later stretches' dictionaries are cut to it.
  expect(page.length).toBeGreaterThan(60_000);
  expect(zlib.gunzipSync(zipped).toString()).toBe(fill(page, nonce, token));
  const whole = zlib.gzipSync(fill(page, nonce, token), { level: 9 }).length;
  expect(zipped.length).toBeLessThan(whole * 1.02);
});
