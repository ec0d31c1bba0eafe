/**
 * Contract tests of the account and session calls (spec §7 "Account and session"): loginForU,
 * createAccountDemoForU, info, logout, register, send_email, send_sms and captcha, against a real
 * upstream. Each call: a success parsed with its contract schema, its business errors by exact code, and
 * 999 for calls that need a token.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { account, content, funds, identity, market, trade } from '../../contract/index';
import type { CallDef } from '../../contract/calls/define';
import { ERROR_MESSAGES } from '../../contract/errors';
import { startTestUpstream, type Envelope, type TestUpstream } from '../testing';
import {
  expectError,
  expectOk,
  expectSession,
  expectTokenRequired,
  freshEmail,
  lastCode,
  outbox,
  registerByEmail,
} from './contract-helpers';

const locales = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'locales');
const catalogue = (lang: string) =>
  JSON.parse(fs.readFileSync(path.join(locales, `${lang}.json`), 'utf8')) as { errors: Record<string, string> };

let up: TestUpstream;
/** A real account registered in beforeAll. */
let alice: { email: string; password: string; token: string; id: number };

beforeAll(async () => {
  up = await startTestUpstream();
  const email = freshEmail('alice');
  const session = await registerByEmail(up, email, 'alice-pass-1');
  alice = { email, password: 'alice-pass-1', token: session.token, id: session.user.id };
});
afterAll(() => up.close());

/** Registers an address with a captcha (verify_reg_type 2), so that no code is ever sent to it. */
async function registerByCaptcha(email: string): Promise<string> {
  await up.admin('POST', '/admin/setting', { key: 'verify_reg_type', value: '2' });
  try {
    const pic = expectOk(account.captcha, await up.call(account.captcha));
    const answer = ((await up.admin('GET', `/admin/captcha/${pic.id}`)).json as { answer: string }).answer;
    const env = await up.call(account.register, {
      account: email,
      password: 'secret123',
      re_password: 'secret123',
      key: pic.id,
      sms_code: answer,
    });
    expectOk(account.register, env);
    return email;
  } finally {
    await up.admin('POST', '/admin/setting', { key: 'verify_reg_type', value: '1' });
  }
}

test('every call of this file is served', () => {
  for (const call of [
    account.loginForU,
    account.createAccountDemoForU,
    account.info,
    account.logout,
    account.register,
    account.sendEmail,
    account.sendSms,
    account.captcha,
  ]) {
    expect(up.app.hasRoute({ method: call.method, url: call.path }), call.name).toBe(true);
  }
});

describe('loginForU', () => {
  test('the registered e-mail and password log in, in any letter case, with a new working token', async () => {
    const env = await up.call(account.loginForU, { account: alice.email.toUpperCase(), password: alice.password, login_type: 'email' });
    const session = expectSession(env);
    expect(session.user).toMatchObject({ id: alice.id, email: alice.email, is_demo: 0, mobile: null, area_id: null });
    expect(session.token).not.toBe(alice.token);
    expect(session.token.length).toBeGreaterThanOrEqual(32);
    const me = expectOk(account.info, await up.call(account.info, {}, { token: session.token }));
    expect(me.id).toBe(alice.id);
  });

  test('login_type defaults to email', async () => {
    const session = expectSession(await up.call(account.loginForU, { account: alice.email, password: alice.password }));
    expect(session.user.id).toBe(alice.id);
  });

  test('a wrong password and an unknown account both answer LoginFailed with the same message', async () => {
    const wrong = await up.call(account.loginForU, { account: alice.email, password: 'not-the-password', login_type: 'email' });
    expectError(wrong, 'LoginFailed');
    const unknown = await up.call(account.loginForU, { account: 'nobody@example.com', password: 'whatever1', login_type: 'email' });
    expectError(unknown, 'LoginFailed');
    expect(unknown.msg).toBe(wrong.msg);
  });

  test('a missing account or password is an invalid request', async () => {
    expectError(await up.call(account.loginForU, { password: 'x' }), 'InvalidRequest');
    expectError(await up.call(account.loginForU, { account: alice.email }), 'InvalidRequest');
    expectError(await up.call(account.loginForU, { account: '   ', password: 'x' }), 'InvalidRequest');
    expectError(await up.call(account.loginForU, { account: alice.email, password: 'x', login_type: 'fax' }), 'InvalidRequest');
  });

  test('the message follows the lang header (fr, jp), and an unknown language falls back to English', async () => {
    const input = { account: alice.email, password: 'not-the-password' };
    const fr = await up.call(account.loginForU, input, { lang: 'fr' });
    expectError(fr, 'LoginFailed');
    expect(fr.msg).toBe(catalogue('fr').errors.LoginFailed);
    const jp = await up.call(account.loginForU, input, { lang: 'jp' });
    expect(jp.msg).toBe(catalogue('jp').errors.LoginFailed);
    expect(jp.msg).not.toBe(fr.msg);
    const en = await up.call(account.loginForU, input, { lang: 'xx' });
    expect(en.msg).toBe(ERROR_MESSAGES.LoginFailed);
  });
});

