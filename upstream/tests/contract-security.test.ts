/**
 * Contract tests of account security (issue 38) on a real upstream: the authenticator against RFC 6238, replay and
 * drift, recovery codes, the log-in's second step, step-up grants on every protected call (each refusal with its own
 * code), a new method's hold, notices, guessing one account from many addresses, signed-in devices, and a revoked
 * token's live feed. The upstream's clock stands still unless a test moves it.
 */
import { Secret } from 'otpauth';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import WebSocket from 'ws';
import { account, funds, market, passkeys, security, trade } from '../../contract/index';
import type { CallDef } from '../../contract/calls/define';
import { STEP_UP_TTL_MS, LOGIN_TICKET_TTL_MS, type StepUpAction } from '../../contract/calls/security';
import { ErrorCode } from '../../contract/errors';
import { ACCOUNT_CODE_ALLOWANCE, ACCOUNT_PASSWORD_ALLOWANCE } from '../accounts/guess-guard';
import { totpCode } from '../accounts/totp';
import { startTestUpstream, type TestUpstream } from '../testing';
import { expectError, expectOk, expectSession, freshEmail, grantFor, lastCode, outbox, registerByEmail } from './contract-helpers';

const HOLD_MS = 60_000;
const STEP = 30_000;
const MY_TRC20 = 'TJRabPrwbZy45sbavfcjinPJC18kjpRTv8';
let up: TestUpstream;
let now = Date.UTC(2026, 10, 20, 10, 0, 0);
const clock = () => up.upstream.options.clock();

beforeAll(async () => {
  up = await startTestUpstream({ clock: () => now, withdrawMethodHoldMs: HOLD_MS });
});
afterAll(() => up.close());

const login = (email: string, password = 'secret123', opts: { ip?: string; userAgent?: string } = {}) =>
  up.call(account.loginForU, { account: email, password, login_type: 'email' }, opts);

/** A user with the authenticator on: its secret, its recovery codes, the token that turned it on. */
async function totpUser() {
  const email = freshEmail('totp');
  const { token, user } = await registerByEmail(up, email);
  const setup = expectOk(security.totpSetup, await up.call(security.totpSetup, {}, { token }));
  const on = expectOk(security.totpConfirm, await up.call(security.totpConfirm, { code: totpCode(setup.secret, clock()) }, { token }));
  return { email, token, id: user.id, secret: setup.secret, recovery: on.recovery_codes };
}
/** The code of `steps` steps from now. */
const codeAt = (secret: string, steps = 0) => totpCode(secret, clock() + steps * STEP);
const stepUp = (token: string, action: StepUpAction, code: string, ip?: string) =>
  up.call(security.stepUp, { action, code }, { token, ip });

