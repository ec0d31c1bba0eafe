/**
 * Contract tests of the password calls (forget_password, amend_password) and of the time rules of codes
 * and tokens (60 s resend, 10 min code life, 30-day sliding token). The upstream runs on a clock the test
 * can move forward, so nothing here waits.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { account } from '../../contract/index';
import { startTestUpstream, type TestUpstream } from '../testing';
import type { Envelope } from '../testing';
import crypto from 'node:crypto';
import { CAPTCHAS_PER_IP_PER_10_MIN, CODES_PER_IP_PER_HOUR, DEMOS_PER_IP_PER_HOUR } from '../accounts/accounts';
import { ACCOUNT_PASSWORD_ALLOWANCE } from '../accounts/guess-guard';
import { ErrorCode } from '../../contract/errors';
import {
  expectError,
  expectOk,
  expectSession,
  expectTokenRequired,
  freshEmail,
  grantFor,
  lastCode,
  registerByEmail,
} from './contract-helpers';

let up: TestUpstream;
let offsetMs = 0;
const MINUTE = 60_000;
const DAY = 24 * 60 * MINUTE;

beforeAll(async () => {
  up = await startTestUpstream({ clock: () => Date.now() + offsetMs });
});
afterAll(() => up.close());

/** Moves the upstream's clock forward. */
function advance(ms: number) {
  offsetMs += ms;
}

const login = (email: string, password: string) => up.call(account.loginForU, { account: email, password, login_type: 'email' });

test('every call of this file is served', () => {
  for (const call of [account.forgetPassword, account.amendPassword]) {
    expect(up.app.hasRoute({ method: call.method, url: call.path }), call.name).toBe(true);
  }
});

describe('forget_password', () => {
  test('a reset code sets a new password, revokes every old token, and the new password logs in', async () => {
    const email = freshEmail('forgot');
    const first = await registerByEmail(up, email, 'old-pass-1');
    const second = expectSession(await login(email, 'old-pass-1'));

    expectOk(account.sendEmail, await up.call(account.sendEmail, { to: email.toUpperCase(), type: 2 }));
    const code = await lastCode(up, email);
    const env = await up.call(account.forgetPassword, {
      type: 1,
      account: email.toUpperCase(),
      new_password: 'new-pass-1',
      secondary_password: 'new-pass-1',
      auth_code: code,
    });
    expect(expectOk(account.forgetPassword, env)).toBeNull();

    expectError(await up.call(account.info, {}, { token: first.token }), 'TokenInvalid');
    expectError(await up.call(account.info, {}, { token: second.token }), 'TokenInvalid');
    expectError(await login(email, 'old-pass-1'), 'LoginFailed');
    const fresh = expectSession(await login(email, 'new-pass-1'));
    expect(fresh.user.id).toBe(first.user.id);
    expect(expectOk(account.info, await up.call(account.info, {}, { token: fresh.token })).email).toBe(email);

    // The code was single use.
    const again = { type: 1, account: email, new_password: 'other-pass', secondary_password: 'other-pass', auth_code: code };
    expectError(await up.call(account.forgetPassword, again), 'CodeInvalid');
    expect(expectSession(await login(email, 'new-pass-1')).user.id).toBe(first.user.id);
  });

  test('password mismatch, too short, a wrong code, and an address with no account are refused', async () => {
    const email = freshEmail('forgot-err');
    await registerByEmail(up, email, 'keep-pass-1');
    expectOk(account.sendEmail, await up.call(account.sendEmail, { to: email, type: 2 }));
    const code = await lastCode(up, email);
    const base = { type: 1, account: email, auth_code: code };
    expectError(
      await up.call(account.forgetPassword, { ...base, new_password: 'new-pass-1', secondary_password: 'new-pass-2' }),
      'PasswordMismatch',
    );
    expectError(await up.call(account.forgetPassword, { ...base, new_password: '12345', secondary_password: '12345' }), 'PasswordTooShort');
    const wrong = code === '000000' ? '000001' : '000000';
    expectError(
      await up.call(account.forgetPassword, { ...base, auth_code: wrong, new_password: 'new-pass-1', secondary_password: 'new-pass-1' }),
      'CodeInvalid',
    );
    // Nothing changed: the old password still logs in.
    expectSession(await login(email, 'keep-pass-1'));

    // An address that has no account: no code was ever delivered, so any code is invalid.
    const nobody = freshEmail('nobody');
    expectOk(account.sendEmail, await up.call(account.sendEmail, { to: nobody, type: 2 }));
    expectError(
      await up.call(account.forgetPassword, {
        type: 1,
        account: nobody,
        auth_code: '123456',
        new_password: 'new-pass-1',
        secondary_password: 'new-pass-1',
      }),
      'CodeInvalid',
    );
  });

  test('by mobile: an SMS reset code sets the password of the phone account', async () => {
    const mobile = `7${String(Date.now()).slice(-7)}`;
    expectOk(account.sendSms, await up.call(account.sendSms, { to: mobile, area_id: 2, type: 1 }));
    const areas = expectOk(account.areaList, await up.call(account.areaList));
    const target = `+${areas.find((a) => a.id === 2)!.code}${mobile}`;
    const reg = await up.call(account.register, {
      type: 2,
      area_id: 2,
      account: mobile,
      password: 'phone-old-1',
      re_password: 'phone-old-1',
      sms_code: await lastCode(up, target),
    });
    const session = expectOk(account.register, reg);

    expectOk(account.sendSms, await up.call(account.sendSms, { to: mobile, area_id: 2, type: 2 }));
    const code = await lastCode(up, target);
    const env = await up.call(account.forgetPassword, {
      type: 2,
      area_id: 2,
      account: mobile,
      new_password: 'phone-new-1',
      secondary_password: 'phone-new-1',
      auth_code: code,
    });
    expectOk(account.forgetPassword, env);
    expectError(await up.call(account.info, {}, { token: session.token }), 'TokenInvalid');
    const byPhone = (password: string) => up.call(account.loginForU, { account: mobile, password, login_type: 'mobile', area_id: 2 });
    expectError(await byPhone('phone-old-1'), 'LoginFailed');
    expect(expectSession(await byPhone('phone-new-1')).user.id).toBe(session.user.id);
  });

  test('missing fields are an invalid request', async () => {
    const email = freshEmail('forgot-missing');
    expectError(
      await up.call(account.forgetPassword, { account: email, new_password: 'new-pass-1', secondary_password: 'new-pass-1' }),
      'InvalidRequest',
    );
    expectError(
      await up.call(account.forgetPassword, { account: email, new_password: 'new-pass-1', auth_code: '123456' }),
      'InvalidRequest',
    );
    expectError(
      await up.call(account.forgetPassword, { new_password: 'new-pass-1', secondary_password: 'new-pass-1', auth_code: '1' }),
      'InvalidRequest',
    );
  });
});