describe('createAccountDemoForU', () => {
  test('a device id opens a demo account; the same id finds the same account, another id another one', async () => {
    const demoId = crypto.randomUUID();
    const first = expectOk(account.createAccountDemoForU, await up.call(account.createAccountDemoForU, { demo_id: demoId }));
    expect(first.user).toMatchObject({ is_demo: 1, email: null, mobile: null });
    const again = expectOk(account.createAccountDemoForU, await up.call(account.createAccountDemoForU, { demo_id: demoId }));
    expect(again.user.id).toBe(first.user.id);
    expect(again.user.uid).toBe(first.user.uid);
    expect(again.token).not.toBe(first.token);
    // Both sessions of the device stay valid.
    expect(expectOk(account.info, await up.call(account.info, {}, { token: first.token })).id).toBe(first.user.id);
    expect(expectOk(account.info, await up.call(account.info, {}, { token: again.token })).id).toBe(first.user.id);

    const other = expectOk(account.createAccountDemoForU, await up.call(account.createAccountDemoForU, { demo_id: crypto.randomUUID() }));
    expect(other.user.id).not.toBe(first.user.id);
    expect(other.user.is_demo).toBe(1);
  });

  test('a missing or malformed demo_id is refused', async () => {
    expectError(await up.call(account.createAccountDemoForU, {}), 'InvalidRequest');
    expectError(await up.call(account.createAccountDemoForU, { demo_id: 'not-a-uuid' }), 'InvalidRequest');
  });
});

describe('info', () => {
  test('answers the user behind the token', async () => {
    const me = expectOk(account.info, await up.call(account.info, {}, { token: alice.token }));
    expect(me).toMatchObject({ id: alice.id, email: alice.email, is_demo: 0, mobile: null, area_id: null });
    expect(me.uid).toMatch(/^\d{8}$/);
    expect(me.invite_code).toMatch(/^[A-Z0-9]{6}$/);
    expect(Number.isNaN(Date.parse(me.created_at))).toBe(false);
  });

  test('the token also works as a Bearer token', async () => {
    const me = expectOk(account.info, await up.call(account.info, {}, { token: `Bearer ${alice.token}` }));
    expect(me.id).toBe(alice.id);
  });

  test("999 with no token and with a bad token, its message in the caller's language", async () => {
    await expectTokenRequired(up, account.info);
    const fr = await up.call(account.info, {}, { lang: 'fr' });
    expectError(fr, 'TokenInvalid');
    expect(fr.msg).toBe(catalogue('fr').errors.TokenInvalid);
  });
});

describe('logout', () => {
  test('revokes only the token it was called with', async () => {
    const a = expectSession(await up.call(account.loginForU, { account: alice.email, password: alice.password }));
    const b = expectSession(await up.call(account.loginForU, { account: alice.email, password: alice.password }));
    const out = await up.call(account.logout, {}, { token: a.token });
    expect(expectOk(account.logout, out)).toBeNull();
    expectError(await up.call(account.info, {}, { token: a.token }), 'TokenInvalid');
    // Logging out twice: the token is gone.
    expectError(await up.call(account.logout, {}, { token: a.token }), 'TokenInvalid');
    // The other session of the same user is untouched.
    expect(expectOk(account.info, await up.call(account.info, {}, { token: b.token })).id).toBe(alice.id);
  });

  test('a demo session logs out too', async () => {
    const { token } = await up.demo();
    expectOk(account.logout, await up.call(account.logout, {}, { token }));
    expectError(await up.call(account.info, {}, { token }), 'TokenInvalid');
  });

  test('999 with no token and with a bad token', async () => {
    await expectTokenRequired(up, account.logout);
  });
});

