/**
 * Account security (issue 38): the authenticator app, recovery codes, the log-in's second step, step-up grants and
 * the signed-in devices. `withGrant` is the one place a protected action's grant is checked and spent.
 */
import crypto from 'node:crypto';
import type { Language } from '../../contract/enums';
import {
  LOGIN_TICKET_TTL_MS,
  STEP_UP_TTL_MS,
  type DeviceSession,
  type SecurityStatus,
  type StepUpAction,
} from '../../contract/calls/security';
import { immediate, type Db } from '../db/database';
import { BusinessError, fail } from '../shared/errors';
import { utc, type Accounts, type Device, type UserRow } from './accounts';

type LoginFactor = 'totp' | 'passkey' | 'email' | 'sms';
import { newToken, sha256 } from './secrets';
import { looksLikeRecoveryCode, newRecoveryCodes, newTotpSecret, recoveryHash, totpStep, totpUri } from './totp';

/** A pending authenticator secret (set up, not yet confirmed) lives this long. */
export const TOTP_PENDING_TTL_MS = 10 * 60 * 1000;
/** Wrong codes a log-in ticket survives. */
export const LOGIN_TICKET_TRIES = 5;
/** The operator's factor removal holds withdrawals this long. */
export const FACTOR_RESET_WITHDRAWAL_HOLD_MS = 72 * 3600 * 1000;
/** Each action's sent codes are a purpose of their own (verification_codes.purpose; 1 and 2 are sign-up and reset). */
const STEP_UP_PURPOSE: Record<StepUpAction, number> = {
  bind_method: 11,
  delete_method: 12,
  withdraw: 13,
  change_password: 14,
  factor_off: 15,
};
/** The code a passkey-only account's log-in sends to a browser without JavaScript. */
const LOGIN_CODE_PURPOSE = 16;

interface FactorRow {
  user_id: number;
  totp_secret: string | null;
  totp_on_at: number | null;
  totp_last_step: number | null;
  pending_secret: string | null;
  pending_expires_at: number | null;
}

export interface SecurityOptions {
  clock: () => number;
  log: (line: string) => void;
  text: (lang: Language, key: string, values?: Record<string, string>) => string;
}

export class Security {
  constructor(
    private readonly db: Db,
    private readonly accounts: Accounts,
    private readonly options: SecurityOptions,
  ) {}

  private now(): number {
    return this.options.clock();
  }

  private factors(userId: number): FactorRow | undefined {
    return this.db.prepare('SELECT * FROM user_factors WHERE user_id = ?').get(userId) as FactorRow | undefined;
  }

  totpOn(userId: number): boolean {
    return !!this.factors(userId)?.totp_secret;
  }

  private passkeyCount(userId: number): number {
    return (this.db.prepare('SELECT COUNT(*) AS n FROM passkeys WHERE user_id = ?').get(userId) as { n: number }).n;
  }

  status(user: UserRow): SecurityStatus {
    const left = (
      this.db.prepare('SELECT COUNT(*) AS n FROM recovery_codes WHERE user_id = ? AND used_at IS NULL').get(user.id) as { n: number }
    ).n;
    const held = user.withdrawals_held_until;
    return {
      totp: this.totpOn(user.id),
      passkeys: this.passkeyCount(user.id),
      recovery_codes_left: left,
      step_up: this.totpOn(user.id) ? 'totp' : (this.accounts.contactOf(user)?.channel ?? 'email'),
      withdrawals_held_until: held !== null && held > this.now() ? held : null,
    };
  }

  // ---- the authenticator ---------------------------------------------------------------------------

  totpSetup(user: UserRow): { secret: string; uri: string } {
    if (user.is_demo) fail('DemoNotAllowed');
    if (this.totpOn(user.id)) fail('TotpAlreadyOn');
    const secret = newTotpSecret();
    this.db
      .prepare(
        `INSERT INTO user_factors (user_id, pending_secret, pending_expires_at) VALUES (?, ?, ?)
         ON CONFLICT (user_id) DO UPDATE SET pending_secret = excluded.pending_secret, pending_expires_at = excluded.pending_expires_at`,
      )
      .run(user.id, secret, this.now() + TOTP_PENDING_TTL_MS);
    const label = user.email ?? (user.mobile ? `+${user.mobile}` : user.uid);
    return { secret, uri: totpUri(secret, label) };
  }

