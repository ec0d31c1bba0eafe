/**
 * A page compressed once around its slots: each response fills the slots (a CSP nonce, a CSRF token) with its own
 * values and is sent gzipped without running the compressor. Compressing the visitor page cache's copy of `/`
 * (59 KB of HTML) cost each response about 1 ms of CPU: more than the rest of a cache hit, and half the rate
 * a 2-core machine could serve it at (issue 10).
 *
 * How: each stretch of the page between two slots is deflated once, ending on a sync flush, so it stops on a byte
 * boundary with no final block. A response's gzip stream is then the header, the stretches with the slots' values
 * between them as stored (uncompressed) blocks, an empty final block, and the CRC-32 and length of the whole page
 * (RFC 1951 §3.2.4, RFC 1952). A stretch may still refer back to the page before it (deflated with it as a preset
 * dictionary), so the copy is within about 1 % of the page compressed whole: each value has a fixed length (a
 * nonce's, a token's), and stands in that dictionary as NUL bytes, which no stretch of HTML matches. A value of
 * another length cannot be filled in (`fillGzip` gives null).
 */
import zlib from 'node:zlib';

export interface GzipTemplate {
  /** The page's stretches between slots, as text (for the CRC) and deflated. */
  stretches: { text: Buffer; deflated: Buffer }[];
  /** The slot after each stretch but the last. */
  slots: string[];
  /** Each slot's value, in bytes. */
  lengths: Readonly<Record<string, number>>;
}

/** Gzip's header: deflate, no flags, no time, no extra flags, unknown OS. */
const HEADER = Buffer.from([0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 0xff]);
/** An empty final block (fixed Huffman codes, end of block at once): what zlib itself ends a stream with. */
const FINAL_BLOCK = Buffer.from([0x03, 0x00]);
/** The most bytes a stored block holds. */
const STORED_MAX = 0xffff;
/** A stretch shorter than this is also tried in fixed codes. */
const SHORT = 2048;
/** How far back deflate refers. */
const WINDOW = 32 * 1024;

/** The page's template, for slot values of these byte lengths; null for a page with a NUL byte in it. */
export function gzipTemplate(page: string, lengths: Readonly<Record<string, number>>): GzipTemplate | null {
  if (page.includes('\0')) return null;
  const texts: Buffer[] = [];
  const slots: string[] = [];
  const pattern = new RegExp(Object.keys(lengths).map(escapeRegExp).join('|'), 'g');
  let from = 0;
  for (const match of page.matchAll(pattern)) {
    texts.push(Buffer.from(page.slice(from, match.index)));
    slots.push(match[0]);
    from = match.index + match[0].length;
  }
  texts.push(Buffer.from(page.slice(from)));
  /** What precedes the stretch in a response: the page so far, its values as NULs. */
  let before = Buffer.alloc(0);
  const stretches = texts.map((text, i) => {
    const deflate = (strategy: number) =>
      zlib.deflateRawSync(text, {
        level: 9,
        strategy,
        finishFlush: zlib.constants.Z_SYNC_FLUSH,
        ...(before.length ? { dictionary: before } : {}),
      });
    // An empty stretch adds nothing: the stream is already on a byte boundary. A short one may be smaller in
    // deflate's fixed codes than with a table of its own (about 80 bytes).
    let deflated = Buffer.alloc(0);
    if (text.length) deflated = deflate(zlib.constants.Z_DEFAULT_STRATEGY);
    if (text.length && text.length < SHORT) {
      const fixed = deflate(zlib.constants.Z_FIXED);
      if (fixed.length < deflated.length) deflated = fixed;
    }
    const slot = slots[i];
    before = Buffer.concat([before, text, Buffer.alloc(slot ? lengths[slot]! : 0)]).subarray(-WINDOW);
    return { text, deflated };
  });
  return { stretches, slots, lengths };
}

/** The page with each slot replaced by its value, as one gzip stream; null when a value's length is not its slot's. */
export function fillGzip(template: GzipTemplate, values: Readonly<Record<string, string>>): Buffer | null {
  const bytes = Object.fromEntries(Object.entries(values).map(([slot, value]) => [slot, Buffer.from(value)]));
  if (template.slots.some((slot) => bytes[slot]?.length !== template.lengths[slot])) return null;
  const chunks: Buffer[] = [HEADER];
  let crc = 0;
  let size = 0;
  // zlib.crc32 is Node 20.15's (package.json's engines). It gives 0 for an empty buffer with nothing behind it,
  // not the value it was given: skipped.
  const add = (data: Buffer) => {
    if (!data.length) return;
    crc = zlib.crc32(data, crc);
    size += data.length;
  };
  template.stretches.forEach(({ text, deflated }, i) => {
    chunks.push(deflated);
    add(text);
    const slot = template.slots[i];
    if (slot === undefined) return;
    const value = bytes[slot]!;
    for (let at = 0; at < value.length; at += STORED_MAX) chunks.push(storedBlock(value.subarray(at, at + STORED_MAX)));
    add(value);
  });
  const trailer = Buffer.alloc(8);
  trailer.writeUInt32LE(crc >>> 0, 0);
  trailer.writeUInt32LE(size >>> 0, 4);
  chunks.push(FINAL_BLOCK, trailer);
  return Buffer.concat(chunks);
}

/** A stored block, not the last: its 3 header bits are zero and padded to the byte (we are on a byte boundary). */
function storedBlock(bytes: Buffer): Buffer {
  const block = Buffer.alloc(5 + bytes.length);
  block.writeUInt16LE(bytes.length, 1);
  block.writeUInt16LE(~bytes.length & 0xffff, 3);
  bytes.copy(block, 5);
  return block;
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
