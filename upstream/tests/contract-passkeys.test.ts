/**
 * Contract tests of passkeys (issue 38) on a real upstream, with a software authenticator (software-passkey.ts):
 * adding one (the first factor ends the other sessions), signing in without a password, the log-in's second step
 * (a passkey, or a code sent when the browser cannot use one), a step-up by passkey, and every way an answer is
 * refused: spent or expired challenge, another purpose, another origin, another account's ticket, no grant.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { account, passkeys, security } from '../../contract/index';
import { ErrorCode } from '../../contract/errors';
import { PASSKEY_CHALLENGE_TTL_MS } from '../accounts/passkeys';
import { startTestUpstream, type TestUpstream } from '../testing';
import { expectError, expectOk, expectSession, freshEmail, grantFor, lastCode, registerByEmail } from './contract-helpers';
import { SoftwarePasskey } from './software-passkey';

const ORIGIN = 'https://lotfx.example';
let up: TestUpstream;
let now = Date.UTC(2026, 10, 28, 10, 0, 0);

beforeAll(async () => {
  up = await startTestUpstream({ clock: () => now });
});
afterAll(() => up.close());

const asPage = { origin: ORIGIN };
const login = (email: string) => up.call(account.loginForU, { account: email, password: 'secret123', login_type: 'email' });

/** A real account holding one software passkey: its e-mail, token and key. */
async function passkeyUser(name = 'Pixel') {
  const email = freshEmail('passkey');
  const { token } = await registerByEmail(up, email);
  const key = new SoftwarePasskey(ORIGIN);
  await addPasskey(token, key, name);
  return { email, token, key };
}

async function addPasskey(token: string, key: SoftwarePasskey, name: string) {
  const options = expectOk(passkeys.passkeyRegisterOptions, await up.call(passkeys.passkeyRegisterOptions, {}, { token, ...asPage }));
  return up.call(passkeys.passkeyRegister, { name, answer: key.register(options) }, { token, ...asPage });
}

const loginOptions = async (ticket?: string) =>
  expectOk(passkeys.passkeyLoginOptions, await up.call(passkeys.passkeyLoginOptions, { ticket }, asPage));

describe('adding passkeys', () => {
  test('added, listed, renamed; the first factor ends the other sessions, a second one does not', async () => {
    const email = freshEmail('add');
    const { token } = await registerByEmail(up, email);
    const other = expectSession(await login(email)).token;
    const key = new SoftwarePasskey(ORIGIN);
    const added = expectOk(passkeys.passkeyRegister, await addPasskey(token, key, ' Pixel 7 '));
    expect(added).toMatchObject({ id: key.credentialId, name: 'Pixel 7', last_used_at: null });
    expect((await up.call(account.info, {}, { token: other })).code).toBe(ErrorCode.TokenInvalid);
    expect(expectOk(security.securityStatus, await up.call(security.securityStatus, {}, { token }))).toMatchObject({
      passkeys: 1,
      totp: false,
    });

    // Now a factor guards the account: the password alone is not a session.
    expect(expectOk(account.loginForU, await login(email))).toMatchObject({ factor_required: true, factors: ['passkey', 'email'] });
    // A second passkey (another phone) leaves the sessions be.
    const second = new SoftwarePasskey(ORIGIN);
    const tablet = expectSession(await up.call(passkeys.passkeyLogin, { answer: key.assert(await loginOptions()) }, asPage)).token;
    expectOk(passkeys.passkeyRegister, await addPasskey(token, second, 'Tablet'));
    expectOk(account.info, await up.call(account.info, {}, { token: tablet }));
    // The same authenticator twice is refused by the browser (excluded) and by the upstream.
    expectError(await addPasskey(token, second, 'Again'), 'PasskeyInvalid');
    expectOk(passkeys.passkeyRename, await up.call(passkeys.passkeyRename, { id: key.credentialId, name: 'Phone' }, { token }));
    const list = expectOk(passkeys.passkeyList, await up.call(passkeys.passkeyList, {}, { token }));
    expect(list.map((p) => p.name)).toEqual(['Phone', 'Tablet']);
    expectError(await up.call(passkeys.passkeyRename, { id: 'nope', name: 'x' }, { token }), 'PasskeyNotFound');
  });

  test('an answer to another origin, a reused challenge or an insecure origin is refused', async () => {
    const email = freshEmail('refuse');
    const { token } = await registerByEmail(up, email);
    const key = new SoftwarePasskey(ORIGIN);
    const options = expectOk(passkeys.passkeyRegisterOptions, await up.call(passkeys.passkeyRegisterOptions, {}, { token, ...asPage }));
    expect(options).toMatchObject({ rp: { id: 'lotfx.example', name: 'LotFX' } });
    // Signed for a phishing page: its challenge is spent by the refusal.
    const phished = key.register(options, 'https://lotfx.example.evil.test');
    expectError(await up.call(passkeys.passkeyRegister, { name: 'x', answer: phished }, { token, ...asPage }), 'PasskeyInvalid');
    expectError(
      await up.call(passkeys.passkeyRegister, { name: 'x', answer: key.register(options) }, { token, ...asPage }),
      'PasskeyInvalid',
    );
    expectError(await up.call(passkeys.passkeyRegisterOptions, {}, { token, origin: 'http://lotfx.example' }), 'PasskeyInvalid');
    expectError(await up.call(passkeys.passkeyRegisterOptions, {}, { token }), 'PasskeyInvalid');
    expectError(await up.call(passkeys.passkeyRegister, { name: 'x', answer: '{not json' }, { token, ...asPage }), 'PasskeyInvalid');
    const demo = await up.demo();
    expectError(await up.call(passkeys.passkeyRegisterOptions, {}, { token: demo.token, ...asPage }), 'DemoNotAllowed');
    expect(expectOk(passkeys.passkeyList, await up.call(passkeys.passkeyList, {}, { token }))).toEqual([]);
  });
});

