/**
 * The upstream's instrument logos (SVG with text) drawn once per process as small PNGs (see instrument-logo.ts).
 * 64 px covers the largest place a logo shows (32 CSS px) on a 2× screen; a 16-colour palette keeps each near
 * 800 bytes (the SVG is about 400 gzipped). The text is drawn with the server's fonts: the Docker image installs one.
 */
import sharp from 'sharp';

export const LOGO_PIXELS = 64;
/** Far more than the upstream's instruments: a bound, not a working size. */
const KEEP = 500;
/** An instrument logo is a few hundred bytes; a large one is not drawn. */
const MAX_SVG_BYTES = 64 * 1024;

const drawn = new Map<string, Promise<Buffer>>();

/** The PNG of a logo's SVG, drawn at most once per process and key (a failure is not kept: the next request tries again). */
export function rasterLogo(key: string, svg: () => Promise<string>): Promise<Buffer> {
  let png = drawn.get(key);
  if (!png) {
    png = svg().then(drawLogo);
    if (drawn.size >= KEEP) drawn.delete(drawn.keys().next().value!);
    drawn.set(key, png);
    png.catch(() => drawn.delete(key));
  }
  return png;
}

export async function drawLogo(svg: string): Promise<Buffer> {
  const input = Buffer.from(svg);
  if (input.length > MAX_SVG_BYTES) throw new Error(`logo of ${input.length} bytes`);
  // The SVGs are 64 units square: drawn at 72 dpi × 2 = the PNG's size, then fitted in case one is not.
  return sharp(input, { density: 144, limitInputPixels: 4096 * 4096 })
    .resize(LOGO_PIXELS, LOGO_PIXELS, { fit: 'contain', background: { r: 0, g: 0, b: 0, alpha: 0 } })
    .png({ palette: true, colors: 16, compressionLevel: 9, effort: 10 })
    .toBuffer();
}