  /** The first code turns the authenticator on: ten recovery codes (answered once) and the other sessions end. */
  async totpConfirm(user: UserRow, token: string, code: string, ip: string): Promise<{ recovery_codes: string[] }> {
    if (user.is_demo) fail('DemoNotAllowed');
    if (this.totpOn(user.id)) fail('TotpAlreadyOn');
    let codes: string[] = [];
    await this.guarded(user, ip, () => {
      const row = this.factors(user.id);
      const fresh = row?.pending_secret && (row.pending_expires_at ?? 0) > this.now() ? row.pending_secret : null;
      const step = fresh ? totpStep(fresh, code.trim(), this.now()) : null;
      return step === null ? null : () => (codes = this.turnOn(user, token, fresh!, step));
    });
    return { recovery_codes: codes };
  }

  private turnOn(user: UserRow, token: string, secret: string, step: number): string[] {
    const codes = newRecoveryCodes();
    immediate(this.db, () => {
      this.db
        .prepare(
          `UPDATE user_factors SET totp_secret = ?, totp_on_at = ?, totp_last_step = ?, pending_secret = NULL,
             pending_expires_at = NULL WHERE user_id = ?`,
        )
        .run(secret, this.now(), step, user.id);
      this.db.prepare('DELETE FROM recovery_codes WHERE user_id = ?').run(user.id);
      const insert = this.db.prepare('INSERT INTO recovery_codes (user_id, code_hash) VALUES (?, ?)');
      for (const c of codes) insert.run(user.id, recoveryHash(user.id, c));
      this.accounts.revokeAll(user.id, token);
    });
    return codes;
  }

  /** Turns the authenticator off (inside the `factor_off` grant's transaction). */
  totpDisable(user: UserRow): void {
    if (!this.totpOn(user.id)) fail('TotpNotOn');
    this.removeFactorRows(user.id);
  }

  /** The authenticator and its recovery codes. */
  private removeFactorRows(userId: number) {
    this.db.prepare('DELETE FROM user_factors WHERE user_id = ?').run(userId);
    this.db.prepare('DELETE FROM recovery_codes WHERE user_id = ?').run(userId);
  }

  /**
   * A code of the user's second factor: an authenticator code of a step after the last one accepted, or an unused
   * recovery code. Returns what spends it, or null when it is wrong.
   */
  private factorCheck(user: UserRow, code: string): (() => void) | null {
    const row = this.factors(user.id);
    if (!row?.totp_secret) return null;
    const typed = code.trim();
    if (/^\d{6}$/.test(typed)) {
      const step = totpStep(row.totp_secret, typed, this.now());
      if (step === null || step <= (row.totp_last_step ?? -1)) return null;
      return () => this.db.prepare('UPDATE user_factors SET totp_last_step = ? WHERE user_id = ?').run(step, user.id);
    }
    if (!looksLikeRecoveryCode(typed)) return null;
    const hit = this.db
      .prepare('SELECT id FROM recovery_codes WHERE user_id = ? AND code_hash = ? AND used_at IS NULL')
      .get(user.id, recoveryHash(user.id, typed)) as { id: number } | undefined;
    if (!hit) return null;
    return () => this.db.prepare('UPDATE recovery_codes SET used_at = ? WHERE id = ? AND used_at IS NULL').run(this.now(), hit.id);
  }

  /**
   * Every code guess at an account goes through here: refused while the account's pause runs (guess-guard.ts) or
   * this address has used up its tries; a wrong one (check answers null) is counted and answered FactorCodeInvalid.
   */
  private async guarded(user: UserRow, ip: string, check: () => (() => void) | null, onWrong?: () => void): Promise<void> {
    const pair = `${user.id}|${ip}`;
    const known = this.accounts.knownAddress(user.id, ip);
    if (this.accounts.codeGuessesPerPair.exhausted(pair)) fail('RateLimited');
    await this.accounts.codeGuard.check(String(user.id), known);
    const spend = check();
    if (!spend) {
      onWrong?.();
      this.accounts.codeGuessesPerPair.take(pair);
      await this.accounts.codeGuard.failed(String(user.id), known);
      fail('FactorCodeInvalid');
    }
    spend();
  }

  // ---- log-in ----------------------------------------------------------------------------------------

  /** After the right password: the session, or, with the authenticator on, a ticket for `login_factor`. */
  async login(
    input: { account: string; password: string; login_type: 'email' | 'mobile'; area_id?: number },
    device: Device,
    lang: Language,
  ): Promise<{ token: string; user: UserRow } | { factor_required: true; ticket: string; factors: LoginFactor[] }> {
    const user = await this.accounts.verifyLogin(input, device.ip);
    const factors = this.loginFactors(user);
    if (factors.length === 0) return this.accounts.startSession(user, device, lang);
    const ticket = newToken();
    this.db
      .prepare('INSERT INTO login_tickets (hash, user_id, expires_at) VALUES (?, ?, ?)')
      .run(sha256(ticket), user.id, this.now() + LOGIN_TICKET_TTL_MS);
    return { factor_required: true, ticket, factors };
  }

