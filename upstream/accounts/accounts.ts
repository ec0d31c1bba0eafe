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
import type { CaptchaStore } from './captcha';
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
  private readonly userById;

  constructor(
    private readonly db: Db,
    private readonly ledger: Ledger,
    private readonly captcha: CaptchaStore,
    private readonly options: AccountsOptions,
  ) {
    this.loginPerAccount = new RateLimiter(10, 15 * 60 * 1000, options.clock);
    this.loginPerIp = new RateLimiter(LOGINS_PER_IP_PER_15_MIN, 15 * 60 * 1000, options.clock);
    this.codesPerIp = new RateLimiter(CODES_PER_IP_PER_HOUR, 60 * 60 * 1000, options.clock);
    const limit = (key: string, fallback: number) => () => Number(options.setting(key)) || fallback;
    this.demosPerIp = new RateLimiter(limit('demos_per_ip_per_hour', DEMOS_PER_IP_PER_HOUR), 60 * 60 * 1000, options.clock);
    this.captchasPerIp = new RateLimiter(limit('captchas_per_ip_per_10_min', CAPTCHAS_PER_IP_PER_10_MIN), 10 * 60 * 1000, options.clock);
    // Every authenticated call runs these: prepare them once.
    this.tokenLookup = db.prepare('SELECT user_id, expires_at, revoked_at FROM tokens WHERE hash = ?');
    this.tokenSlide = db.prepare('UPDATE tokens SET expires_at = ? WHERE hash = ?');
    this.userById = db.prepare('SELECT * FROM users WHERE id = ?');
  }

  // ---- sessions ------------------------------------------------------------------------------------

  /** The user behind a token, or null when it is missing, unknown, expired or revoked. */
  authenticate(token: string | undefined): UserRow | null {
    if (!token) return null;
    const now = this.options.clock();
    const hash = sha256(token);
    const row = this.tokenLookup.get(hash) as { user_id: number; expires_at: number; revoked_at: number | null } | undefined;
    if (!row || row.revoked_at !== null || row.expires_at <= now) return null;
    if (now + TOKEN_TTL_MS - row.expires_at > TOKEN_SLIDE_STEP_MS) this.tokenSlide.run(now + TOKEN_TTL_MS, hash);
    return this.user(row.user_id) ?? null;
  }

  issueToken(userId: number): string {
    const token = newToken();
    const now = this.options.clock();
    this.db
      .prepare('INSERT INTO tokens (hash, user_id, created_at, expires_at) VALUES (?, ?, ?, ?)')
      .run(sha256(token), userId, now, now + TOKEN_TTL_MS);
    return token;
  }

  revokeToken(token: string): void {
    this.db.prepare('UPDATE tokens SET revoked_at = ? WHERE hash = ? AND revoked_at IS NULL').run(this.options.clock(), sha256(token));
  }

  /** Revokes every token of the user except `keep`. */
  revokeAll(userId: number, keep?: string): void {
    this.db
      .prepare('UPDATE tokens SET revoked_at = ? WHERE user_id = ? AND revoked_at IS NULL AND hash != ?')
      .run(this.options.clock(), userId, keep ? sha256(keep) : '');
  }

  user(id: number): UserRow | undefined {
    return this.userById.get(id) as UserRow | undefined;
  }

  // ---- login and registration ----------------------------------------------------------------------

  login(input: { account: string; password: string; login_type: 'email' | 'mobile'; area_id?: number }, ip: string) {
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
    const ok = verifyPassword(input.password, user?.password_hash ?? DUMMY_HASH);
    if (!user || !ok) {
      this.loginPerAccount.take(pair);
      fail('LoginFailed');
    }
    this.loginPerAccount.reset(pair);
    return { token: this.issueToken(user.id), user };
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
    ip: string,
  ) {
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
    return { token: this.issueToken(user.id), user };
  }

  /** The device's demo account: created with the starting balance on the first call, the same one after. */
  demo(demoId: string, ip?: string) {
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
    return { token: this.issueToken(user.id), user };
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

  amendPassword(user: UserRow, currentToken: string, input: { new_password: string; auth_code: string; type: number }) {
    if (user.is_demo) fail('DemoNotAllowed');
    if (input.new_password.length < PASSWORD_MIN_LENGTH) fail('PasswordTooShort');
    const target =
      input.type === AccountType.Mobile && user.mobile ? this.mobileTarget(user.area_id ?? undefined, user.mobile) : user.email;
    if (!target) fail('CodeInvalid');
    this.useCode(target, CodePurpose.Reset, input.auth_code);
    this.setPassword(user.id, input.new_password);
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
    const now = this.options.clock();
    const last = this.db
      .prepare('SELECT created_at FROM verification_codes WHERE target = ? AND purpose = ? ORDER BY id DESC LIMIT 1')
      .get(target, purpose) as { created_at: number } | undefined;
    if (last && now - last.created_at < CODE_RESEND_MS) fail('CodeTooSoon');
    if (!this.codesPerIp.take(ip)) fail('RateLimited');
    const exists =
      channel === 'email'
        ? !!this.db.prepare('SELECT 1 FROM users WHERE email = ?').get(target)
        : !!this.db.prepare('SELECT 1 FROM users WHERE mobile = ? AND area_id IS ?').get(to, input.area_id ?? null);
    const code = sixDigitCode();
    this.db
      .prepare('INSERT INTO verification_codes (target, purpose, code_hash, created_at, expires_at) VALUES (?, ?, ?, ?, ?)')
      .run(target, purpose, sha256(`${target}|${code}`), now, now + CODE_TTL_MS);
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

  private area(id: number | undefined) {
    if (id === undefined) return undefined;
    return this.db.prepare('SELECT id, code FROM area_codes WHERE id = ?').get(id) as { id: number; code: string } | undefined;
  }

  private mobileTarget(areaId: number | undefined, mobile: string): string {
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