describe('the authenticator (RFC 6238)', () => {
  test("RFC 6238's SHA1 test vectors", () => {
    const secret = Secret.fromLatin1('12345678901234567890');
    const vectors: [number, string][] = [
      [59, '94287082'],
      [1111111109, '07081804'],
      [1111111111, '14050471'],
      [1234567890, '89005924'],
      [2000000000, '69279037'],
      [20000000000, '65353130'],
    ];
    for (const [t, code] of vectors) {
      expect(totpCode(secret, t * 1000, 8)).toBe(code);
      expect(totpCode(secret, t * 1000)).toBe(code.slice(2));
    }
    expect(totpCode(secret, 59_000)).toBe('287082');
  });

  test('setup answers a base32 secret and the otpauth URI; a new setup replaces the pending one, which expires', async () => {
    const email = freshEmail('setup');
    const { token } = await registerByEmail(up, email);
    const first = expectOk(security.totpSetup, await up.call(security.totpSetup, {}, { token }));
    expect(first.secret).toMatch(/^[A-Z2-7]{32}$/);
    expect(decodeURIComponent(first.uri)).toContain(`otpauth://totp/LotFX:${email}?`);
    expect(Object.fromEntries(new URL(first.uri).searchParams)).toMatchObject({
      issuer: 'LotFX',
      secret: first.secret,
      algorithm: 'SHA1',
      digits: '6',
      period: '30',
    });
    const second = expectOk(security.totpSetup, await up.call(security.totpSetup, {}, { token }));
    expectError(await up.call(security.totpConfirm, { code: codeAt(first.secret) }, { token }), 'FactorCodeInvalid');
    now += 10 * 60_000 + 1000;
    expectError(await up.call(security.totpConfirm, { code: codeAt(second.secret) }, { token }), 'FactorCodeInvalid');
    const third = expectOk(security.totpSetup, await up.call(security.totpSetup, {}, { token }));
    const on = expectOk(security.totpConfirm, await up.call(security.totpConfirm, { code: codeAt(third.secret) }, { token }));
    expect(on.recovery_codes).toHaveLength(10);
    for (const c of on.recovery_codes) expect(c).toMatch(/^[2-9a-hjkmnp-z]{4}-[2-9a-hjkmnp-z]{4}$/);
    expect(new Set(on.recovery_codes).size).toBe(10);
    expectError(await up.call(security.totpSetup, {}, { token }), 'TotpAlreadyOn');
    expect(expectOk(security.securityStatus, await up.call(security.securityStatus, {}, { token }))).toEqual({
      totp: true,
      passkeys: 0,
      recovery_codes_left: 10,
      step_up: 'totp',
      withdrawals_held_until: null,
    });
    // Only hashes are kept.
    const stored = up.upstream.db.prepare('SELECT code_hash FROM recovery_codes').all() as { code_hash: string }[];
    expect(stored.some((r) => on.recovery_codes.some((c) => r.code_hash.includes(c.replace('-', ''))))).toBe(false);
  });

  test("turning it on ends the user's other sessions, not the one that asked", async () => {
    const email = freshEmail('on-ends');
    const { token } = await registerByEmail(up, email);
    const other = expectSession(await login(email, 'secret123', { userAgent: 'Other phone' }));
    const { secret } = expectOk(security.totpSetup, await up.call(security.totpSetup, {}, { token }));
    expectOk(security.totpConfirm, await up.call(security.totpConfirm, { code: codeAt(secret) }, { token }));
    expect((await up.call(account.info, {}, { token })).code).toBe(1);
    expectError(await up.call(account.info, {}, { token: other.token }), 'TokenInvalid');
  });

  test('a code is accepted once (no replay), with ±1 step of drift and not ±2', async () => {
    const u = await totpUser();
    // The code that turned it on is spent.
    expectError(await stepUp(u.token, 'withdraw', codeAt(u.secret)), 'FactorCodeInvalid');
    now += STEP;
    const fresh = codeAt(u.secret);
    expectOk(security.stepUp, await stepUp(u.token, 'withdraw', fresh));
    expectError(await stepUp(u.token, 'withdraw', fresh), 'FactorCodeInvalid');

    now += 3 * STEP;
    expectOk(security.stepUp, await stepUp(u.token, 'withdraw', codeAt(u.secret, -1)));
    expectOk(security.stepUp, await stepUp(u.token, 'withdraw', codeAt(u.secret, +1)));
    expectError(await stepUp(u.token, 'withdraw', codeAt(u.secret, +2)), 'FactorCodeInvalid');
    now += 6 * STEP;
    // Two steps behind (and after the last accepted one): outside the window.
    expectError(await stepUp(u.token, 'withdraw', codeAt(u.secret, -2)), 'FactorCodeInvalid');
    expectOk(security.stepUp, await stepUp(u.token, 'withdraw', codeAt(u.secret)));
  });

  test('a recovery code works once, in either case and without its dash', async () => {
    const u = await totpUser();
    const [first, second] = u.recovery;
    expectOk(security.stepUp, await stepUp(u.token, 'bind_method', first!));
    expectError(await stepUp(u.token, 'bind_method', first!), 'FactorCodeInvalid');
    expectOk(security.stepUp, await stepUp(u.token, 'bind_method', second!.replace('-', '').toUpperCase()));
    expect(expectOk(security.securityStatus, await up.call(security.securityStatus, {}, { token: u.token })).recovery_codes_left).toBe(8);
    expectError(await stepUp(u.token, 'bind_method', 'abcd-efgh'), 'FactorCodeInvalid');
  });

  test('with the authenticator on, a step-up asks for it, not for a sent code', async () => {
    const u = await totpUser();
    expectError(await up.call(security.stepUpSend, { action: 'withdraw' }, { token: u.token }), 'StepUpUseFactor');
  });

  test('turning it off needs a factor_off grant; then a step-up is by e-mail again', async () => {
    const u = await totpUser();
    expectError(await up.call(security.totpDisable, {}, { token: u.token }), 'StepUpRequired');
    now += STEP;
    const { grant } = expectOk(security.stepUp, await stepUp(u.token, 'factor_off', codeAt(u.secret)));
    expectOk(security.totpDisable, await up.call(security.totpDisable, { grant }, { token: u.token }));
    expect(expectOk(security.securityStatus, await up.call(security.securityStatus, {}, { token: u.token }))).toMatchObject({
      totp: false,
      recovery_codes_left: 0,
      step_up: 'email',
    });
    expectSession(await login(u.email));
    expectError(await up.call(security.totpConfirm, { code: '123456' }, { token: u.token }), 'FactorCodeInvalid');
  });
});