  /**
   * What the log-in's second step takes: the authenticator's code, a passkey, and, for an account whose only factor
   * is a passkey, a code sent to its e-mail or phone (a browser without JavaScript cannot use a passkey).
   */
  private loginFactors(user: UserRow): LoginFactor[] {
    const totp = this.totpOn(user.id);
    const passkeys = this.passkeyCount(user.id) > 0;
    const sent = !totp && passkeys ? this.accounts.contactOf(user)?.channel : undefined;
    return [...(totp ? (['totp'] as const) : []), ...(passkeys ? (['passkey'] as const) : []), ...(sent ? [sent] : [])];
  }

  /** The user of a half-done log-in's ticket that may still be finished. */
  ticketUser(ticket: string): number {
    const row = this.ticketRow(sha256(ticket.trim()));
    return row.user_id;
  }

  private ticketRow(hash: string) {
    const row = this.db.prepare('SELECT * FROM login_tickets WHERE hash = ?').get(hash) as
      { user_id: number; expires_at: number; tries: number; used_at: number | null } | undefined;
    if (!row || row.used_at !== null || row.expires_at <= this.now() || row.tries >= LOGIN_TICKET_TRIES) fail('LoginTicketInvalid');
    return row;
  }

  /** Spends a half-done log-in's ticket (once, and only for its own user). */
  spendTicket(ticket: string, userId: number): void {
    const hash = sha256(ticket.trim());
    if (this.ticketRow(hash).user_id !== userId) fail('LoginTicketInvalid');
    const spent = this.db.prepare('UPDATE login_tickets SET used_at = ? WHERE hash = ? AND used_at IS NULL').run(this.now(), hash);
    if (spent.changes !== 1) fail('LoginTicketInvalid');
  }

  /** A passkey-only account's log-in on a browser without JavaScript: a code for this log-in, sent to the owner. */
  loginFactorSend(ticket: string, ip: string, lang: Language) {
    const user = this.accounts.user(this.ticketUser(ticket)) ?? fail('LoginTicketInvalid');
    if (this.totpOn(user.id)) fail('StepUpUseFactor');
    return this.accounts.sendStepUpCode(user, LOGIN_CODE_PURPOSE, this.options.text(lang, 'mail.action.login'), ip, lang);
  }

  /** The log-in's second step: a ticket (single use, 5 minutes, 5 wrong codes) and a code; then the session. */
  async loginFactor(ticket: string, code: string, device: Device, lang: Language): Promise<{ token: string; user: UserRow }> {
    const hash = sha256(ticket.trim());
    const user = this.accounts.user(this.ticketRow(hash).user_id) ?? fail('LoginTicketInvalid');
    await this.guarded(
      user,
      device.ip,
      () => (this.totpOn(user.id) ? this.factorCheck(user, code) : this.sentCodeCheck(user, LOGIN_CODE_PURPOSE, code)),
      () => this.db.prepare('UPDATE login_tickets SET tries = tries + 1 WHERE hash = ?').run(hash),
    );
    this.spendTicket(ticket, user.id);
    return this.accounts.startSession(user, device, lang);
  }

  // ---- step-up -------------------------------------------------------------------------------------

  stepUpSend(user: UserRow, action: StepUpAction, ip: string, lang: Language) {
    if (user.is_demo) fail('DemoNotAllowed');
    if (this.totpOn(user.id)) fail('StepUpUseFactor');
    return this.accounts.sendStepUpCode(user, STEP_UP_PURPOSE[action], this.options.text(lang, `mail.action.${action}`), ip, lang);
  }

  /** A second factor for a grant: bound to this user, this session (token) and this action, for five minutes. */
  async stepUp(user: UserRow, token: string, action: StepUpAction, code: string, ip: string) {
    if (user.is_demo) fail('DemoNotAllowed');
    await this.guarded(user, ip, () =>
      this.totpOn(user.id) ? this.factorCheck(user, code) : this.sentCodeCheck(user, STEP_UP_PURPOSE[action], code),
    );
    return this.issueGrant(user, token, action);
  }

  /** A code sent for this purpose is checked and spent at once (a wrong one counts one of its five tries). */
  private sentCodeCheck(user: UserRow, purpose: number, code: string): (() => void) | null {
    try {
      this.accounts.useStepUpCode(user, purpose, code.trim());
    } catch (err) {
      if (err instanceof BusinessError && err.errorName === 'CodeInvalid') return null;
      throw err;
    }
    return () => {};
  }

