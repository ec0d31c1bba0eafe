/**
 * Passkeys (WebAuthn, issue 38, contract/calls/passkeys.ts), verified with @simplewebauthn/server. Each ceremony's
 * challenge is a row of its own: single use, five minutes, bound to its purpose and (but for a password-less
 * log-in) to its user; the browser's answer names it in its signed client data, so no other handle travels. User
 * verification (the phone's PIN or fingerprint) is required: a passkey alone is two factors, so it signs in without
 * a password and satisfies a step-up.
 */
import {
  generateAuthenticationOptions,
  generateRegistrationOptions,
  verifyAuthenticationResponse,
  verifyRegistrationResponse,
  type AuthenticationResponseJSON,
  type AuthenticatorTransport,
  type RegistrationResponseJSON,
} from '@simplewebauthn/server';
import { MAX_PASSKEYS, type Passkey } from '../../contract/calls/passkeys';
import type { StepUpAction } from '../../contract/calls/security';
import type { Language } from '../../contract/enums';
import { immediate, type Db } from '../db/database';
import { fail } from '../shared/errors';
import type { Accounts, Device, UserRow } from './accounts';
import { sha256 } from './secrets';
import type { Security } from './security';

/** A ceremony's challenge lives this long (the browser's own timeout is one minute less). */
export const PASSKEY_CHALLENGE_TTL_MS = 5 * 60 * 1000;
/** Password-less log-in ceremonies one address may start per 15 minutes. */
const LOGIN_OPTIONS_PER_IP = 60;
const RP_NAME = 'LotFX';

type Purpose = 'register' | 'login' | 'step_up';

interface PasskeyRow {
  id: string;
  user_id: number;
  name: string;
  public_key: Buffer;
  counter: number;
  transports: string;
  created_at: number;
  last_used_at: number | null;
}

interface ChallengeRow {
  challenge: string;
  purpose: Purpose;
  user_id: number | null;
  detail: string | null;
  expires_at: number;
  used_at: number | null;
}

/**
 * The relying party of a page's origin: its host. Only an https origin, or http on this machine (a secure context
 * for the browser too), can hold passkeys.
 */
export function relyingParty(origin: string | undefined): { origin: string; rpID: string } {
  let url: URL;
  try {
    url = new URL(origin ?? '');
  } catch {
    fail('PasskeyInvalid', 'no page origin');
  }
  const local = url.hostname === 'localhost' || url.hostname === '127.0.0.1' || url.hostname === '[::1]';
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && local)) fail('PasskeyInvalid', 'not a secure origin');
  return { origin: url.origin, rpID: url.hostname };
}

/** The challenge the browser signed, read from its answer's client data (checked again by the verification). */
function signedChallenge(answer: { response?: { clientDataJSON?: unknown } }): string {
  try {
    const data = JSON.parse(Buffer.from(String(answer.response?.clientDataJSON), 'base64url').toString('utf8')) as { challenge?: unknown };
    if (typeof data.challenge === 'string' && data.challenge) return data.challenge;
  } catch {
    // Not JSON: refused below.
  }
  fail('PasskeyInvalid', 'no challenge');
}

function parseAnswer<T extends { id: string; response: unknown }>(text: string): T {
  try {
    const answer = JSON.parse(text) as T;
    if (answer && typeof answer.id === 'string' && typeof answer.response === 'object') return answer;
  } catch {
    // Refused below.
  }
  fail('PasskeyInvalid', 'not an answer');
}

export class Passkeys {
  private readonly loginOptionsPerIp;

  constructor(
    private readonly db: Db,
    private readonly accounts: Accounts,
    private readonly security: Security,
    private readonly clock: () => number,
  ) {
    this.loginOptionsPerIp = accounts.limiter(LOGIN_OPTIONS_PER_IP, 15 * 60 * 1000);
  }

  list(userId: number): Passkey[] {
    const rows = this.db.prepare('SELECT * FROM passkeys WHERE user_id = ? ORDER BY created_at').all(userId) as PasskeyRow[];
    return rows.map((r) => ({ id: r.id, name: r.name, created_at: r.created_at, last_used_at: r.last_used_at }));
  }

  // ---- challenges ------------------------------------------------------------------------------------

  private keepChallenge(challenge: string, purpose: Purpose, userId: number | null, detail: string | null) {
    const now = this.clock();
    this.db.prepare('DELETE FROM passkey_challenges WHERE expires_at <= ?').run(now);
    this.db
      .prepare('INSERT INTO passkey_challenges (challenge, purpose, user_id, detail, expires_at) VALUES (?, ?, ?, ?, ?)')
      .run(challenge, purpose, userId, detail, now + PASSKEY_CHALLENGE_TTL_MS);
  }