describe("log-in's second step", () => {
  test('the right password answers a ticket, not a token; login_factor with a code answers the session', async () => {
    const u = await totpUser();
    const challenge = expectOk(account.loginForU, await login(u.email));
    expect(challenge).toEqual({ factor_required: true, ticket: expect.any(String), factors: ['totp'] });
    const ticket = (challenge as { ticket: string }).ticket;
    expectError(await login(u.email, 'wrong-pass'), 'LoginFailed');
    now += STEP;
    const session = expectOk(security.loginFactor, await up.call(security.loginFactor, { ticket, code: codeAt(u.secret) }));
    expect(session.user.id).toBe(u.id);
    expect((await up.call(account.info, {}, { token: session.token })).code).toBe(1);
    // Single use.
    now += STEP;
    expectError(await up.call(security.loginFactor, { ticket, code: codeAt(u.secret) }), 'LoginTicketInvalid');
    expectError(await up.call(security.loginFactor, { ticket: 'no-such-ticket', code: codeAt(u.secret) }), 'LoginTicketInvalid');
  });

  test('a recovery code also completes it, once', async () => {
    const u = await totpUser();
    const ticket = (expectOk(account.loginForU, await login(u.email)) as { ticket: string }).ticket;
    expectOk(security.loginFactor, await up.call(security.loginFactor, { ticket, code: u.recovery[0]! }));
    const again = (expectOk(account.loginForU, await login(u.email)) as { ticket: string }).ticket;
    expectError(await up.call(security.loginFactor, { ticket: again, code: u.recovery[0]! }), 'FactorCodeInvalid');
  });

  test('a ticket expires after five minutes and dies after five wrong codes', async () => {
    const u = await totpUser();
    const old = (expectOk(account.loginForU, await login(u.email)) as { ticket: string }).ticket;
    now += LOGIN_TICKET_TTL_MS + 1000;
    expectError(await up.call(security.loginFactor, { ticket: old, code: codeAt(u.secret) }), 'LoginTicketInvalid');

    const ticket = (expectOk(account.loginForU, await login(u.email)) as { ticket: string }).ticket;
    const wrong = codeAt(u.secret) === '000000' ? '000001' : '000000';
    for (let i = 0; i < 5; i += 1) expectError(await up.call(security.loginFactor, { ticket, code: wrong }), 'FactorCodeInvalid');
    expectError(await up.call(security.loginFactor, { ticket, code: codeAt(u.secret) }), 'LoginTicketInvalid');
  });
});

