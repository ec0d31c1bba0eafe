import { createRequire } from 'node:module';
import path from 'node:path';
import { Readable, Transform } from 'node:stream';
import { createElement } from 'react';
import type * as ReactDomServer from 'react-dom/server';
import { describe, expect, test } from 'vitest';
import { pageStream } from './page-stream.server';

async function through(chunks: (string | Buffer)[], nonce = 'abc+/=') {
  let out = '';
  for await (const piece of Readable.from(chunks).pipe(pageStream(nonce))) out += String(piece);
  return out;
}

// As Remix 2 writes them (abridged).
const page =
  '<body><p>x</p><link rel="modulepreload" href="/a.js"/><link rel="modulepreload" href="/b.js"/>' +
  '<script nonce="abc+/=" type="module" async="">import * as route0 from "/a.js";</script></body>';
const expected = page.replaceAll('<link rel="modulepreload"', '<link nonce="abc+/=" rel="modulepreload"');

describe('the nonce on modulepreload tags', () => {
  test('every tag gets it, nothing else changes', async () => {
    expect(await through([page])).toBe(expected);
  });
  test('a tag cut anywhere between two chunks, or into a chunk per character, still gets it', async () => {
    for (let at = 1; at < page.length; at++) expect(await through([page.slice(0, at), page.slice(at)])).toBe(expected);
    expect(await through([...page])).toBe(expected);
  });
  test("a chunk ending in what only looks like a tag's start is written in full", async () => {
    expect(await through(['<p>a</p><li', 'nk rel="stylesheet"/>'])).toBe('<p>a</p><link rel="stylesheet"/>');
    expect(await through(['<p>a</p><link rel="mod'])).toBe('<p>a</p><link rel="mod');
  });
});

describe('the pieces of one turn', () => {
  test('go out as one chunk, and a later turn as another', async () => {
    const stream = pageStream('n');
    const received: string[] = [];
    stream.on('data', (piece) => received.push(String(piece)));
    const ended = new Promise((resolve) => stream.on('end', resolve));
    for (const piece of ['<html>', '<body>', '<p>a</p>']) stream.write(piece);
    await new Promise((resolve) => setImmediate(resolve));
    stream.write('<script>data</script>');
    stream.end('</body></html>');
    await ended;
    expect(received).toEqual(['<html><body><p>a</p>', '<script>data</script></body></html>']);
  });
});

/** The server renderer of each React build: development under vitest, and the production build the server runs. */
const renderers = {
  development: () => import('react-dom/server'),
  // (not among the package's exports: loaded from its file)
  production: async () => {
    const require = createRequire(import.meta.url);
    const file = path.join(path.dirname(require.resolve('react-dom/package.json')), 'cjs/react-dom-server.node.production.min.js');
    return require(file) as typeof ReactDomServer;
  },
};

describe.each(Object.entries(renderers))('React (%s build, patched) writes text', (_build, load) => {
  // Long enough to cross several of React 18's 2,048-byte views, with characters of 3 bytes to cut at their ends.
  const label = '市場'.repeat(900);
  const element = createElement('ul', { 'aria-label': label }, createElement('li', null, '1'));

  test('one string per flush, with every character whole', async () => {
    const { renderToPipeableStream } = await load();
    const writes: unknown[] = [];
    const out = pageStream('n');
    const text = new Promise<string>((resolve) => {
      let html = '';
      out.on('data', (piece) => (html += String(piece)));
      out.on('end', () => resolve(html));
    });
    await new Promise<void>((resolve, reject) => {
      const { pipe } = renderToPipeableStream(element, {
        onAllReady() {
          const tap = new Transform({
            decodeStrings: false,
            transform(chunk, _encoding, done) {
              writes.push(chunk);
              done(null, chunk);
            },
          });
          pipe(tap).pipe(out);
          resolve();
        },
        onShellError: reject,
      });
    });
    expect(await text).toBe(`<ul aria-label="${label}"><li>1</li></ul>`);
    expect(writes).toEqual([expect.any(String)]);
  });
});