describe('amend_password', () => {
  test('changes the password: the current token keeps working, another token of the user is revoked', async () => {
    const email = freshEmail('amend');
    const current = await registerByEmail(up, email, 'amend-old-1');
    const other = expectSession(await login(email, 'amend-old-1'));

    const grant = await grantFor(up, current.token, 'change_password');
    // A signed-in user's reset code goes to the account's own address, whatever `to` says.
    expectOk(account.sendEmail, await up.call(account.sendEmail, { to: freshEmail('elsewhere'), type: 2 }, { token: current.token }));
    const code = await lastCode(up, email);
    const env = await up.call(
      account.amendPassword,
      { new_password: 'amend-new-1', auth_code: code, type: 1, grant },
      { token: current.token },
    );
    expect(expectOk(account.amendPassword, env)).toBeNull();

    expect(expectOk(account.info, await up.call(account.info, {}, { token: current.token })).id).toBe(current.user.id);
    expectError(await up.call(account.info, {}, { token: other.token }), 'TokenInvalid');
    expectError(await login(email, 'amend-old-1'), 'LoginFailed');
    expect(expectSession(await login(email, 'amend-new-1')).user.id).toBe(current.user.id);
  });

  test('a wrong code, a short password, a demo account and missing fields are refused', async () => {
    const email = freshEmail('amend-err');
    const me = await registerByEmail(up, email, 'amend-keep-1');
    const token = me.token;
    // A refusal keeps the grant: one serves every case here.
    const grant = await grantFor(up, token, 'change_password');
    expectError(
      await up.call(account.amendPassword, { new_password: 'amend-new-1', auth_code: '123456', type: 1, grant }, { token }),
      'CodeInvalid',
    );
    expectError(
      await up.call(account.amendPassword, { new_password: '123', auth_code: '123456', type: 1, grant }, { token }),
      'PasswordTooShort',
    );
    expectError(await up.call(account.amendPassword, { auth_code: '123456', type: 1 }, { token }), 'InvalidRequest');
    expectError(await up.call(account.amendPassword, { new_password: 'amend-new-1', type: 1 }, { token }), 'InvalidRequest');
    expectSession(await login(email, 'amend-keep-1'));

    const demo = await up.demo();
    expectError(
      await up.call(account.amendPassword, { new_password: 'amend-new-1', auth_code: '123456', type: 1 }, { token: demo.token }),
      'DemoNotAllowed',
    );
  });

  test('999 with no token and with a bad token', async () => {
    await expectTokenRequired(up, account.amendPassword, { new_password: 'amend-new-1', auth_code: '123456', type: 1 });
  });
});