describe('step-up grants', () => {
  test('a code sent for one action: masked target, by e-mail; it serves that action only', async () => {
    const email = freshEmail('sent');
    const { token } = await registerByEmail(up, email);
    const sent = expectOk(security.stepUpSend, await up.call(security.stepUpSend, { action: 'withdraw' }, { token }));
    expect(sent).toEqual({ channel: 'email', to: `${email[0]}***${email.slice(email.indexOf('@'))}` });
    const code = await lastCode(up, email);
    expectError(await stepUp(token, 'bind_method', code), 'FactorCodeInvalid');
    expectError(await up.call(security.stepUpSend, { action: 'withdraw' }, { token }), 'CodeTooSoon');
    const grant = expectOk(security.stepUp, await stepUp(token, 'withdraw', code));
    expect(grant.expires_at).toBe(clock() + STEP_UP_TTL_MS);
    expectError(await stepUp(token, 'withdraw', code), 'FactorCodeInvalid');
  });

  test('an account registered by phone gets its code by SMS', async () => {
    const mobile = `5${String(Date.now()).slice(-7)}`;
    expectOk(account.sendSms, await up.call(account.sendSms, { to: mobile, area_id: 1, type: 1 }));
    const reg = await up.call(account.register, {
      type: 2,
      area_id: 1,
      account: mobile,
      password: 'phone-pass',
      re_password: 'phone-pass',
      sms_code: await lastCode(up, `+852${mobile}`),
    });
    const { token } = expectOk(account.register, reg);
    const sent = expectOk(security.stepUpSend, await up.call(security.stepUpSend, { action: 'bind_method' }, { token }));
    expect(sent).toEqual({ channel: 'sms', to: `***${mobile.slice(-4)}` });
    expectOk(security.stepUp, await stepUp(token, 'bind_method', await lastCode(up, `+852${mobile}`)));
    expect(expectOk(security.securityStatus, await up.call(security.securityStatus, {}, { token })).step_up).toBe('sms');
  });

  /** Each protected call, with input that would pass its own checks as far as the grant. */
  const PROTECTED: { call: CallDef; action: StepUpAction; input: Record<string, unknown> }[] = [
    { call: funds.bindDrawMethod, action: 'bind_method', input: { type: 1, draw_id: 1, dc_address: MY_TRC20 } },
    { call: funds.delDrawMethod, action: 'delete_method', input: { id: 1 } },
    { call: funds.draw, action: 'withdraw', input: { draw_currency_id: 1, number: '50', draw_method_id: 1 } },
    { call: account.amendPassword, action: 'change_password', input: { new_password: 'new-pass-1', auth_code: '123456', type: 1 } },
    { call: security.totpDisable, action: 'factor_off', input: {} },
  ];

  test.each(PROTECTED)(
    '$call.name: refused without a grant, with another user’s, another session’s, an expired one, one for another action',
    async ({ call, action, input }) => {
      // A fresh hour for the per-address code counters (each case sends a handful of codes from one address).
      now += 3_600_000;
      const email = freshEmail(`guard-${action}`);
      const me = await registerByEmail(up, email);
      const otherSession = expectSession(await login(email, 'secret123', { userAgent: 'Second browser' }));
      const stranger = await registerByEmail(up, freshEmail('stranger'));
      const attempt = (grant: string | undefined, token = me.token) => up.call(call, { ...input, grant }, { token });

      expectError(await attempt(undefined), 'StepUpRequired');
      expectError(await attempt(''), 'StepUpRequired');
      expectError(await attempt('made-up-grant'), 'StepUpInvalid');
      expectError(await attempt(await grantFor(up, stranger.token, action)), 'StepUpInvalid');
      expectError(await attempt(await grantFor(up, otherSession.token, action)), 'StepUpInvalid');
      const other: StepUpAction = action === 'withdraw' ? 'bind_method' : 'withdraw';
      expectError(await attempt(await grantFor(up, me.token, other)), 'StepUpWrongAction');
      const expiring = await grantFor(up, me.token, action);
      now += STEP_UP_TTL_MS;
      expectError(await attempt(expiring), 'StepUpExpired');
      // A demo account is refused as it always was.
      const demo = await up.demo();
      expectError(await attempt(undefined, demo.token), 'DemoNotAllowed');
    },
  );

  test('a grant is spent by the action that succeeds, not by one refused', async () => {
    const email = freshEmail('spend');
    const { token } = await registerByEmail(up, email);
    const grant = await grantFor(up, token, 'bind_method');
    const bind = (dc_address: string) => up.call(funds.bindDrawMethod, { type: 1, draw_id: 1, dc_address, grant }, { token });
    expectError(await bind('not-an-address'), 'AddressInvalid');
    expectOk(funds.bindDrawMethod, await bind(MY_TRC20));
    expectError(await bind(MY_TRC20), 'StepUpInvalid');
  });

  test('amend_password checks its grant before its code, and its own code still counts', async () => {
    const email = freshEmail('amend-grant');
    const { token } = await registerByEmail(up, email);
    // Without a grant the code is not spent.
    expectOk(account.sendEmail, await up.call(account.sendEmail, { to: email, type: 2 }, { token }));
    const code = await lastCode(up, email);
    expectError(
      await up.call(account.amendPassword, { new_password: 'new-pass-1', auth_code: code, type: 1 }, { token }),
      'StepUpRequired',
    );
    const grant = await grantFor(up, token, 'change_password');
    expectOk(
      account.amendPassword,
      await up.call(account.amendPassword, { new_password: 'new-pass-1', auth_code: code, type: 1, grant }, { token }),
    );
    expectSession(await login(email, 'new-pass-1'));
  });
});