  /** A grant after a second factor (a code here, or a passkey in passkeys.ts). */
  issueGrant(user: UserRow, token: string, action: StepUpAction) {
    const grant = crypto.randomBytes(32).toString('base64url');
    const expires = this.now() + STEP_UP_TTL_MS;
    this.db
      .prepare('INSERT INTO step_up_grants (hash, user_id, token_hash, action, expires_at) VALUES (?, ?, ?, ?, ?)')
      .run(sha256(grant), user.id, sha256(token), action, expires);
    return { grant, expires_at: expires };
  }

  /**
   * The one gate of every protected action: the grant must be this user's, this session's, fresh, for this action
   * and unspent. `before` runs once the grant is found good (an action's own checks whose tries must count even when
   * the action fails); the grant is spent in the same transaction as `run`, so a refused action keeps it.
   */
  withGrant<T>(user: UserRow, token: string, action: StepUpAction, grant: string | undefined, run: () => T, before?: () => void): T {
    // A demo account may do none of these (each refused it before grants existed).
    if (user.is_demo) fail('DemoNotAllowed');
    this.grantRow(user, token, action, grant);
    before?.();
    return immediate(this.db, () => {
      const hash = this.grantRow(user, token, action, grant);
      this.db.prepare('UPDATE step_up_grants SET used_at = ? WHERE hash = ?').run(this.now(), hash);
      return run();
    });
  }

  private grantRow(user: UserRow, token: string, action: StepUpAction, grant: string | undefined): string {
    if (!grant) fail('StepUpRequired');
    const hash = sha256(grant);
    const row = this.db.prepare('SELECT * FROM step_up_grants WHERE hash = ?').get(hash) as
      { user_id: number; token_hash: string; action: string; expires_at: number; used_at: number | null } | undefined;
    if (!row || row.user_id !== user.id || row.token_hash !== sha256(token) || row.used_at !== null) fail('StepUpInvalid');
    if (row.expires_at <= this.now()) fail('StepUpExpired');
    if (row.action !== action) fail('StepUpWrongAction');
    return hash;
  }

  // ---- signed-in devices -----------------------------------------------------------------------------

  sessions(user: UserRow, token: string): DeviceSession[] {
    const rows = this.db
      .prepare(
        `SELECT hash, session_id, user_agent, address, created_at, last_seen_at FROM tokens
         WHERE user_id = ? AND revoked_at IS NULL AND expires_at > ? ORDER BY COALESCE(last_seen_at, created_at) DESC`,
      )
      .all(user.id, this.now()) as {
      hash: string;
      session_id: string;
      user_agent: string;
      address: string;
      created_at: number;
      last_seen_at: number | null;
    }[];
    const mine = sha256(token);
    return rows.map((r) => ({
      id: r.session_id,
      user_agent: r.user_agent,
      address: r.address,
      created_at: r.created_at,
      last_seen_at: r.last_seen_at ?? r.created_at,
      current: r.hash === mine,
    }));
  }

  endSession(user: UserRow, id: string): void {
    if (!this.accounts.revokeSession(user.id, id.trim())) fail('SessionNotFound');
  }

  endOtherSessions(user: UserRow, token: string): void {
    this.accounts.revokeAll(user.id, token);
  }

  // ---- the operator ------------------------------------------------------------------------------------

  /**
   * Lost phone: the operator, having checked the owner's identity, removes the factors. Logged with their name and
   * reason; every session ends, withdrawals wait 72 hours, and the owner is told.
   */
  removeFactors(userId: number, operator: string, reason: string): { held_until: number } {
    const user = this.accounts.user(userId) ?? fail('NotFound', `user ${userId}`);
    if (user.is_demo) fail('DemoNotAllowed');
    const now = this.now();
    const until = now + FACTOR_RESET_WITHDRAWAL_HOLD_MS;
    immediate(this.db, () => {
      this.removeFactorRows(userId);
      this.db.prepare('DELETE FROM passkeys WHERE user_id = ?').run(userId);
      this.db.prepare('UPDATE users SET withdrawals_held_until = ? WHERE id = ?').run(until, userId);
      this.db
        .prepare('INSERT INTO admin_actions (verb, user_id, operator, reason, created_at) VALUES (?, ?, ?, ?, ?)')
        .run('factors-reset', userId, operator, reason, now);
      this.accounts.revokeAll(userId);
    });
    this.options.log(`admin: factors removed for user ${user.uid} by ${operator}: ${reason}`);
    this.accounts.notify(user, 'factorsRemoved', { time: utc(now), until: utc(until) });
    return { held_until: until };
  }
}
