/**
 * Image uploads (proofs of payment, identity documents): checked by content, decoded, re-encoded so that
 * metadata (a phone photo's GPS position) is gone and the stored size is bounded, and kept under a random
 * name that only the owner (and the back office) can read back.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import sharp, { type OutputInfo } from 'sharp';
import { IMAGE_READ_PREFIX, IMAGE_UPLOAD_MAX_BYTES } from '../../contract/calls/identity';
import type { Db } from '../db/database';
import { BusinessError, fail } from '../shared/errors';

/** The longest side kept: a receipt or an ID card stays readable, a 50-megapixel photo does not stay 12 MB. */
export const STORED_MAX_SIDE = 2048;
/** Refuse decompression bombs before decoding them. */
const MAX_INPUT_PIXELS = 60_000_000;
const NAME = /^[0-9a-f]{32}\.jpg$/;

type ImageKind = 'jpeg' | 'png' | 'webp';

/** The format the first bytes announce, whatever the file is called. */
export function sniffImage(bytes: Uint8Array): ImageKind | null {
  const at = (i: number, ...b: number[]) => b.every((v, k) => bytes[i + k] === v);
  if (bytes.length >= 3 && at(0, 0xff, 0xd8, 0xff)) return 'jpeg';
  if (bytes.length >= 8 && at(0, 0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a)) return 'png';
  if (bytes.length >= 12 && at(0, 0x52, 0x49, 0x46, 0x46) && at(8, 0x57, 0x45, 0x42, 0x50)) return 'webp';
  return null;
}

export class Uploads {
  private readonly insert;
  private readonly ownerOf;

  constructor(
    private readonly db: Db,
    private readonly dir: string,
    private readonly clock: () => number,
  ) {
    fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
    this.insert = db.prepare('INSERT INTO uploads (name, user_id, bytes, width, height, created_at) VALUES (?, ?, ?, ?, ?, ?)');
    this.ownerOf = db.prepare('SELECT user_id FROM uploads WHERE name = ?');
  }

  /** Stores one image of `userId`; answers the url it is read back by. */
  async store(userId: number, bytes: Buffer): Promise<{ url: string }> {
    if (bytes.length === 0) fail('UploadRequired');
    if (bytes.length > IMAGE_UPLOAD_MAX_BYTES) fail('UploadTooLarge');
    const kind = sniffImage(bytes);
    if (!kind) fail('UploadType');
    let out: { data: Buffer; info: OutputInfo };
    try {
      const image = sharp(bytes, { failOn: 'error', limitInputPixels: MAX_INPUT_PIXELS });
      const meta = await image.metadata();
      if (meta.format !== kind) fail('UploadType', `announced ${kind}, decoded ${meta.format}`);
      // rotate() applies the EXIF orientation; the output carries no metadata at all.
      out = await image
        .rotate()
        .resize({ width: STORED_MAX_SIDE, height: STORED_MAX_SIDE, fit: 'inside', withoutEnlargement: true })
        .flatten({ background: '#ffffff' })
        .jpeg({ quality: 82, mozjpeg: true })
        .toBuffer({ resolveWithObject: true });
    } catch (err) {
      if (err instanceof BusinessError) throw err;
      fail('UploadType', 'cannot be decoded');
    }
    const name = `${crypto.randomBytes(16).toString('hex')}.jpg`;
    const file = path.join(this.dir, name);
    fs.writeFileSync(`${file}.part`, out.data, { mode: 0o600 });
    fs.renameSync(`${file}.part`, file);
    this.insert.run(name, userId, out.data.length, out.info.width, out.info.height, this.clock());
    return { url: IMAGE_READ_PREFIX + name };
  }

  /** The upload's name from its url, if it is one of `userId`'s uploads. */
  ownedName(userId: number, url: string): string | null {
    const name = url.startsWith(IMAGE_READ_PREFIX) ? url.slice(IMAGE_READ_PREFIX.length) : url;
    if (!NAME.test(name)) return null;
    const row = this.ownerOf.get(name) as { user_id: number } | undefined;
    return row && row.user_id === userId ? name : null;
  }

  /** The bytes of an upload for its owner, or for the back office (`userId` null); null for anyone else. */
  read(name: string, userId: number | null): Buffer | null {
    if (!NAME.test(name)) return null;
    const row = this.ownerOf.get(name) as { user_id: number } | undefined;
    if (!row || (userId !== null && row.user_id !== userId)) return null;
    try {
      return fs.readFileSync(path.join(this.dir, name));
    } catch {
      return null;
    }
  }
}
