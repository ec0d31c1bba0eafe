import { Readable } from 'node:stream';
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
  test("React 18's padding of a chunk (NUL bytes after its last whole character) is dropped", async () => {
    const chunks = [
      Buffer.concat([Buffer.from('<ul aria-label="'), Buffer.alloc(2)]),
      Buffer.from('市場">'),
      Buffer.from('<li>1</li></ul>'),
    ];
    expect(await through(chunks, 'n')).toBe('<ul aria-label="市場"><li>1</li></ul>');
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