describe('register', () => {
  test('an e-mail code from the outbox registers a real account, which can then log in', async () => {
    const email = freshEmail('Bob');
    expectOk(account.sendEmail, await up.call(account.sendEmail, { to: email, type: 1 }));
    const code = await lastCode(up, email.toLowerCase());
    const env = await up.call(account.register, {
      type: 1,
      account: email,
      password: 'bob-pass-1',
      re_password: 'bob-pass-1',
      sms_code: code,
    });
    const session = expectOk(account.register, env);
    expect(session.user).toMatchObject({ email: email.toLowerCase(), is_demo: 0, mobile: null, area_id: null });
    expect(session.user.uid).toMatch(/^\d{8}$/);
    expect(session.user.invite_code).toMatch(/^[A-Z0-9]{6}$/);
    expect(expectOk(account.info, await up.call(account.info, {}, { token: session.token })).id).toBe(session.user.id);

    const login = expectSession(await up.call(account.loginForU, { account: email, password: 'bob-pass-1', login_type: 'email' }));
    expect(login.user.id).toBe(session.user.id);
  });

  test('type defaults to e-mail; a valid invite code (any case) is accepted', async () => {
    const inviter = expectOk(account.info, await up.call(account.info, {}, { token: alice.token }));
    const email = freshEmail('invited');
    expectOk(account.sendEmail, await up.call(account.sendEmail, { to: email, type: 1 }));
    const code = await lastCode(up, email);
    const env = await up.call(account.register, {
      account: email,
      password: 'invited-1',
      re_password: 'invited-1',
      sms_code: code,
      invite_code: inviter.invite_code.toLowerCase(),
    });
    expect(expectOk(account.register, env).user.email).toBe(email);
  });

  test('a wrong code is CodeInvalid, and a code is bound to its own address', async () => {
    const email = freshEmail('wrongcode');
    expectOk(account.sendEmail, await up.call(account.sendEmail, { to: email, type: 1 }));
    const code = await lastCode(up, email);
    const wrong = code === '000000' ? '000001' : '000000';
    expectError(
      await up.call(account.register, { account: email, password: 'secret123', re_password: 'secret123', sms_code: wrong }),
      'CodeInvalid',
    );
    // Someone else's (valid) code does not register this address.
    const other = freshEmail('nocode');
    expectError(
      await up.call(account.register, { account: other, password: 'secret123', re_password: 'secret123', sms_code: code }),
      'CodeInvalid',
    );
    // The right code still works after one wrong try.
    expectOk(
      account.register,
      await up.call(account.register, { account: email, password: 'secret123', re_password: 'secret123', sms_code: code }),
    );
  });

  test('a code allows at most 5 tries: after 5 wrong ones the right code is refused too', async () => {
    const email = freshEmail('tries');
    expectOk(account.sendEmail, await up.call(account.sendEmail, { to: email, type: 1 }));
    const code = await lastCode(up, email);
    const wrong = code === '999999' ? '999998' : '999999';
    const input = { account: email, password: 'secret123', re_password: 'secret123' };
    for (let i = 0; i < 5; i++) expectError(await up.call(account.register, { ...input, sms_code: wrong }), 'CodeInvalid');
    expectError(await up.call(account.register, { ...input, sms_code: code }), 'CodeInvalid');
  });

  test('password rules: mismatch, too short', async () => {
    const email = freshEmail('pw');
    expectError(
      await up.call(account.register, { account: email, password: 'secret123', re_password: 'secret124', sms_code: '123456' }),
      'PasswordMismatch',
    );
    expectError(
      await up.call(account.register, { account: email, password: '12345', re_password: '12345', sms_code: '123456' }),
      'PasswordTooShort',
    );
  });

  test('address rules: invalid e-mail, already registered (any case), unknown invite code', async () => {
    const input = { password: 'secret123', re_password: 'secret123', sms_code: '123456' };
    expectError(await up.call(account.register, { ...input, account: 'not-an-email' }), 'EmailInvalid');
    expectError(await up.call(account.register, { ...input, account: alice.email.toUpperCase() }), 'AccountExists');
    expectError(await up.call(account.register, { ...input, account: freshEmail('inv'), invite_code: 'ZZZZZZ' }), 'InviteCodeInvalid');
  });

  test('missing fields are an invalid request', async () => {
    const email = freshEmail('missing');
    expectError(await up.call(account.register, { account: email, password: 'secret123', re_password: 'secret123' }), 'InvalidRequest');
    expectError(await up.call(account.register, { account: email, password: 'secret123', sms_code: '123456' }), 'InvalidRequest');
    expectError(await up.call(account.register, { password: 'secret123', re_password: 'secret123', sms_code: '123456' }), 'InvalidRequest');
    expectError(
      await up.call(account.register, { type: 7, account: email, password: 'secret123', re_password: 'secret123', sms_code: '1' }),
      'InvalidRequest',
    );
  });

  test('by mobile: an SMS code registers the phone, which then logs in with its area code', async () => {
    const mobile = `6${String(Date.now()).slice(-7)}`;
    expectOk(account.sendSms, await up.call(account.sendSms, { to: mobile, area_id: 1, type: 1 }));
    const code = await lastCode(up, `+852${mobile}`);
    const env = await up.call(account.register, {
      type: 2,
      area_id: 1,
      account: mobile,
      password: 'phone-pass',
      re_password: 'phone-pass',
      sms_code: code,
    });
    const session = expectOk(account.register, env);
    expect(session.user).toMatchObject({ mobile, area_id: 1, email: null, is_demo: 0 });

    const login = await up.call(account.loginForU, { account: mobile, password: 'phone-pass', login_type: 'mobile', area_id: 1 });
    expect(expectSession(login).user.id).toBe(session.user.id);
    // The same number under another area code is another account (none).
    expectError(
      await up.call(account.loginForU, { account: mobile, password: 'phone-pass', login_type: 'mobile', area_id: 2 }),
      'LoginFailed',
    );
    // Registering the same number again.
    expectError(
      await up.call(account.register, {
        type: 2,
        area_id: 1,
        account: mobile,
        password: 'phone-pass',
        re_password: 'phone-pass',
        sms_code: code,
      }),
      'AccountExists',
    );
  });

  test('by mobile: a bad number or area code is refused', async () => {
    const input = { type: 2, password: 'phone-pass', re_password: 'phone-pass', sms_code: '123456' };
    expectError(await up.call(account.register, { ...input, area_id: 1, account: '12ab' }), 'MobileInvalid');
    expectError(await up.call(account.register, { ...input, area_id: 9999, account: '61234567' }), 'AreaInvalid');
    expectError(await up.call(account.register, { ...input, account: '61234567' }), 'AreaInvalid');
  });

  test('with verify_reg_type 2 a captcha answer registers; a wrong answer is CaptchaInvalid and spends the picture', async () => {
    const set = await up.admin('POST', '/admin/setting', { key: 'verify_reg_type', value: '2' });
    expect(set.status).toBe(200);
    try {
      const basic = expectOk(account.getBasicInfo, await up.call(account.getBasicInfo));
      expect(basic.verify_reg_type).toBe(2);

      const pic = expectOk(account.captcha, await up.call(account.captcha));
      const peek = await up.admin('GET', `/admin/captcha/${pic.id}`);
      const answer = (peek.json as { answer: string }).answer;
      expect(answer).toMatch(/^[A-Z0-9]{5}$/);
      const email = freshEmail('captcha');
      const ok = await up.call(account.register, {
        account: email,
        password: 'secret123',
        re_password: 'secret123',
        key: pic.id,
        sms_code: answer,
      });
      expect(expectOk(account.register, ok).user.email).toBe(email);
      // No e-mail code was needed.
      expect(await outbox(up, email)).toEqual([]);

      // A wrong answer, then the right answer on the same (spent) picture.
      const pic2 = expectOk(account.captcha, await up.call(account.captcha));
      const answer2 = ((await up.admin('GET', `/admin/captcha/${pic2.id}`)).json as { answer: string }).answer;
      const wrong = answer2 === 'AAAAA' ? 'BBBBB' : 'AAAAA';
      const email2 = freshEmail('captcha');
      const input = { account: email2, password: 'secret123', re_password: 'secret123', key: pic2.id };
      expectError(await up.call(account.register, { ...input, sms_code: wrong }), 'CaptchaInvalid');
      expectError(await up.call(account.register, { ...input, sms_code: answer2 }), 'CaptchaInvalid');
      // No key, or an unknown key.
      expectError(await up.call(account.register, { ...input, key: undefined, sms_code: answer2 }), 'CaptchaInvalid');
      expectError(await up.call(account.register, { ...input, key: 'f'.repeat(32), sms_code: answer2 }), 'CaptchaInvalid');

      // The answer is not case-sensitive.
      const pic3 = expectOk(account.captcha, await up.call(account.captcha));
      const answer3 = ((await up.admin('GET', `/admin/captcha/${pic3.id}`)).json as { answer: string }).answer;
      expectOk(account.register, await up.call(account.register, { ...input, key: pic3.id, sms_code: answer3.toLowerCase() }));
    } finally {
      await up.admin('POST', '/admin/setting', { key: 'verify_reg_type', value: '1' });
    }
  });
});

