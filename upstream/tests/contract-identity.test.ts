/**
 * Contract tests of real-name checks (user_real/real_name, user_real/center and the back office's review),
 * invitations (invite_info), and code e-mails delivered over a real SMTP server when SMTP_URL is set.
 */
import sharp from 'sharp';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { account, identity } from '../../contract/index';
import { ReviewStatus } from '../../contract/enums';
import { smtpMailer } from '../content/mailer';
import { startTestUpstream, type Envelope, type TestUpstream } from '../testing';
import { expectError, expectOk, expectTokenRequired, freshEmail, registerByEmail } from './contract-helpers';

let up: TestUpstream;
beforeAll(async () => {
  up = await startTestUpstream();
});
afterAll(() => up.close());

async function uploadPhoto(token: string, shade: number): Promise<string> {
  const jpeg = await sharp({ create: { width: 60, height: 40, channels: 3, background: { r: shade, g: 90, b: 90 } } })
    .jpeg()
    .toBuffer();
  const form = new FormData();
  form.append('file', new Blob([new Uint8Array(jpeg)], { type: 'image/jpeg' }), 'id.jpg');
  const env = (await (
    await fetch(new URL(identity.imageUpload.path, up.url), { method: 'POST', headers: { authorization: token }, body: form })
  ).json()) as Envelope;
  return expectOk(identity.imageUpload, env).url;
}

describe('real-name authentication', () => {
  test('form → under review → certified; each refusal; a second submission is refused', async () => {
    await expectTokenRequired(up, identity.realName, {});
    await expectTokenRequired(up, identity.realNameCenter);
    const email = freshEmail('kyc');
    const { token, user } = await registerByEmail(up, email);
    const center = async () => expectOk(identity.realNameCenter, await up.call(identity.realNameCenter, {}, { token }));
    expect(await center()).toEqual({ review_status: ReviewStatus.NotSubmitted, name: null, card_id: null, reason: null });

    const [front, back] = [await uploadPhoto(token, 10), await uploadPhoto(token, 200)];
    const ok = { name: 'Chan Tai Man', card_id: 'A123456(7)', front_pic: front, reverse_pic: back };
    const submit = (input: Record<string, unknown>, t = token) => up.call(identity.realName, input, { token: t });
    expectError(await submit({ ...ok, name: ' ' }), 'InvalidRequest');
    expectError(await submit({ ...ok, card_id: '12' }), 'IdNumberInvalid');
    expectError(await submit({ ...ok, card_id: '<script>' }), 'IdNumberInvalid');
    expectError(await submit({ ...ok, reverse_pic: front }), 'IdImagesRequired');
    const other = await registerByEmail(up, freshEmail('kyc-other'));
    expectError(await submit({ ...ok, reverse_pic: await uploadPhoto(other.token, 50) }), 'IdImagesRequired');
    const demo = await up.demo();
    expectError(await submit(ok, demo.token), 'DemoNotAllowed');

    expectOk(identity.realName, await submit(ok));
    expect(await center()).toEqual({ review_status: ReviewStatus.UnderReview, name: 'Chan Tai Man', card_id: '••••••6(7)', reason: null });
    expectError(await submit(ok), 'IdentityAlreadySubmitted');

    const pending = (await up.admin('GET', '/admin/kyc')).json as { kyc: { uid: string; name: string }[] };
    expect(pending.kyc.map((k) => k.uid)).toContain(user.uid);
    expect((await up.admin('POST', '/admin/kyc', { user: user.uid, action: 'approve' })).status).toBe(200);
    expect((await center()).review_status).toBe(ReviewStatus.Verified);
    expect((await up.admin('POST', '/admin/kyc', { user: user.uid, action: 'reject' })).status).toBe(409);
    expectError(await submit(ok), 'IdentityAlreadySubmitted');
  });

  test('a rejection shows the form again with the reason; a new submission goes back to review', async () => {
    const { token, user } = await registerByEmail(up, freshEmail('kyc-rejected'));
    const ok = { name: 'Li Wei', card_id: 'E12345678', front_pic: await uploadPhoto(token, 1), reverse_pic: await uploadPhoto(token, 2) };
    expectOk(identity.realName, await up.call(identity.realName, ok, { token }));
    await up.admin('POST', '/admin/kyc', { user: user.uid, action: 'reject', reason: 'The back image is blurred' });
    const rejected = expectOk(identity.realNameCenter, await up.call(identity.realNameCenter, {}, { token }));
    expect(rejected).toMatchObject({ review_status: ReviewStatus.NotSubmitted, reason: 'The back image is blurred' });
    expectOk(identity.realName, await up.call(identity.realName, { ...ok, reverse_pic: await uploadPhoto(token, 3) }, { token }));
    expect(expectOk(identity.realNameCenter, await up.call(identity.realNameCenter, {}, { token }))).toMatchObject({
      review_status: 1,
      reason: null,
    });
    expect((await up.admin('POST', '/admin/kyc', { user: 'nobody@example.com', action: 'approve' })).status).toBe(404);
  });
});

