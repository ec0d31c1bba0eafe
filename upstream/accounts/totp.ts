/**
 * The authenticator app (RFC 6238 with `otpauth`): SHA1, 6 digits, 30-second steps, ±1 step of drift; and the
 * recovery codes made when it is turned on. Replay is refused by the caller, which keeps the last accepted step.
 */
import crypto from 'node:crypto';
import { Secret, TOTP } from 'otpauth';
import { RECOVERY_CODES } from '../../contract/calls/security';
import { sha256 } from './secrets';

export const TOTP_ISSUER = 'LotFX';
export const TOTP_PERIOD_S = 30;
export const TOTP_DIGITS = 6;
/** Steps of clock drift accepted either side of now. */
export const TOTP_WINDOW = 1;
/** Letters and digits nobody confuses (no 0/o, 1/l/i). */
const RECOVERY_ALPHABET = '23456789abcdefghjkmnpqrstuvwxyz';

function totpOf(secret: Secret, label = 'LotFX', digits = TOTP_DIGITS): TOTP {
  return new TOTP({ issuer: TOTP_ISSUER, label, algorithm: 'SHA1', digits, period: TOTP_PERIOD_S, secret });
}

/** A new secret (160 bits, as RFC 4226 recommends), in base32. */
export function newTotpSecret(): string {
  return new Secret({ size: 20 }).base32;
}

/** The `otpauth://totp/LotFX:<label>?…` URI an authenticator app reads from the QR code. */
export function totpUri(secretBase32: string, label: string): string {
  return totpOf(Secret.fromBase32(secretBase32), label).toString();
}

/** The code of a secret at a time (tests and the RFC vectors; `digits` 8 for those). */
export function totpCode(secret: Secret | string, timestampMs: number, digits = TOTP_DIGITS): string {
  return totpOf(typeof secret === 'string' ? Secret.fromBase32(secret) : secret, 'LotFX', digits).generate({ timestamp: timestampMs });
}

/** The time step a code belongs to (now ±1 step), or null when it matches none. */
export function totpStep(secretBase32: string, code: string, nowMs: number): number | null {
  if (!/^\d{6}$/.test(code)) return null;
  const delta = totpOf(Secret.fromBase32(secretBase32)).validate({ token: code, timestamp: nowMs, window: TOTP_WINDOW });
  return delta === null ? null : Math.floor(nowMs / 1000 / TOTP_PERIOD_S) + delta;
}

/** Ten recovery codes, `xxxx-xxxx`. */
export function newRecoveryCodes(): string[] {
  const part = () => Array.from({ length: 4 }, () => RECOVERY_ALPHABET[crypto.randomInt(RECOVERY_ALPHABET.length)]).join('');
  return Array.from({ length: RECOVERY_CODES }, () => `${part()}-${part()}`);
}

/** A recovery code's stored hash: typed in either case, with or without its dash. */
export function recoveryHash(userId: number, code: string): string {
  return sha256(`${userId}|${code.toLowerCase().replace(/[\s-]/g, '')}`);
}

export function looksLikeRecoveryCode(code: string): boolean {
  return /^[a-z0-9]{4}-?[a-z0-9]{4}$/i.test(code.trim());
}