describe('send_email', () => {
  test('a registration code goes to the outbox; asking again within 60 s is CodeTooSoon', async () => {
    const email = freshEmail('Send');
    const env = await up.call(account.sendEmail, { to: email, type: 1 });
    expect(expectOk(account.sendEmail, env)).toEqual({ resend_after: 60, expires_in: 600 });
    const [mail] = await outbox(up, email);
    expect(mail).toMatchObject({ channel: 'email', recipient: email.toLowerCase() });
    expect(mail!.body).toMatch(/\b\d{6}\b/);

    expectError(await up.call(account.sendEmail, { to: email, type: 1 }), 'CodeTooSoon');
    expectError(await up.call(account.sendEmail, { to: email.toUpperCase(), type: 1 }), 'CodeTooSoon');
    expect(await outbox(up, email)).toHaveLength(1);
  });

  test('answers do not reveal whether an account exists', async () => {
    const same = { resend_after: 60, expires_in: 600 };
    // A reset code for an address with no account: the same answer, and no code is delivered.
    const nobody = freshEmail('nobody');
    expect(expectOk(account.sendEmail, await up.call(account.sendEmail, { to: nobody, type: 2 }))).toEqual(same);
    const [noAccount] = await outbox(up, nobody);
    expect(noAccount!.body).not.toMatch(/\b\d{6}\b/);

    // A registered address (registered by captcha, so no code was sent to it yet).
    const registered = await registerByCaptcha(freshEmail('taken'));
    // A registration code for it: the same answer, and no code is delivered.
    expect(expectOk(account.sendEmail, await up.call(account.sendEmail, { to: registered, type: 1 }))).toEqual(same);
    const [taken] = await outbox(up, registered);
    expect(taken!.body).not.toMatch(/\b\d{6}\b/);
    // A reset code for it: the same answer, and this time a code.
    expect(expectOk(account.sendEmail, await up.call(account.sendEmail, { to: registered, type: 2 }))).toEqual(same);
    expect(await lastCode(up, registered)).toMatch(/^\d{6}$/);
  });

  test('a bad address, an unknown type or a missing field is refused', async () => {
    expectError(await up.call(account.sendEmail, { to: 'not-an-email', type: 1 }), 'EmailInvalid');
    expectError(await up.call(account.sendEmail, { to: freshEmail('t'), type: 3 }), 'InvalidRequest');
    expectError(await up.call(account.sendEmail, { type: 1 }), 'InvalidRequest');
    expectError(await up.call(account.sendEmail, { to: freshEmail('t') }), 'InvalidRequest');
  });
});

