/**
 * A software passkey for the upstream's contract tests: a P-256 key pair answering WebAuthn's registration
 * (attestation "none") and authentication ceremonies as a phone's platform authenticator would, with user presence
 * and verification. The browser tests use Chromium's own virtual authenticator instead (CDP WebAuthn).
 */
import crypto from 'node:crypto';

const b64u = (bytes: Buffer) => bytes.toString('base64url');
const sha256 = (data: Buffer | string) => crypto.createHash('sha256').update(data).digest();

/** CBOR (RFC 8949) of what a COSE key and an attestation object hold: integers, byte and text strings, maps. */
type Cbor = number | string | Buffer | Map<number | string, Cbor>;
function cbor(value: Cbor): Buffer {
  const head = (major: number, n: number) =>
    n < 24
      ? Buffer.from([(major << 5) | n])
      : n < 256
        ? Buffer.from([(major << 5) | 24, n])
        : Buffer.from([(major << 5) | 25, n >> 8, n & 0xff]);
  if (typeof value === 'number') return value >= 0 ? head(0, value) : head(1, -1 - value);
  if (typeof value === 'string') return Buffer.concat([head(3, Buffer.byteLength(value)), Buffer.from(value)]);
  if (Buffer.isBuffer(value)) return Buffer.concat([head(2, value.length), value]);
  const parts: Buffer[] = [head(5, value.size)];
  for (const [k, v] of value) parts.push(cbor(k), cbor(v));
  return Buffer.concat(parts);
}

export class SoftwarePasskey {
  readonly id = crypto.randomBytes(16);
  private readonly keys = crypto.generateKeyPairSync('ec', { namedCurve: 'P-256' });
  private counter = 0;

  constructor(readonly origin: string) {}

  get credentialId(): string {
    return b64u(this.id);
  }

  private authenticatorData(withKey: boolean): Buffer {
    const rpIdHash = sha256(new URL(this.origin).hostname);
    // User present (0x01), user verified (0x04), attested credential data (0x40).
    const flags = Buffer.from([0x01 | 0x04 | (withKey ? 0x40 : 0)]);
    const count = Buffer.alloc(4);
    count.writeUInt32BE(this.counter);
    if (!withKey) return Buffer.concat([rpIdHash, flags, count]);
    const jwk = this.keys.publicKey.export({ format: 'jwk' });
    const coseKey = cbor(
      new Map<number, Cbor>([
        [1, 2],
        [3, -7],
        [-1, 1],
        [-2, Buffer.from(jwk.x!, 'base64url')],
        [-3, Buffer.from(jwk.y!, 'base64url')],
      ]),
    );
    const idLength = Buffer.alloc(2);
    idLength.writeUInt16BE(this.id.length);
    return Buffer.concat([rpIdHash, flags, count, Buffer.alloc(16), idLength, this.id, coseKey]);
  }

  private clientData(type: 'webauthn.create' | 'webauthn.get', options: Record<string, unknown>, origin: string): Buffer {
    return Buffer.from(JSON.stringify({ type, challenge: options.challenge, origin, crossOrigin: false }));
  }

  /** The browser's answer to registration options, as JSON text (what the web app posts on). */
  register(options: Record<string, unknown>, origin = this.origin): string {
    const attestation = cbor(
      new Map<string, Cbor>([
        ['fmt', 'none'],
        ['attStmt', new Map()],
        ['authData', this.authenticatorData(true)],
      ]),
    );
    return JSON.stringify({
      id: this.credentialId,
      rawId: this.credentialId,
      type: 'public-key',
      response: {
        clientDataJSON: b64u(this.clientData('webauthn.create', options, origin)),
        attestationObject: b64u(attestation),
        transports: ['internal'],
      },
      clientExtensionResults: {},
      authenticatorAttachment: 'platform',
    });
  }

  /** The browser's answer to authentication options, as JSON text; each use counts up, as an authenticator's does. */
  assert(options: Record<string, unknown>, origin = this.origin): string {
    this.counter += 1;
    const data = this.authenticatorData(false);
    const client = this.clientData('webauthn.get', options, origin);
    const signature = crypto.sign('sha256', Buffer.concat([data, sha256(client)]), this.keys.privateKey);
    return JSON.stringify({
      id: this.credentialId,
      rawId: this.credentialId,
      type: 'public-key',
      response: { clientDataJSON: b64u(client), authenticatorData: b64u(data), signature: b64u(signature) },
      clientExtensionResults: {},
      authenticatorAttachment: 'platform',
    });
  }
}