describe('time rules (the clock is moved, not waited for)', () => {
  test('a code can be asked again after 60 s; the newest code counts', async () => {
    const email = freshEmail('resend');
    expectOk(account.sendEmail, await up.call(account.sendEmail, { to: email, type: 1 }));
    const firstCode = await lastCode(up, email);
    advance(59 * 1000);
    expectError(await up.call(account.sendEmail, { to: email, type: 1 }), 'CodeTooSoon');
    advance(2 * 1000);
    expectOk(account.sendEmail, await up.call(account.sendEmail, { to: email, type: 1 }));
    const secondCode = await lastCode(up, email);
    const input = { account: email, password: 'secret123', re_password: 'secret123' };
    if (secondCode !== firstCode) expectError(await up.call(account.register, { ...input, sms_code: firstCode }), 'CodeInvalid');
    expectOk(account.register, await up.call(account.register, { ...input, sms_code: secondCode }));
  });

  test('a code expires after 10 minutes', async () => {
    const email = freshEmail('expire');
    expectOk(account.sendEmail, await up.call(account.sendEmail, { to: email, type: 1 }));
    const code = await lastCode(up, email);
    advance(10 * MINUTE + 1000);
    expectError(
      await up.call(account.register, { account: email, password: 'secret123', re_password: 'secret123', sms_code: code }),
      'CodeInvalid',
    );
  });

  test('a token lasts 30 days from its last use', async () => {
    const email = freshEmail('token');
    await registerByEmail(up, email, 'token-pass');
    const used = expectSession(await login(email, 'token-pass'));
    const idle = expectSession(await login(email, 'token-pass'));
    advance(20 * DAY);
    expectOk(account.info, await up.call(account.info, {}, { token: used.token }));
    advance(11 * DAY);
    // 31 days after login: the idle token expired, the one used on day 20 slid forward.
    expectError(await up.call(account.info, {}, { token: idle.token }), 'TokenInvalid');
    expectOk(account.info, await up.call(account.info, {}, { token: used.token }));
  });
});