describe('withdrawal methods and withdrawals', () => {
  test('a new method is held: usable_at, MethodHeld until then; binding and withdrawing each tell the owner', async () => {
    const email = freshEmail('hold');
    const { token, user } = await registerByEmail(up, email);
    const method = expectOk(
      funds.bindDrawMethod,
      await up.call(
        funds.bindDrawMethod,
        { type: 1, draw_id: 1, dc_address: MY_TRC20, grant: await grantFor(up, token, 'bind_method') },
        { token },
      ),
    );
    expect(method.usable_at).toBe(clock() + HOLD_MS);
    const [bound] = await outbox(up, email);
    expect(bound).toMatchObject({ channel: 'email', subject: 'A withdrawal method was added' });
    expect(bound!.body).toContain(MY_TRC20);
    const listed = expectOk(funds.getDrawMethod, await up.call(funds.getDrawMethod, { draw_type: 1 }, { token }));
    expect(listed[0]!.usable_at).toBe(method.usable_at);

    // Money to withdraw: 1,000 USD in, and 80 % of it traded (XAG/USD holds 50 USD a lot).
    await up.admin('POST', '/admin/balance', { user: String(user.id), amount: '1000', memo: 'funding' });
    up.forceMarket('XAGUSD', 'open');
    const xag = expectOk(market.tradeList, await up.call(market.tradeList, { searchCurrency: 'XAG' }))[0]!;
    const order = expectOk(
      trade.submit,
      await up.call(trade.submit, { type: 1, cont: '16', forex_id: xag.Id, status: 1, multiple: 20 }, { token }),
    );
    expectOk(trade.close, await up.call(trade.close, { id: order.Id }, { token }));

    const grant = await grantFor(up, token, 'withdraw');
    const draw = () => up.call(funds.draw, { draw_currency_id: 1, number: '100', draw_method_id: method.id, grant }, { token });
    expectError(await draw(), 'MethodHeld');
    now += HOLD_MS;
    const w = expectOk(funds.draw, await draw());
    expect(w.number).toBe(100);
    const [notice] = await outbox(up, email);
    expect(notice).toMatchObject({ subject: 'A withdrawal was requested' });
    expect(notice!.body).toContain('100.00 USD');

    // The operator's factor removal holds withdrawals for 72 hours.
    up.upstream.security.removeFactors(user.id, 'test operator', 'lost phone, identity checked');
    const fresh = expectSession(await login(email));
    const again = await up.call(
      funds.draw,
      { draw_currency_id: 1, number: '100', draw_method_id: method.id, grant: await grantFor(up, fresh.token, 'withdraw') },
      { token: fresh.token },
    );
    expectError(again, 'WithdrawalsHeld');
  });
});

