/**
 * Accounts and sessions: registration, login, demo accounts, tokens, verification codes (into the
 * outbox) and password changes. Answers never reveal whether an account exists, except registration's.
 */
import crypto from 'node:crypto';
import { AccountType, CodePurpose, VerifyRegType, type Language } from '../../contract/enums';
import type { SendMail } from '../content/mailer';
import { sendMessage } from '../content/outbox';
import { MONEY_DECIMALS, parseUnits } from '../../contract/money';
import type { Db } from '../db/database';
import { fail } from '../shared/errors';
import type { Ledger } from '../trading/ledger';
import { maskAddress } from './address';
import type { CaptchaStore } from './captcha';
import { ACCOUNT_CODE_ALLOWANCE, ACCOUNT_PASSWORD_ALLOWANCE, GuessGuard } from './guess-guard';
import { RateLimiter } from './rate-limit';
import { DUMMY_HASH, hashPassword, newToken, sha256, sixDigitCode, verifyPassword } from './secrets';

export interface UserRow {
  id: number;
  uid: string;
  email: string | null;
  mobile: string | null;
  area_id: number | null;
  password_hash: string | null;
  is_demo: number;
  demo_id: string | null;
  invite_code: string;
  inviter_id: number | null;
  created_at: number;
  /** The language of the owner's last log-in: notices are written in it. */
  lang: string | null;
  /** Withdrawals refused until then (ms): the operator removed the factors. */
  withdrawals_held_until: number | null;
}

/** What the web server says of the browser behind a call (a signed-in device). */
export interface Device {
  userAgent: string;
  ip: string;
}

export const TOKEN_TTL_MS = 30 * 24 * 3600 * 1000;
/** A token's expiry slides forward at most once an hour (not a write per request). */
const TOKEN_SLIDE_STEP_MS = 3600 * 1000;
export const CODE_TTL_MS = 10 * 60 * 1000;
export const CODE_RESEND_MS = 60 * 1000;
export const CODE_MAX_TRIES = 5;
export const PASSWORD_MIN_LENGTH = 6;
/** Per-IP limits are wide (a carrier NAT puts many phones behind one address); per-account ones are tight. */
export const CODES_PER_IP_PER_HOUR = 100;
export const LOGINS_PER_IP_PER_15_MIN = 300;
/** New demo accounts per address per hour (a carrier NAT shares one address among many phones). */
export const DEMOS_PER_IP_PER_HOUR = 30;
/** Captcha pictures per address per 10 minutes. */
export const CAPTCHAS_PER_IP_PER_10_MIN = 60;
/** Wrong codes (authenticator, recovery, step-up) per account and address per 15 minutes. */
export const CODE_GUESSES_PER_PAIR_PER_15_MIN = 10;
/** A session's last-seen time is written at most this often (not a write per request). */
const LAST_SEEN_STEP_MS = 60 * 1000;
/** A user agent is kept to this length. */
const USER_AGENT_MAX = 300;

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const MOBILE = /^\d{5,15}$/;

export interface AccountsOptions {
  clock: () => number;
  setting: (key: string) => string;
  log: (line: string) => void;
  /** A message of the upstream's catalogue in a language, with {{name}} placeholders filled. */
  text: (lang: Language, key: string, values?: Record<string, string>) => string;
  /** Sends an e-mail (SMTP_URL set); without it the outbox is the only delivery. */
  mail?: SendMail;
}

export class Accounts {
  private readonly loginPerAccount;
  private readonly loginPerIp;
  private readonly codesPerIp;
  private readonly demosPerIp;
  readonly captchasPerIp;
  private readonly tokenLookup;
  private readonly tokenSlide;
  private readonly tokenSeen;
  private readonly userById;
  /** Guesses at one account from many addresses (issue 38). */
  readonly passwordGuard = new GuessGuard('password', ACCOUNT_PASSWORD_ALLOWANCE);
  readonly codeGuard = new GuessGuard('code', ACCOUNT_CODE_ALLOWANCE);
  /** Wrong codes per account and address (a ticket or a sent code also dies after five). */
  readonly codeGuessesPerPair;
  private readonly revokeListeners = new Set<(hashes: string[]) => void>();