  /** Spends the challenge an answer signed: it must be unspent, fresh and of this purpose (and user, when bound). */
  private spendChallenge(answer: { response?: { clientDataJSON?: unknown } }, purpose: Purpose, userId: number | null): ChallengeRow {
    const challenge = signedChallenge(answer);
    const row = this.db.prepare('SELECT * FROM passkey_challenges WHERE challenge = ?').get(challenge) as ChallengeRow | undefined;
    if (!row || row.purpose !== purpose || row.used_at !== null || row.expires_at <= this.clock()) fail('PasskeyInvalid', 'challenge');
    if (userId !== null && row.user_id !== userId) fail('PasskeyInvalid', 'challenge');
    const spent = this.db
      .prepare('UPDATE passkey_challenges SET used_at = ? WHERE challenge = ? AND used_at IS NULL')
      .run(this.clock(), challenge);
    if (spent.changes !== 1) fail('PasskeyInvalid', 'challenge');
    return row;
  }

  /** This user's passkeys as a ceremony names them (to exclude on adding, to allow on using). */
  private credentials(userId: number): { id: string; transports: AuthenticatorTransport[] }[] {
    const rows = this.db.prepare('SELECT id, transports FROM passkeys WHERE user_id = ?').all(userId) as {
      id: string;
      transports: string;
    }[];
    return rows.map((row) => ({ id: row.id, transports: JSON.parse(row.transports) as AuthenticatorTransport[] }));
  }

  // ---- adding, naming, removing ------------------------------------------------------------------------

  async registerOptions(user: UserRow, origin: string | undefined) {
    if (user.is_demo) fail('DemoNotAllowed');
    const { rpID } = relyingParty(origin);
    const held = this.credentials(user.id);
    if (held.length >= MAX_PASSKEYS) fail('TooManyPasskeys');
    const options = await generateRegistrationOptions({
      rpName: RP_NAME,
      rpID,
      userName: user.email ?? (user.mobile ? `+${user.mobile}` : user.uid),
      userID: new TextEncoder().encode(user.uid),
      attestationType: 'none',
      excludeCredentials: held,
      authenticatorSelection: { residentKey: 'required', userVerification: 'required' },
      timeout: PASSKEY_CHALLENGE_TTL_MS - 60_000,
    });
    this.keepChallenge(options.challenge, 'register', user.id, null);
    return options as unknown as Record<string, unknown>;
  }

  /** Keeps a new passkey. The account's first factor ends its other sessions, as the authenticator's does. */
  async register(user: UserRow, token: string, origin: string | undefined, name: string, answerText: string): Promise<Passkey> {
    if (user.is_demo) fail('DemoNotAllowed');
    const rp = relyingParty(origin);
    const answer = parseAnswer<RegistrationResponseJSON>(answerText);
    const row = this.spendChallenge(answer, 'register', user.id);
    const verified = await verifyRegistrationResponse({
      response: answer,
      expectedChallenge: row.challenge,
      expectedOrigin: rp.origin,
      expectedRPID: rp.rpID,
      requireUserVerification: true,
    }).catch(() => fail('PasskeyInvalid', 'registration'));
    if (!verified.verified || !verified.registrationInfo) fail('PasskeyInvalid', 'registration');
    const { credential } = verified.registrationInfo;
    const now = this.clock();
    immediate(this.db, () => {
      const held = this.list(user.id).length;
      if (held >= MAX_PASSKEYS) fail('TooManyPasskeys');
      const firstFactor = held === 0 && !this.security.totpOn(user.id);
      if (this.db.prepare('SELECT 1 FROM passkeys WHERE id = ?').get(credential.id)) fail('PasskeyInvalid', 'known');
      this.db
        .prepare('INSERT INTO passkeys (id, user_id, name, public_key, counter, transports, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)')
        .run(
          credential.id,
          user.id,
          name.trim(),
          Buffer.from(credential.publicKey),
          credential.counter,
          JSON.stringify(credential.transports ?? []),
          now,
        );
      if (firstFactor) this.accounts.revokeAll(user.id, token);
    });
    return { id: credential.id, name: name.trim(), created_at: now, last_used_at: null };
  }

  rename(user: UserRow, id: string, name: string): void {
    const changed = this.db.prepare('UPDATE passkeys SET name = ? WHERE id = ? AND user_id = ?').run(name.trim(), id.trim(), user.id);
    if (changed.changes !== 1) fail('PasskeyNotFound');
  }