describe('guessing one account from many addresses', () => {
  test(`50 addresses together get ${ACCOUNT_PASSWORD_ALLOWANCE} password guesses; the owner's own address still gets in, and anyone after the pause`, async () => {
    const email = freshEmail('guessed');
    await registerByEmail(up, email); // from 127.0.0.1: the owner's known address
    const answers: number[] = [];
    for (let i = 1; i <= 50; i += 1) answers.push((await login(email, `guess-${i}`, { ip: `198.51.100.${i}` })).code);
    expect(answers.filter((c) => c === ErrorCode.LoginFailed)).toHaveLength(ACCOUNT_PASSWORD_ALLOWANCE);
    expect(answers.filter((c) => c === ErrorCode.RateLimited)).toHaveLength(50 - ACCOUNT_PASSWORD_ALLOWANCE);
    // Even the right password from a new address waits out the pause; the owner's address does not.
    expectError(await login(email, 'secret123', { ip: '203.0.113.9' }), 'RateLimited');
    expectSession(await login(email));
    await new Promise((r) => setTimeout(r, 5200));
    expectSession(await login(email, 'secret123', { ip: '203.0.113.9' }));
  }, 30_000);

  test(`codes too: ${ACCOUNT_CODE_ALLOWANCE} wrong step-up codes from many addresses, then only the owner's address`, async () => {
    const u = await totpUser();
    const wrong = (i: number) => String((Number(codeAt(u.secret)) + 1 + i) % 1_000_000).padStart(6, '0');
    const answers: number[] = [];
    for (let i = 1; i <= 30; i += 1) answers.push((await stepUp(u.token, 'withdraw', wrong(i), `198.51.100.${i}`)).code);
    expect(answers.filter((c) => c === ErrorCode.FactorCodeInvalid).length).toBeLessThanOrEqual(ACCOUNT_CODE_ALLOWANCE);
    expect(answers.filter((c) => c === ErrorCode.RateLimited).length).toBeGreaterThanOrEqual(30 - ACCOUNT_CODE_ALLOWANCE);
    now += STEP;
    expectError(await stepUp(u.token, 'withdraw', codeAt(u.secret), '198.51.100.77'), 'RateLimited');
    expectOk(security.stepUp, await stepUp(u.token, 'withdraw', codeAt(u.secret)));
  });
});