describe('send_sms', () => {
  test('a code goes to +<area code><number>; asking again within 60 s is CodeTooSoon', async () => {
    const mobile = `9${String(Date.now()).slice(-7)}`;
    const env = await up.call(account.sendSms, { to: mobile, area_id: 4, type: 1 });
    expect(expectOk(account.sendSms, env)).toEqual({ resend_after: 60, expires_in: 600 });
    const areas = expectOk(account.areaList, await up.call(account.areaList));
    const area = areas.find((a) => a.id === 4)!;
    const [sms] = await outbox(up, `+${area.code}${mobile}`);
    expect(sms).toMatchObject({ channel: 'sms', recipient: `+${area.code}${mobile}` });
    expect(sms!.body).toMatch(/\b\d{6}\b/);
    expectError(await up.call(account.sendSms, { to: mobile, area_id: 4, type: 1 }), 'CodeTooSoon');
  });

  test('a bad number, an unknown area code or a missing area is refused', async () => {
    expectError(await up.call(account.sendSms, { to: '12ab', area_id: 1, type: 1 }), 'MobileInvalid');
    expectError(await up.call(account.sendSms, { to: '61234567', area_id: 9999, type: 1 }), 'AreaInvalid');
    expectError(await up.call(account.sendSms, { to: '61234567', type: 1 }), 'InvalidRequest');
    expectError(await up.call(account.sendSms, { to: '61234567', area_id: 1, type: 9 }), 'InvalidRequest');
  });
});