  /** Removes a passkey (inside the `factor_off` grant's transaction). */
  remove(user: UserRow, id: string): void {
    const removed = this.db.prepare('DELETE FROM passkeys WHERE id = ? AND user_id = ?').run(id.trim(), user.id);
    if (removed.changes !== 1) fail('PasskeyNotFound');
  }

  // ---- using one ---------------------------------------------------------------------------------------

  /** Options for an assertion: any passkey of this site (password-less log-in), or one of this user's. */
  private async assertionOptions(rpID: string, userId: number | null) {
    const allow = userId === null ? [] : this.credentials(userId);
    if (userId !== null && allow.length === 0) fail('PasskeyNotFound');
    return generateAuthenticationOptions({
      rpID,
      allowCredentials: allow,
      userVerification: 'required',
      timeout: PASSKEY_CHALLENGE_TTL_MS - 60_000,
    });
  }

  /** Verifies an assertion by a known passkey (of `userId`, when given) and notes its use; answers its owner's id. */
  private async verifyAssertion(answer: AuthenticationResponseJSON, challenge: string, origin: string | undefined, userId: number | null) {
    const rp = relyingParty(origin);
    const row = this.db.prepare('SELECT * FROM passkeys WHERE id = ?').get(answer.id) as PasskeyRow | undefined;
    if (!row || (userId !== null && row.user_id !== userId)) fail('PasskeyNotFound');
    const verified = await verifyAuthenticationResponse({
      response: answer,
      expectedChallenge: challenge,
      expectedOrigin: rp.origin,
      expectedRPID: rp.rpID,
      credential: {
        id: row.id,
        publicKey: new Uint8Array(row.public_key),
        counter: row.counter,
        transports: JSON.parse(row.transports) as AuthenticatorTransport[],
      },
      requireUserVerification: true,
    }).catch(() => fail('PasskeyInvalid', 'assertion'));
    if (!verified.verified) fail('PasskeyInvalid', 'assertion');
    this.db
      .prepare('UPDATE passkeys SET counter = ?, last_used_at = ? WHERE id = ?')
      .run(verified.authenticationInfo.newCounter, this.clock(), row.id);
    return row.user_id;
  }

  /** With a half-done log-in's ticket, that account's passkeys only; without, any (password-less). */
  async loginOptions(origin: string | undefined, ticket: string | undefined, ip: string) {
    const { rpID } = relyingParty(origin);
    let userId: number | null = null;
    if (ticket) userId = this.security.ticketUser(ticket);
    else if (!this.loginOptionsPerIp.take(ip)) fail('RateLimited');
    const options = await this.assertionOptions(rpID, userId);
    this.keepChallenge(options.challenge, 'login', userId, ticket ? sha256(ticket) : null);
    return options as unknown as Record<string, unknown>;
  }

  async login(origin: string | undefined, answerText: string, ticket: string | undefined, device: Device, lang: Language) {
    const answer = parseAnswer<AuthenticationResponseJSON>(answerText);
    const challenge = this.spendChallenge(answer, 'login', null);
    // A ceremony begun for a half-done log-in finishes only that one, and spends its ticket.
    if ((challenge.detail ?? null) !== (ticket ? sha256(ticket) : null)) fail('PasskeyInvalid', 'ticket');
    const userId = await this.verifyAssertion(answer, challenge.challenge, origin, challenge.user_id);
    if (ticket) this.security.spendTicket(ticket, userId);
    const user = this.accounts.user(userId) ?? fail('PasskeyNotFound');
    return this.accounts.startSession(user, device, lang);
  }

  async stepUpOptions(user: UserRow, action: StepUpAction, origin: string | undefined) {
    if (user.is_demo) fail('DemoNotAllowed');
    const { rpID } = relyingParty(origin);
    const options = await this.assertionOptions(rpID, user.id);
    this.keepChallenge(options.challenge, 'step_up', user.id, action);
    return options as unknown as Record<string, unknown>;
  }

  /** A passkey of this user, for a grant of this action (bound to the session that asks, as a code's is). */
  async stepUp(user: UserRow, token: string, action: StepUpAction, answerText: string, origin: string | undefined) {
    if (user.is_demo) fail('DemoNotAllowed');
    const answer = parseAnswer<AuthenticationResponseJSON>(answerText);
    const challenge = this.spendChallenge(answer, 'step_up', user.id);
    if (challenge.detail !== action) fail('PasskeyInvalid', 'action');
    await this.verifyAssertion(answer, challenge.challenge, origin, user.id);
    return this.security.issueGrant(user, token, action);
  }
}