describe('signed-in devices', () => {
  test('the list: device, masked address, first and last seen, current; ids that are not tokens', async () => {
    const email = freshEmail('devices');
    await registerByEmail(up, email);
    const phone = expectSession(await login(email, 'secret123', { ip: '203.0.113.7', userAgent: 'Phone A' }));
    const laptop = expectSession(await login(email, 'secret123', { ip: '2001:db8:85a3::8a2e:370:7334', userAgent: 'Laptop B' }));
    const [notice] = await outbox(up, email);
    expect(notice).toMatchObject({ subject: 'New sign-in to your account' });
    expect(notice!.body).toContain('Laptop B');

    const started = clock();
    now += 5 * 60_000;
    expect((await up.call(account.info, {}, { token: phone.token })).code).toBe(1);
    const list = expectOk(security.sessionList, await up.call(security.sessionList, {}, { token: phone.token }));
    expect(list).toHaveLength(3);
    const mine = list.find((s) => s.current)!;
    expect(mine).toMatchObject({ user_agent: 'Phone A', address: '203.0.113.x', created_at: started, last_seen_at: clock() });
    expect(list.find((s) => s.user_agent === 'Laptop B')).toMatchObject({ address: '2001:db8:85a3:…', current: false });
    for (const s of list) {
      expect(s.id).not.toBe(phone.token);
      expect(phone.token.includes(s.id) || laptop.token.includes(s.id)).toBe(false);
    }
    // Last seen is written at most once a minute.
    now += 20_000;
    await up.call(account.info, {}, { token: phone.token });
    const again = expectOk(security.sessionList, await up.call(security.sessionList, {}, { token: phone.token }));
    expect(again.find((s) => s.current)!.last_seen_at).toBe(mine.last_seen_at);
  });

  test("session_end ends one of the caller's own sessions; session_end_others every other", async () => {
    const email = freshEmail('end');
    const first = await registerByEmail(up, email);
    const b = expectSession(await login(email, 'secret123', { userAgent: 'B' }));
    const c = expectSession(await login(email, 'secret123', { userAgent: 'C' }));
    const stranger = await registerByEmail(up, freshEmail('end-stranger'));
    const list = expectOk(security.sessionList, await up.call(security.sessionList, {}, { token: first.token }));
    const bId = list.find((s) => s.user_agent === 'B')!.id;

    expectError(await up.call(security.sessionEnd, { id: bId }, { token: stranger.token }), 'SessionNotFound');
    expectError(await up.call(security.sessionEnd, { id: 'no-such-session' }, { token: first.token }), 'SessionNotFound');
    expectOk(security.sessionEnd, await up.call(security.sessionEnd, { id: bId }, { token: first.token }));
    expectError(await up.call(account.info, {}, { token: b.token }), 'TokenInvalid');
    expectError(await up.call(security.sessionEnd, { id: bId }, { token: first.token }), 'SessionNotFound');

    expectOk(security.sessionEndOthers, await up.call(security.sessionEndOthers, {}, { token: first.token }));
    expectError(await up.call(account.info, {}, { token: c.token }), 'TokenInvalid');
    expect((await up.call(account.info, {}, { token: first.token })).code).toBe(1);
    expect(expectOk(security.sessionList, await up.call(security.sessionList, {}, { token: first.token }))).toHaveLength(1);
    expect((await up.call(account.info, {}, { token: stranger.token })).code).toBe(1);
  });

  test("a revoked token's live feed ends at once: its socket is told login_result 999 and gets no more private pushes", async () => {
    const email = freshEmail('feed');
    const first = await registerByEmail(up, email);
    const other = expectSession(await login(email, 'secret123', { userAgent: 'Feed device' }));
    const socket = new WebSocket(`${up.url.replace('http', 'ws')}/v1/ws`);
    const messages: { type: string; code?: number }[] = [];
    socket.on('message', (d) => d.toString() !== 'pong' && messages.push(JSON.parse(d.toString()) as { type: string; code?: number }));
    await new Promise((resolve, reject) => socket.once('open', resolve).once('error', reject));
    const until = async (pred: () => boolean) => {
      for (let i = 0; i < 100 && !pred(); i += 1) await new Promise((r) => setTimeout(r, 20));
      expect(pred()).toBe(true);
    };
    socket.send(JSON.stringify({ type: 'login', params: other.token }));
    await until(() => messages.some((m) => m.type === 'login_result' && m.code === 1));
    socket.send(JSON.stringify({ type: 'sub', params: ['FOREX_TRADE'] }));
    await until(() => messages.some((m) => m.type === 'FOREX_TRADE'));

    expectOk(security.sessionEndOthers, await up.call(security.sessionEndOthers, {}, { token: first.token }));
    await until(() => messages.some((m) => m.type === 'login_result' && m.code === 999));
    const after = messages.length;
    await new Promise((r) => setTimeout(r, 1300));
    expect(messages.slice(after).filter((m) => m.type === 'FOREX_TRADE')).toEqual([]);
    socket.close();
  });
});

/** Every call of contract/calls/security.ts is served. */
test('every security and passkey call is served', () => {
  const calls = ([...Object.values(security), ...Object.values(passkeys)] as unknown[]).filter(
    (v): v is CallDef => typeof v === 'object' && v !== null && 'path' in v,
  );
  expect(calls).toHaveLength(20);
  for (const call of calls) {
    expect(up.app.hasRoute({ method: call.method, url: call.path }), call.name).toBe(true);
  }
});