describe('rate limits (per account and per IP)', () => {
  test('after 10 wrong passwords from one address, that address is RateLimited on that account; the owner elsewhere is not locked out', async () => {
    const email = freshEmail('limited');
    await registerByEmail(up, email, 'limit-pass');
    const from = (ip: string, password: string) => up.call(account.loginForU, { account: email, password }, { ip });
    for (let i = 0; i < 10; i++) expectError(await from('198.51.100.66', `wrong-${i}`), 'LoginFailed');
    expectError(await from('198.51.100.66', 'limit-pass'), 'RateLimited');
    // Issue 9 #6: the attacker's failures do not lock the owner, who logs in from their own address.
    expectSession(await from('203.0.113.7', 'limit-pass'));
    // Failures from many addresses share one allowance per account (issue 38; contract-security.test.ts): past it
    // they pause, and the owner's address (known from the log-in above) still gets in.
    const spread: number[] = [];
    for (let i = 0; i < 30; i++) spread.push((await from(`198.51.100.${i}`, 'wrong')).code);
    expect(spread.filter((c) => c === ErrorCode.LoginFailed)).toHaveLength(ACCOUNT_PASSWORD_ALLOWANCE - 10);
    expect(spread.filter((c) => c === ErrorCode.RateLimited)).toHaveLength(30 - (ACCOUNT_PASSWORD_ALLOWANCE - 10));
    expectSession(await from('203.0.113.7', 'limit-pass'));
    for (let i = 0; i < 10; i++) expectError(await login(email, `wrong-${i}`), 'LoginFailed');
    expectError(await login(email, 'limit-pass'), 'RateLimited');
    // Another account from the same place is not affected.
    const other = freshEmail('unlimited');
    await registerByEmail(up, other, 'other-pass');
    expectSession(await login(other, 'other-pass'));
    advance(15 * MINUTE + 1000);
    expectSession(await login(email, 'limit-pass'));
  });

  test(`at most ${CODES_PER_IP_PER_HOUR} codes per hour from one IP`, async () => {
    advance(61 * MINUTE);
    for (let i = 0; i < CODES_PER_IP_PER_HOUR; i++)
      expectOk(account.sendEmail, await up.call(account.sendEmail, { to: freshEmail('flood'), type: 1 }));
    const limited = await up.call(account.sendEmail, { to: freshEmail('flood'), type: 1 });
    expectError(limited, 'RateLimited');
    expectError(await up.call(account.sendSms, { to: '61234567', area_id: 1, type: 1 }), 'RateLimited');
    // The web server names each user's address: another person behind it is not limited.
    const forwarded = await fetch(new URL(account.sendEmail.path, up.url), {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-forwarded-for': '203.0.113.9', lang: 'en' },
      body: new URLSearchParams({ to: freshEmail('other'), type: '1' }),
    });
    expectOk(account.sendEmail, (await forwarded.json()) as Envelope);
    advance(61 * MINUTE);
    expectOk(account.sendEmail, await up.call(account.sendEmail, { to: freshEmail('flood'), type: 1 }));
  });

  test('the back office may widen the codes an address may ask for (codes_per_ip_per_hour)', async () => {
    advance(61 * MINUTE);
    await up.admin('POST', '/admin/setting', { key: 'codes_per_ip_per_hour', value: String(CODES_PER_IP_PER_HOUR + 5) });
    for (let i = 0; i < CODES_PER_IP_PER_HOUR + 5; i++)
      expectOk(account.sendEmail, await up.call(account.sendEmail, { to: freshEmail('wide'), type: 1 }));
    expectError(await up.call(account.sendEmail, { to: freshEmail('wide'), type: 1 }), 'RateLimited');
    await up.admin('POST', '/admin/setting', { key: 'codes_per_ip_per_hour', value: '' });
    advance(61 * MINUTE);
  });
});

describe('creation limits per address (issue 9 #8)', () => {
  test(`at most ${DEMOS_PER_IP_PER_HOUR} new demo accounts an hour from one address; a known device always opens its own`, async () => {
    const ip = '198.51.100.200';
    const first = crypto.randomUUID();
    expectOk(account.createAccountDemoForU, await up.call(account.createAccountDemoForU, { demo_id: first }, { ip }));
    for (let i = 1; i < DEMOS_PER_IP_PER_HOUR; i++)
      expectOk(account.createAccountDemoForU, await up.call(account.createAccountDemoForU, { demo_id: crypto.randomUUID() }, { ip }));
    expectError(await up.call(account.createAccountDemoForU, { demo_id: crypto.randomUUID() }, { ip }), 'RateLimited');
    expectOk(account.createAccountDemoForU, await up.call(account.createAccountDemoForU, { demo_id: first }, { ip }));
    expectOk(
      account.createAccountDemoForU,
      await up.call(account.createAccountDemoForU, { demo_id: crypto.randomUUID() }, { ip: '198.51.100.201' }),
    );
    advance(61 * MINUTE);
    expectOk(account.createAccountDemoForU, await up.call(account.createAccountDemoForU, { demo_id: crypto.randomUUID() }, { ip }));
  });

  test(`at most ${CAPTCHAS_PER_IP_PER_10_MIN} captcha pictures per 10 minutes from one address`, async () => {
    const ip = '198.51.100.210';
    for (let i = 0; i < CAPTCHAS_PER_IP_PER_10_MIN; i++) expectOk(account.captcha, await up.call(account.captcha, {}, { ip }));
    expectError(await up.call(account.captcha, {}, { ip }), 'RateLimited');
    expectOk(account.captcha, await up.call(account.captcha, {}, { ip: '198.51.100.211' }));
  });
});