  constructor(
    private readonly db: Db,
    private readonly ledger: Ledger,
    private readonly captcha: CaptchaStore,
    private readonly options: AccountsOptions,
  ) {
    this.loginPerAccount = new RateLimiter(10, 15 * 60 * 1000, options.clock);
    this.loginPerIp = new RateLimiter(LOGINS_PER_IP_PER_15_MIN, 15 * 60 * 1000, options.clock);
    const limit = (key: string, fallback: number) => () => Number(options.setting(key)) || fallback;
    this.codesPerIp = new RateLimiter(limit('codes_per_ip_per_hour', CODES_PER_IP_PER_HOUR), 60 * 60 * 1000, options.clock);
    this.codeGuessesPerPair = new RateLimiter(CODE_GUESSES_PER_PAIR_PER_15_MIN, 15 * 60 * 1000, options.clock);
    this.demosPerIp = new RateLimiter(limit('demos_per_ip_per_hour', DEMOS_PER_IP_PER_HOUR), 60 * 60 * 1000, options.clock);
    this.captchasPerIp = new RateLimiter(limit('captchas_per_ip_per_10_min', CAPTCHAS_PER_IP_PER_10_MIN), 10 * 60 * 1000, options.clock);
    // Every authenticated call runs these: prepare them once.
    this.tokenLookup = db.prepare('SELECT user_id, expires_at, revoked_at, last_seen_at FROM tokens WHERE hash = ?');
    this.tokenSlide = db.prepare('UPDATE tokens SET expires_at = ? WHERE hash = ?');
    this.tokenSeen = db.prepare('UPDATE tokens SET last_seen_at = ? WHERE hash = ?');
    this.userById = db.prepare('SELECT * FROM users WHERE id = ?');
  }

  /** A fixed-window counter on this upstream's clock (another part's own limit). */
  limiter(limit: number, windowMs: number): RateLimiter {
    return new RateLimiter(limit, windowMs, this.options.clock);
  }

  // ---- sessions ------------------------------------------------------------------------------------

  /** The user behind a token, or null when it is missing, unknown, expired or revoked. */
  authenticate(token: string | undefined): UserRow | null {
    if (!token) return null;
    const now = this.options.clock();
    const hash = sha256(token);
    const row = this.tokenLookup.get(hash) as
      { user_id: number; expires_at: number; revoked_at: number | null; last_seen_at: number | null } | undefined;
    if (!row || row.revoked_at !== null || row.expires_at <= now) return null;
    if (now + TOKEN_TTL_MS - row.expires_at > TOKEN_SLIDE_STEP_MS) this.tokenSlide.run(now + TOKEN_TTL_MS, hash);
    if (row.last_seen_at === null || now - row.last_seen_at >= LAST_SEEN_STEP_MS) this.tokenSeen.run(now, hash);
    return this.user(row.user_id) ?? null;
  }

