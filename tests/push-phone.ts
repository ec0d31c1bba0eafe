/**
 * A phone's side of Web Push, for tests that play the push service (Chromium cannot reach a real one
 * here): its P-256 key pair and auth secret, the subscription a browser would hand over, and RFC 8291
 * decryption of what arrives, with node's crypto only (not the library the upstream sends with).
 */
import crypto from 'node:crypto';

export interface Phone {
  ecdh: crypto.ECDH;
  auth: Buffer;
  subscription: { endpoint: string; p256dh: string; auth: string };
}

/** A phone whose push service is `serviceUrl`, reached at `/push/<name>`. */
export function phone(serviceUrl: string, name: string): Phone {
  const ecdh = crypto.createECDH('prime256v1');
  ecdh.generateKeys();
  const auth = crypto.randomBytes(16);
  return {
    ecdh,
    auth,
    subscription: {
      endpoint: `${serviceUrl}/push/${name}`,
      p256dh: ecdh.getPublicKey().toString('base64url'),
      auth: auth.toString('base64url'),
    },
  };
}

/** RFC 8291 decryption of an aes128gcm body, as the phone's browser does it. */
export function decryptPush(body: Buffer, p: Phone): string {
  const salt = body.subarray(0, 16);
  const idLength = body[20]!;
  const serverKey = body.subarray(21, 21 + idLength);
  const ciphertext = body.subarray(21 + idLength);
  const secret = p.ecdh.computeSecret(serverKey);
  const keyInfo = Buffer.concat([Buffer.from('WebPush: info\0'), p.ecdh.getPublicKey(), serverKey]);
  const ikm = Buffer.from(crypto.hkdfSync('sha256', secret, p.auth, keyInfo, 32));
  const cek = Buffer.from(crypto.hkdfSync('sha256', ikm, salt, Buffer.from('Content-Encoding: aes128gcm\0'), 16));
  const nonce = Buffer.from(crypto.hkdfSync('sha256', ikm, salt, Buffer.from('Content-Encoding: nonce\0'), 12));
  const gcm = crypto.createDecipheriv('aes-128-gcm', cek, nonce);
  gcm.setAuthTag(ciphertext.subarray(ciphertext.length - 16));
  const padded = Buffer.concat([gcm.update(ciphertext.subarray(0, ciphertext.length - 16)), gcm.final()]);
  // The last record ends with the delimiter 2, then zero padding.
  return padded.subarray(0, padded.lastIndexOf(2)).toString('utf8');
}