describe('signing in with a passkey', () => {
  test('without a password: any passkey of this site; its use is noted; the same answer twice is refused', async () => {
    const { key } = await passkeyUser();
    const options = await loginOptions();
    expect(options.allowCredentials).toEqual([]);
    expect(options.userVerification).toBe('required');
    const answer = key.assert(options);
    const session = expectSession(await up.call(passkeys.passkeyLogin, { answer }, asPage));
    expectOk(account.info, await up.call(account.info, {}, { token: session.token }));
    expectError(await up.call(passkeys.passkeyLogin, { answer }, asPage), 'PasskeyInvalid');
    const list = expectOk(passkeys.passkeyList, await up.call(passkeys.passkeyList, {}, { token: session.token }));
    expect(list[0]!.last_used_at).toBe(now);
  });

  test('a challenge lives five minutes; an unknown passkey is refused', async () => {
    const { key } = await passkeyUser();
    const options = await loginOptions();
    now += PASSKEY_CHALLENGE_TTL_MS + 1;
    expectError(await up.call(passkeys.passkeyLogin, { answer: key.assert(options) }, asPage), 'PasskeyInvalid');
    const stranger = new SoftwarePasskey(ORIGIN);
    expectError(await up.call(passkeys.passkeyLogin, { answer: stranger.assert(await loginOptions()) }, asPage), 'PasskeyNotFound');
  });

  test("after the password: the ticket's own passkeys, or a code sent for a browser without JavaScript", async () => {
    const { email, key } = await passkeyUser();
    const challenge = expectOk(account.loginForU, await login(email));
    expect(challenge).toMatchObject({ factor_required: true, factors: ['passkey', 'email'] });
    const ticket = (challenge as { ticket: string }).ticket;
    // Another account's passkey cannot finish this log-in.
    const mallory = await passkeyUser();
    const options = await loginOptions(ticket);
    expect((options.allowCredentials as { id: string }[]).map((c) => c.id)).toEqual([key.credentialId]);
    expectError(await up.call(passkeys.passkeyLogin, { answer: mallory.key.assert(options), ticket }, asPage), 'PasskeyNotFound');
    // A password-less ceremony cannot spend a ticket, nor a ticket's ceremony go without it.
    expectError(await up.call(passkeys.passkeyLogin, { answer: key.assert(await loginOptions()), ticket }, asPage), 'PasskeyInvalid');
    expectError(await up.call(passkeys.passkeyLogin, { answer: key.assert(await loginOptions(ticket)) }, asPage), 'PasskeyInvalid');
    const session = expectSession(await up.call(passkeys.passkeyLogin, { answer: key.assert(await loginOptions(ticket)), ticket }, asPage));
    expect(session.user.email).toBe(email);
    // The ticket is spent.
    expectError(await up.call(passkeys.passkeyLoginOptions, { ticket }, asPage), 'LoginTicketInvalid');

    // No JavaScript: a code for this log-in, sent to the e-mail, finishes it instead.
    const again = (expectOk(account.loginForU, await login(email)) as { ticket: string }).ticket;
    expectOk(security.loginFactorSend, await up.call(security.loginFactorSend, { ticket: again }));
    expectError(await up.call(security.loginFactor, { ticket: again, code: '000000' }), 'FactorCodeInvalid');
    const code = await lastCode(up, email);
    expectSession(await up.call(security.loginFactor, { ticket: again, code }));
  });
});

describe('a step-up by passkey', () => {
  test('grants the action it was asked for, to this session only; removing a passkey takes that grant', async () => {
    const { token, key, email } = await passkeyUser();
    const stepUpOptions = async (action: security.StepUpAction) =>
      expectOk(passkeys.passkeyStepUpOptions, await up.call(passkeys.passkeyStepUpOptions, { action }, { token, ...asPage }));
    expectError(await up.call(passkeys.passkeyRemove, { id: key.credentialId }, { token }), 'StepUpRequired');

    // Options for one action give no grant for another; a login's options give none at all.
    const forWithdraw = key.assert(await stepUpOptions('withdraw'));
    expectError(
      await up.call(passkeys.passkeyStepUp, { action: 'factor_off', answer: forWithdraw }, { token, ...asPage }),
      'PasskeyInvalid',
    );
    expectError(
      await up.call(passkeys.passkeyStepUp, { action: 'factor_off', answer: key.assert(await loginOptions()) }, { token, ...asPage }),
      'PasskeyInvalid',
    );

    const { grant } = expectOk(
      passkeys.passkeyStepUp,
      await up.call(
        passkeys.passkeyStepUp,
        { action: 'factor_off', answer: key.assert(await stepUpOptions('factor_off')) },
        { token, ...asPage },
      ),
    );
    const other = expectSession(await up.call(passkeys.passkeyLogin, { answer: key.assert(await loginOptions()) }, asPage)).token;
    expectError(await up.call(passkeys.passkeyRemove, { id: key.credentialId, grant }, { token: other }), 'StepUpInvalid');
    expectOk(passkeys.passkeyRemove, await up.call(passkeys.passkeyRemove, { id: key.credentialId, grant }, { token }));
    expect(expectOk(passkeys.passkeyList, await up.call(passkeys.passkeyList, {}, { token }))).toEqual([]);
    // No factor left: the password alone signs in again.
    expectSession(await login(email));
    // And a step-up is by e-mail code again.
    expect(await grantFor(up, token, 'withdraw')).toBeTruthy();
  });
});
