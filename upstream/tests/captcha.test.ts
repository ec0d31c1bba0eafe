/** Issue 9 #7: the picture captcha spells its answer in no machine-readable way. */
import { expect, test } from 'vitest';
import sharp from 'sharp';
import { CaptchaStore, draw } from '../accounts/captcha';

test('the SVG has no text, no font and no answer string: the characters are distorted strokes among noise', () => {
  const store = new CaptchaStore(() => 0);
  for (let i = 0; i < 50; i += 1) {
    const { b64s, answer } = store.create();
    const svg = Buffer.from(b64s.replace('data:image/svg+xml;base64,', ''), 'base64').toString('utf8');
    expect(svg).not.toMatch(/<text|<tspan|font|<title|<desc|aria-label/i);
    expect(svg).not.toContain(answer);
    expect(svg.match(/<path/g)!.length).toBeGreaterThanOrEqual(5 + answer.length);
  }
});

test('the same answer is drawn differently every time', () => {
  expect(draw('AB2C9')).not.toBe(draw('AB2C9'));
});

test('every character of the alphabet draws, and the picture renders', async () => {
  const svg = draw('ABCDEFGHJKLMNPQRSTUVWXYZ23456789'.slice(0, 5));
  for (const chunk of ['FGHJK', 'LMNPQ', 'RSTUV', 'WXYZ2', '34567', '89ABC']) expect(() => draw(chunk)).not.toThrow();
  const png = await sharp(Buffer.from(svg)).png().toBuffer();
  expect((await sharp(png).metadata()).width).toBe(150);
});