describe('invite_info', () => {
  test('the code and the number of people who registered with it', async () => {
    await expectTokenRequired(up, account.inviteInfo);
    const host = await registerByEmail(up, freshEmail('host'));
    const info = async () => expectOk(account.inviteInfo, await up.call(account.inviteInfo, {}, { token: host.token }));
    expect(await info()).toEqual({ invite_code: host.user.invite_code, invited: 0 });
    for (const tag of ['friend-a', 'friend-b']) {
      const email = freshEmail(tag);
      expectOk(account.sendEmail, await up.call(account.sendEmail, { to: email, type: 1 }));
      const outbox = (await up.admin('GET', `/admin/outbox?to=${encodeURIComponent(email)}`)).json as { outbox: { body: string }[] };
      const code = /\b(\d{6})\b/.exec(outbox.outbox[0]!.body)![1]!;
      expectOk(
        account.register,
        await up.call(account.register, {
          type: 1,
          account: email,
          password: 'secret123',
          re_password: 'secret123',
          sms_code: code,
          invite_code: host.user.invite_code,
        }),
      );
    }
    expect((await info()).invited).toBe(2);
  });
});

describe('code e-mails over SMTP', () => {
  test('with SMTP_URL the code reaches a real mail server, in the language of the request', async () => {
    const received: { to: string; data: string }[] = [];
    const server = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS'],
      onData(stream, session, done) {
        let data = '';
        stream.on('data', (c: Buffer) => (data += c.toString('utf8')));
        stream.on('end', () => {
          received.push({ to: session.envelope.rcptTo[0]!.address, data });
          done();
        });
      },
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const port = (server.server.address() as { port: number }).port;
    const mailed = await startTestUpstream({ mail: smtpMailer(`smtp://127.0.0.1:${port}`, 'LotFX <no-reply@example.com>', () => {}) });
    try {
      const email = freshEmail('smtp');
      expectOk(account.sendEmail, await mailed.call(account.sendEmail, { to: email, type: 1 }, { lang: 'fr' }));
      await expect.poll(() => received.length, { timeout: 5000 }).toBe(1);
      expect(received[0]!.to).toBe(email);
      const outbox = (await mailed.admin('GET', `/admin/outbox?to=${encodeURIComponent(email)}`)).json as {
        outbox: { subject: string; body: string }[];
      };
      const code = /\b(\d{6})\b/.exec(outbox.outbox[0]!.body)![1]!;
      expect(received[0]!.data).toContain(code);
      // Not the English text: the French catalogue's subject travels (encoded) in the header.
      expect(outbox.outbox[0]!.subject).not.toBe('Your registration code');
      expectOk(
        account.register,
        await mailed.call(account.register, { type: 1, account: email, password: 'secret123', re_password: 'secret123', sms_code: code }),
      );
    } finally {
      await mailed.close();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });
});
