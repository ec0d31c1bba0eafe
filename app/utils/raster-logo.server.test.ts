import sharp from 'sharp';
import { expect, test } from 'vitest';
import { drawLogo, LOGO_PIXELS, rasterLogo } from './raster-logo.server';

/** The upstream's logo shape: two halves and two words of text (upstream/index.ts draws them so). */
const SVG =
  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 64 64" width="64" height="64"><rect width="64" height="32" fill="#1e3a8a"/>' +
  '<rect y="32" width="64" height="32" fill="#14532d"/><text x="32" y="27" font-family="Arial,Helvetica,sans-serif" font-weight="700" ' +
  'text-anchor="middle" font-size="17" fill="#facc15">EUR</text><text x="32" y="51" font-family="Arial,Helvetica,sans-serif" ' +
  'font-weight="700" text-anchor="middle" font-size="17" fill="#ffffff">USD</text></svg>';

/** How many pixels are within a small distance of a colour. */
function count(raw: Buffer, channels: number, [r, g, b]: [number, number, number]): number {
  let n = 0;
  for (let i = 0; i < raw.length; i += channels)
    if (Math.abs(raw[i]! - r) + Math.abs(raw[i + 1]! - g) + Math.abs(raw[i + 2]! - b) < 60) n++;
  return n;
}

test('a logo is drawn as a small 64 px PNG with its colours and its text', async () => {
  const png = await drawLogo(SVG);
  expect(png.subarray(1, 4).toString()).toBe('PNG');
  expect(png.length).toBeLessThan(1500);
  const { data, info } = await sharp(png).raw().toBuffer({ resolveWithObject: true });
  expect([info.width, info.height]).toEqual([LOGO_PIXELS, LOGO_PIXELS]);
  expect(count(data, info.channels, [0x1e, 0x3a, 0x8a]), 'the blue half').toBeGreaterThan(500);
  expect(count(data, info.channels, [0x14, 0x53, 0x2d]), 'the green half').toBeGreaterThan(500);
  // The words are there: this server has a font for them (without one, the picture would be the two halves only).
  expect(count(data, info.channels, [0xfa, 0xcc, 0x15]), 'the yellow EUR').toBeGreaterThan(40);
  expect(count(data, info.channels, [0xff, 0xff, 0xff]), 'the white USD').toBeGreaterThan(40);
});

test('each logo is drawn once per key; a failure is not kept', async () => {
  let fetched = 0;
  const svg = async () => (fetched++, SVG);
  const first = await rasterLogo('test|eurusd', svg);
  expect(await rasterLogo('test|eurusd', svg)).toBe(first);
  expect(fetched).toBe(1);

  let tries = 0;
  const flaky = async () => {
    tries++;
    if (tries === 1) throw new Error('upstream down');
    return SVG;
  };
  await expect(rasterLogo('test|gbpusd', flaky)).rejects.toThrow('upstream down');
  expect((await rasterLogo('test|gbpusd', flaky)).subarray(1, 4).toString()).toBe('PNG');
  expect(tries).toBe(2);
});

test('an oversized SVG is not drawn', async () => {
  await expect(drawLogo(SVG.replace('</svg>', `<desc>${'x'.repeat(70_000)}</desc></svg>`))).rejects.toThrow(/bytes/);
});