describe('captcha', () => {
  test('answers a picture (an SVG data URL) with a fresh id each time', async () => {
    const a = expectOk(account.captcha, await up.call(account.captcha));
    const b = expectOk(account.captcha, await up.call(account.captcha));
    expect(a.id).not.toBe(b.id);
    expect(a.id).toMatch(/^[0-9a-f]{32}$/);
    expect(a.b64s.startsWith('data:image/svg+xml;base64,')).toBe(true);
    const svg = Buffer.from(a.b64s.slice('data:image/svg+xml;base64,'.length), 'base64').toString('utf8');
    expect(svg).toMatch(/^<svg[\s\S]*<\/svg>$/);
    const answer = ((await up.admin('GET', `/admin/captcha/${a.id}`)).json as { answer: string }).answer;
    // The answer is drawn as strokes, never written as text (issue 9 #7).
    expect(answer).toMatch(/^[A-Z2-9]{5}$/);
    expect(svg).not.toContain('<text');
    expect(svg).not.toContain(answer);
  });

  test('a picture is good for one answer only (the error side: CaptchaInvalid on reuse)', async () => {
    await up.admin('POST', '/admin/setting', { key: 'verify_reg_type', value: '2' });
    try {
      const pic = expectOk(account.captcha, await up.call(account.captcha));
      const answer = ((await up.admin('GET', `/admin/captcha/${pic.id}`)).json as { answer: string }).answer;
      const first = freshEmail('pic');
      expectOk(
        account.register,
        await up.call(account.register, { account: first, password: 'secret123', re_password: 'secret123', key: pic.id, sms_code: answer }),
      );
      const second = freshEmail('pic');
      expectError(
        await up.call(account.register, {
          account: second,
          password: 'secret123',
          re_password: 'secret123',
          key: pic.id,
          sms_code: answer,
        }),
        'CaptchaInvalid',
      );
    } finally {
      await up.admin('POST', '/admin/setting', { key: 'verify_reg_type', value: '1' });
    }
  });
});

describe('request bodies', () => {
  const post = async (body: string, contentType: string) => {
    const res = await fetch(new URL(account.loginForU.path, up.url), {
      method: 'POST',
      headers: { 'content-type': contentType, lang: 'en' },
      body,
    });
    return { status: res.status, env: (await res.json()) as Envelope };
  };

  test('a JSON body is accepted as well as a form', async () => {
    const { status, env } = await post(JSON.stringify({ account: alice.email, password: alice.password }), 'application/json');
    expect(status).toBe(200);
    expect(expectSession(env).user.id).toBe(alice.id);
  });

  test('a malformed or empty JSON body is a business error in the envelope (HTTP 200, InvalidRequest), like any bad request', async () => {
    for (const body of ['{"account": "a@b.co", "password": ', '']) {
      const { status, env } = await post(body, 'application/json');
      expect(status, `body ${JSON.stringify(body)}`).toBe(200);
      expectError(env, 'InvalidRequest');
    }
  });
});

describe('the token rule across the whole API', () => {
  test('every served call whose auth is required answers 999 with no token or a bad one', async () => {
    const all = [account, market, trade, content, funds, identity].flatMap((ns) =>
      Object.values(ns).filter((v): v is CallDef => typeof v === 'object' && v !== null && 'path' in v && 'auth' in v && 'response' in v),
    );
    const served = all.filter((c) => up.app.hasRoute({ method: c.method, url: c.path }));
    const required = served.filter((c) => c.auth === 'required');
    expect(required.map((c) => c.name)).toEqual(
      expect.arrayContaining(['info', 'logout', 'amend_password', 'submit', 'my_deal', 'close', 'cancel_trade', 'set_stop_price']),
    );
    for (const call of required) await expectTokenRequired(up, call);
  });
});