  /** A new token; its row keeps the device (user agent, masked address) and a public id that reveals nothing of it. */
  issueToken(userId: number, device: Device = { userAgent: '', ip: '' }): string {
    const token = newToken();
    const now = this.options.clock();
    this.db
      .prepare(
        `INSERT INTO tokens (hash, user_id, created_at, expires_at, session_id, user_agent, address, last_seen_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
      )
      .run(
        sha256(token),
        userId,
        now,
        now + TOKEN_TTL_MS,
        newToken(),
        device.userAgent.slice(0, USER_AGENT_MAX),
        maskAddress(device.ip),
        now,
      );
    return token;
  }

  /**
   * A full log-in's session: the language noted for notices, and a notice to the owner when this device (user agent
   * and address prefix) never signed in before; a first session (registration) is no news.
   */
  startSession(user: UserRow, device: Device, lang: Language): { token: string; user: UserRow } {
    const address = maskAddress(device.ip);
    const userAgent = device.userAgent.slice(0, USER_AGENT_MAX);
    const seen = this.db
      .prepare('SELECT 1 FROM tokens WHERE user_id = ? AND address = ? AND user_agent = ? LIMIT 1')
      .get(user.id, address, userAgent);
    const before = this.db.prepare('SELECT 1 FROM tokens WHERE user_id = ? LIMIT 1').get(user.id);
    this.db.prepare('UPDATE users SET lang = ? WHERE id = ?').run(lang, user.id);
    const token = this.issueToken(user.id, device);
    const fresh = this.user(user.id)!;
    if (before && !seen) {
      this.notify(fresh, 'newDevice', { device: userAgent || '?', address: address || '?', time: utc(this.options.clock()) });
    }
    return { token, user: fresh };
  }

  /** True when the user has signed in from this address's prefix before (a known device's network). */
  knownAddress(userId: number, ip: string): boolean {
    const address = maskAddress(ip);
    return address !== '' && !!this.db.prepare('SELECT 1 FROM tokens WHERE user_id = ? AND address = ? LIMIT 1').get(userId, address);
  }

  /** Called with the hashes of the tokens just revoked (the websocket hub ends their private feeds). */
  onRevoke(listener: (hashes: string[]) => void): () => void {
    this.revokeListeners.add(listener);
    return () => this.revokeListeners.delete(listener);
  }

  revokeToken(token: string): void {
    this.revokeWhere('hash = ?', sha256(token));
  }

  /** Revokes every token of the user except `keep`. */
  revokeAll(userId: number, keep?: string): void {
    this.revokeWhere('user_id = ? AND hash != ?', userId, keep ? sha256(keep) : '');
  }

  /** Revokes one session of the user by its public id; false when it is not theirs or already ended. */
  revokeSession(userId: number, sessionId: string): boolean {
    return this.revokeWhere('user_id = ? AND session_id = ?', userId, sessionId) > 0;
  }

  private revokeWhere(where: string, ...args: (string | number)[]): number {
    const now = this.options.clock();
    const hashes = (
      this.db.prepare(`SELECT hash FROM tokens WHERE revoked_at IS NULL AND ${where}`).all(...args) as { hash: string }[]
    ).map((r) => r.hash);
    if (hashes.length === 0) return 0;
    this.db.prepare(`UPDATE tokens SET revoked_at = ? WHERE revoked_at IS NULL AND ${where}`).run(now, ...args);
    for (const listener of this.revokeListeners) listener(hashes);
    return hashes.length;
  }

  user(id: number): UserRow | undefined {
    return this.userById.get(id) as UserRow | undefined;
  }

  // ---- login and registration ----------------------------------------------------------------------

  /**
   * The password step of a log-in: the user, or LoginFailed. The caller starts the session, or asks for the second
   * factor first (security.ts).
   */
  async verifyLogin(input: { account: string; password: string; login_type: 'email' | 'mobile'; area_id?: number }, ip: string) {
    const account = input.account.trim();
    // Failures count per account AND address: someone else's wrong guesses never lock the owner out,
    // while one address guessing one account is stopped after a few tries.
    const pair = `${input.login_type}:${account.toLowerCase()}|${ip}`;
    if (!this.loginPerIp.take(ip) || this.loginPerAccount.exhausted(pair)) fail('RateLimited');
    const user =
      input.login_type === 'email'
        ? (this.db.prepare('SELECT * FROM users WHERE email = ? AND is_demo = 0').get(account) as UserRow | undefined)
        : (this.db.prepare('SELECT * FROM users WHERE mobile = ? AND area_id IS ? AND is_demo = 0').get(account, input.area_id ?? null) as
            UserRow | undefined);
    // And across every address at once, keyed by what was typed (an account that does not exist answers alike).
    const guardKey = `${input.login_type}:${input.area_id ?? ''}:${account.toLowerCase()}`;
    const known = !!user && this.knownAddress(user.id, ip);
    await this.passwordGuard.check(guardKey, known);
    const ok = verifyPassword(input.password, user?.password_hash ?? DUMMY_HASH);
    if (!user || !ok) {
      this.loginPerAccount.take(pair);
      await this.passwordGuard.failed(guardKey, known);
      fail('LoginFailed');
    }
    this.loginPerAccount.reset(pair);
    return user;
  }

  register(
    input: {
      type: number;
      account: string;
      password: string;
      re_password: string;
      sms_code: string;
      key?: string;
      invite_code?: string;
      area_id?: number;
      mobile?: string;
    },
    device: Device,
    lang: Language = 'en',
  ) {
    const ip = device.ip;
    if (!this.loginPerIp.take(ip)) fail('RateLimited');
    const byMobile = input.type === AccountType.Mobile;
    const email = byMobile ? null : input.account.trim().toLowerCase();
    const mobile = byMobile ? input.account.trim() : (input.mobile ?? null);
    if (email !== null && !EMAIL.test(email)) fail('EmailInvalid');
    if (mobile !== null && !MOBILE.test(mobile)) fail('MobileInvalid');
    // A phone login needs its area code; a phone given beside an e-mail (is_show_mobile 3) may have none.
    if (mobile !== null && (byMobile || input.area_id !== undefined) && !this.area(input.area_id)) fail('AreaInvalid');
    if (input.password.length < PASSWORD_MIN_LENGTH) fail('PasswordTooShort');
    if (input.password !== input.re_password) fail('PasswordMismatch');
    const inviter = input.invite_code
      ? ((this.db.prepare('SELECT id FROM users WHERE invite_code = ?').get(input.invite_code.toUpperCase()) as
          { id: number } | undefined) ?? fail('InviteCodeInvalid'))
      : undefined;
    if (email && this.db.prepare('SELECT 1 FROM users WHERE email = ?').get(email)) fail('AccountExists');
    if (mobile && this.db.prepare('SELECT 1 FROM users WHERE mobile = ? AND area_id IS ?').get(mobile, input.area_id ?? null))
      fail('AccountExists');
    if (Number(this.options.setting('verify_reg_type')) === VerifyRegType.Captcha) {
      if (!this.captcha.check(input.key, input.sms_code)) fail('CaptchaInvalid');
    } else {
      const target = byMobile ? this.mobileTarget(input.area_id, mobile!) : email!;
      this.useCode(target, CodePurpose.Register, input.sms_code);
    }
    const user = this.db
      .transaction(() => {
        const id = this.insertUser({
          email,
          mobile,
          area_id: mobile ? (input.area_id ?? null) : null,
          password: input.password,
          inviter: inviter?.id ?? null,
          demoId: null,
        });
        this.ledger.open(id, 0);
        return this.user(id)!;
      })
      .immediate();
    return this.startSession(user, device, lang);
  }

  /** The device's demo account: created with the starting balance on the first call, the same one after. */
  demo(demoId: string, device?: Device) {
    const ip = device?.ip;
    let user = this.db.prepare('SELECT * FROM users WHERE demo_id = ?').get(demoId) as UserRow | undefined;
    if (!user) {
      // Opening again on a known device is free; new accounts from one address are bounded.
      if (ip !== undefined && !this.demosPerIp.take(ip)) fail('RateLimited');
      user = this.db
        .transaction(() => {
          const id = this.insertUser({ email: null, mobile: null, area_id: null, password: null, inviter: null, demoId });
          this.ledger.open(id, this.demoBalance(), 'demo');
          return this.user(id)!;
        })
        .immediate();
    }
    return { token: this.issueToken(user.id, device), user };
  }

  demoBalance(): number {
    return parseUnits(this.options.setting('demo_balance'), MONEY_DECIMALS) ?? 100_000_000_000;
  }

  forgetPassword(input: {
    type: number;
    account: string;
    area_id?: number;
    new_password: string;
    secondary_password: string;
    auth_code: string;
  }) {
    if (input.new_password.length < PASSWORD_MIN_LENGTH) fail('PasswordTooShort');
    if (input.new_password !== input.secondary_password) fail('PasswordMismatch');
    const byMobile = input.type === AccountType.Mobile;
    const account = input.account.trim();
    const target = byMobile ? this.mobileTarget(input.area_id, account) : account.toLowerCase();
    this.useCode(target, CodePurpose.Reset, input.auth_code);
    const user = (
      byMobile
        ? this.db.prepare('SELECT * FROM users WHERE mobile = ? AND area_id IS ?').get(account, input.area_id ?? null)
        : this.db.prepare('SELECT * FROM users WHERE email = ?').get(account)
    ) as UserRow | undefined;
    // A code is only ever sent to an existing account, so a valid code means the user exists.
    if (!user) fail('CodeInvalid');
    this.setPassword(user.id, input.new_password);
    this.revokeAll(user.id);
  }

  /**
   * A password change's own checks and code, spent before its step-up grant's transaction (security.ts), so that a
   * wrong code's try is counted even though the change does not happen.
   */
  checkPasswordChange(user: UserRow, input: { new_password: string; auth_code: string; type: number }) {
    if (user.is_demo) fail('DemoNotAllowed');
    if (input.new_password.length < PASSWORD_MIN_LENGTH) fail('PasswordTooShort');
    const target =
      input.type === AccountType.Mobile && user.mobile ? this.mobileTarget(user.area_id ?? undefined, user.mobile) : user.email;
    if (!target) fail('CodeInvalid');
    this.useCode(target, CodePurpose.Reset, input.auth_code);
  }

  /** The new password; every other session ends. */
  changePassword(user: UserRow, currentToken: string, newPassword: string) {
    this.setPassword(user.id, newPassword);
    this.revokeAll(user.id, currentToken);
  }

  // ---- verification codes --------------------------------------------------------------------------

  /**
   * Sends a code by e-mail or SMS (into the outbox). A reset code goes only to an existing account, but
   * the answer is the same either way.
   */
  sendCode(
    channel: 'email' | 'sms',
    input: { to: string; type: number; area_id?: number },
    ip: string,
    user: UserRow | null,
    lang: Language = 'en',
  ) {
    const purpose = input.type;
    let to = input.to.trim();
    let target: string;
    if (channel === 'email') {
      to = to.toLowerCase();
      // A signed-in user asking for a password-change code gets it at their own address.
      if (user && purpose === CodePurpose.Reset && user.email) to = user.email;
      if (!EMAIL.test(to)) fail('EmailInvalid');
      target = to;
    } else {
      if (!MOBILE.test(to)) fail('MobileInvalid');
      target = this.mobileTarget(input.area_id, to);
    }
    const code = this.issueCode(target, purpose, ip);
    const exists =
      channel === 'email'
        ? !!this.db.prepare('SELECT 1 FROM users WHERE email = ?').get(target)
        : !!this.db.prepare('SELECT 1 FROM users WHERE mobile = ? AND area_id IS ?').get(to, input.area_id ?? null);
    const t = (key: string) => this.options.text(lang, `mail.${key}`, { code });
    if (purpose === CodePurpose.Reset && !exists) {
      this.deliver(channel, target, t('resetSubject'), t('noAccountBody'));
    } else if (purpose === CodePurpose.Register && exists) {
      this.deliver(channel, target, t('registerSubject'), t('existsBody'));
    } else {
      this.deliver(channel, target, t(purpose === CodePurpose.Register ? 'registerSubject' : 'resetSubject'), t('codeBody'));
    }
    return { resend_after: CODE_RESEND_MS / 1000, expires_in: CODE_TTL_MS / 1000 };
  }

  /** A new code for a target and purpose, under the resend and per-address rules; only its hash is kept. */
  private issueCode(target: string, purpose: number, ip: string): string {
    const now = this.options.clock();
    const last = this.db
      .prepare('SELECT created_at FROM verification_codes WHERE target = ? AND purpose = ? ORDER BY id DESC LIMIT 1')
      .get(target, purpose) as { created_at: number } | undefined;
    if (last && now - last.created_at < CODE_RESEND_MS) fail('CodeTooSoon');
    if (!this.codesPerIp.take(ip)) fail('RateLimited');
    const code = sixDigitCode();
    this.db
      .prepare('INSERT INTO verification_codes (target, purpose, code_hash, created_at, expires_at) VALUES (?, ?, ?, ?, ?)')
      .run(target, purpose, sha256(`${target}|${code}`), now, now + CODE_TTL_MS);
    return code;
  }

  /** Where the owner's codes and notices go: the e-mail, else the phone (an account registered by phone). */
  contactOf(user: UserRow): { channel: 'email' | 'sms'; target: string } | null {
    if (user.email) return { channel: 'email', target: user.email };
    if (user.mobile && user.area_id !== null) return { channel: 'sms', target: this.mobileTarget(user.area_id, user.mobile) };
    return null;
  }

  /**
   * A step-up code (issue 38) for one action, sent to the owner (purpose: the action's own, so a code sent for one
   * action is no good for another); the same resend, expiry and try rules as every code.
   */
  sendStepUpCode(user: UserRow, purpose: number, actionWords: string, ip: string, lang: Language) {
    const contact = this.contactOf(user) ?? fail('DemoNotAllowed');
    const code = this.issueCode(contact.target, purpose, ip);
    const values = { code, action: actionWords };
    this.deliver(
      contact.channel,
      contact.target,
      this.options.text(lang, 'mail.stepUpSubject', values),
      this.options.text(lang, 'mail.stepUpBody', values),
    );
    return { channel: contact.channel, to: maskContact(contact.channel, contact.target) };
  }

  /** Spends a step-up code sent for this purpose (CodeInvalid when wrong, spent, expired or tried five times). */
  useStepUpCode(user: UserRow, purpose: number, code: string): void {
    const contact = this.contactOf(user) ?? fail('CodeInvalid');
    this.useCode(contact.target, purpose, code);
  }

  /** A notice to the owner (`mail.<key>Subject` and `…Body`), in the language of their last log-in. */
  notify(user: UserRow, key: string, values: Record<string, string>): void {
    const contact = this.contactOf(user);
    if (!contact) return;
    const lang = (user.lang ?? 'en') as Language;
    this.deliver(
      contact.channel,
      contact.target,
      this.options.text(lang, `mail.${key}Subject`, values),
      this.options.text(lang, `mail.${key}Body`, values),
    );
  }

  /** Checks and spends a code: single use, 10 minutes, at most 5 tries. */
  private useCode(target: string, purpose: number, code: string) {
    const now = this.options.clock();
    const row = this.db
      .prepare(
        `SELECT id, code_hash, tries FROM verification_codes
         WHERE target = ? AND purpose = ? AND used_at IS NULL AND expires_at > ? ORDER BY id DESC LIMIT 1`,
      )
      .get(target, purpose, now) as { id: number; code_hash: string; tries: number } | undefined;
    if (!row || row.tries >= CODE_MAX_TRIES) fail('CodeInvalid');
    const expected = Buffer.from(row.code_hash);
    const actual = Buffer.from(sha256(`${target}|${code.trim()}`));
    if (!crypto.timingSafeEqual(expected, actual)) {
      this.db.prepare('UPDATE verification_codes SET tries = tries + 1 WHERE id = ?').run(row.id);
      fail('CodeInvalid');
    }
    this.db.prepare('UPDATE verification_codes SET used_at = ? WHERE id = ?').run(now, row.id);
  }

  private deliver(channel: 'email' | 'sms', to: string, subject: string, body: string) {
    sendMessage(this.db, this.options, channel, to, subject, body);
  }

  // ---- helpers -------------------------------------------------------------------------------------

  private area(id: number | null | undefined) {
    if (id === undefined) return undefined;
    return this.db.prepare('SELECT id, code FROM area_codes WHERE id = ?').get(id) as { id: number; code: string } | undefined;
  }

  private mobileTarget(areaId: number | null | undefined, mobile: string): string {
    const area = this.area(areaId) ?? fail('AreaInvalid');
    return `+${area.code}${mobile}`;
  }

  private setPassword(userId: number, password: string) {
    this.db.prepare('UPDATE users SET password_hash = ? WHERE id = ?').run(hashPassword(password), userId);
  }

  private insertUser(u: {
    email: string | null;
    mobile: string | null;
    area_id: number | null;
    password: string | null;
    inviter: number | null;
    demoId: string | null;
  }): number {
    for (let attempt = 0; ; attempt++) {
      const uid = String(crypto.randomInt(10_000_000, 100_000_000));
      const invite = Array.from({ length: 6 }, () => 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789'[crypto.randomInt(32)]).join('');
      try {
        const info = this.db
          .prepare(
            `INSERT INTO users (uid, email, mobile, area_id, password_hash, is_demo, demo_id, invite_code, inviter_id, created_at)
             VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
          )
          .run(
            uid,
            u.email,
            u.mobile,
            u.area_id,
            u.password ? hashPassword(u.password) : null,
            u.demoId ? 1 : 0,
            u.demoId,
            invite,
            u.inviter,
            this.options.clock(),
          );
        return Number(info.lastInsertRowid);
      } catch (err) {
        // A collision of the random uid or invite code: draw again.
        if (attempt < 5 && String(err).includes('UNIQUE') && !String(err).includes('email')) continue;
        throw err;
      }
    }
  }
}

/** A time in notices: `2026-11-28 12:00` (UTC). */
export function utc(ms: number): string {
  return new Date(ms).toISOString().slice(0, 16).replace('T', ' ');
}

/** Where a code went, masked: `a***@example.com`, `***1234`. */
function maskContact(channel: 'email' | 'sms', target: string): string {
  if (channel === 'sms') return `***${target.slice(-4)}`;
  const at = target.indexOf('@');
  return `${target.slice(0, Math.min(1, at))}***${target.slice(at)}`;
}
