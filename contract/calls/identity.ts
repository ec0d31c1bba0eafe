/** Spec §7 "Identity". */
import { z } from 'zod/v4';
import { RequiredText } from '../fields';
import { defineCall } from './define';

const RealNameSchema = z.object({
  name: RequiredText.pipe(z.string().max(100)),
  card_id: RequiredText,
  /** The `url`s that image_upload returned for the front and the back. */
  front_pic: RequiredText,
  reverse_pic: RequiredText,
});
export const realName = defineCall({
  name: 'real_name',
  method: 'POST',
  path: '/api/user_real/real_name',
  auth: 'required',
  request: RealNameSchema,
  response: z.null(),
});

export const realNameCenter = defineCall({
  name: 'center',
  method: 'GET',
  path: '/api/user_real/center',
  auth: 'required',
  request: z.object({}),
  /**
   * review_status: 0 not submitted (or rejected: `reason` says why), 1 under review, otherwise verified.
   * `card_id` is masked but for its last four characters.
   */
  response: z.object({
    review_status: z.number().int(),
    name: z.string().nullable(),
    card_id: z.string().nullable(),
    reason: z.string().nullable(),
  }),
});

/** The largest image accepted in (a phone photo); the stored copy is re-encoded and smaller. */
export const IMAGE_UPLOAD_MAX_BYTES = 8 * 1024 * 1024;
/** The multipart field that carries the one file. */
export const IMAGE_UPLOAD_FIELD = 'file';
/**
 * Where an uploaded image is read back: `GET /api/common/image/<name>` with the owner's token (never a
 * public URL). The `url` that image_upload returns is this path.
 */
export const IMAGE_READ_PREFIX = '/api/common/image/';
export const imageUpload = defineCall({
  name: 'image_upload',
  method: 'POST',
  path: '/api/common/image_upload',
  body: 'multipart',
  auth: 'required',
  request: z.object({}),
  response: z.object({ url: z.string().startsWith(IMAGE_READ_PREFIX) }),
});
