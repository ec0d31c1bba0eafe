/**
 * Contract tests of price alerts (`alert/list`, `alert/add`, `alert/del`) on a real upstream: each call's
 * success, each refusal, 999, the limit of 50 waiting alerts; an alert that fires is pushed on the user's
 * socket (`ALERT`) once, kept in the list as triggered, and e-mailed over SMTP in the language it was set in.
 */
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import WebSocket from 'ws';
import { alerts, market } from '../../contract/index';
import { ErrorCode } from '../../contract/errors';
import { MAX_ACTIVE_ALERTS } from '../../contract/calls/alerts';
import { ServerMessageSchema, type AlertPush } from '../../contract/ws';
import { smtpMailer } from '../content/mailer';
import { startTestUpstream, type TestUpstream } from '../testing';
import { expectError, expectOk, expectTokenRequired, freshEmail, registerByEmail } from './contract-helpers';

let up: TestUpstream;
let id: Record<string, number>;

beforeAll(async () => {
  up = await startTestUpstream();
  for (const code of ['EURUSD', 'BTCUSD']) up.forceMarket(code, 'open');
  up.setPrice('EURUSD', 1.1);
  up.setPrice('BTCUSD', 60000);
  const list = expectOk(market.tradeList, await up.call(market.tradeList));
  id = Object.fromEntries(list.map((i) => [i.Code, i.Id]));
});
afterAll(() => up.close());

async function add(token: string, input: Record<string, unknown>) {
  return expectOk(alerts.alertAdd, await up.call(alerts.alertAdd, input, { token }));
}
async function list(token: string) {
  return expectOk(alerts.alertList, await up.call(alerts.alertList, {}, { token }));
}

describe('alert/add and alert/list', () => {
  test('adds an alert above and one below the price; the list shows them newest first, waiting', async () => {
    const { token } = await up.demo();
    const above = await add(token, { forex_id: id.EURUSD, direction: 1, price: '1.105', note: 'breakout' });
    expect(above).toMatchObject({
      forex_id: id.EURUSD,
      code: 'EURUSD',
      direction: 1,
      price: 1.105,
      precision: 5,
      note: 'breakout',
      triggered_at: null,
      triggered_price: null,
    });
    expect(Date.parse(above.created_at)).not.toBeNaN();
    const below = await add(token, { forex_id: id.EURUSD, direction: 2, price: 1.095 });
    expect(below).toMatchObject({ direction: 2, price: 1.095, note: '' });
    expect((await list(token)).map((a) => a.id)).toEqual([below.id, above.id]);
  });

  test('a new account has no alerts; alerts are the owner’s own', async () => {
    const a = await up.demo();
    await add(a.token, { forex_id: id.EURUSD, direction: 1, price: '1.2' });
    const b = await up.demo();
    expect(await list(b.token)).toEqual([]);
  });

  test('refusals: unknown product, a price that is not positive or off the decimals, the wrong side, malformed', async () => {
    const { token } = await up.demo();
    const refused = (input: Record<string, unknown>) => up.call(alerts.alertAdd, input, { token });
    expectError(await refused({ forex_id: 99999, direction: 1, price: '1.2' }), 'InstrumentNotFound');
    expectError(await refused({ forex_id: id.EURUSD, direction: 1, price: '1.123456' }), 'PriceInvalid');
    expectError(await refused({ forex_id: id.EURUSD, direction: 2, price: '0' }), 'PriceInvalid');
    // "Rises to" a level at or under the price, "falls to" one at or over it: it would fire at once.
    expectError(await refused({ forex_id: id.EURUSD, direction: 1, price: '1.09' }), 'AlertWrongSide');
    expectError(await refused({ forex_id: id.EURUSD, direction: 1, price: '1.1' }), 'AlertWrongSide');
    expectError(await refused({ forex_id: id.EURUSD, direction: 2, price: '1.11' }), 'AlertWrongSide');
    for (const input of [
      { forex_id: id.EURUSD, direction: 3, price: '1.2' },
      { forex_id: id.EURUSD, direction: 1, price: '-1.2' },
      { forex_id: id.EURUSD, direction: 1, price: 'abc' },
      { forex_id: id.EURUSD, direction: 1 },
      { direction: 1, price: '1.2' },
      { forex_id: id.EURUSD, direction: 1, price: '1.2', note: 'x'.repeat(81) },
    ])
      expectError(await refused(input), 'InvalidRequest');
    // The message is the upstream's, in the caller's language.
    const hk = await up.call(alerts.alertAdd, { forex_id: id.EURUSD, direction: 1, price: '1.09' }, { token, lang: 'hk' });
    expect(hk).toMatchObject({ code: ErrorCode.AlertWrongSide, msg: '「漲至」的價格須高於現價，「跌至」的價格須低於現價。' });
    expect(await list(token)).toEqual([]);
  });

  test(`at most ${MAX_ACTIVE_ALERTS} waiting alerts; a deleted or triggered one makes room`, async () => {
    const { token } = await up.demo();
    const made = [];
    for (let i = 0; i < MAX_ACTIVE_ALERTS; i++)
      made.push(await add(token, { forex_id: id.BTCUSD, direction: 1, price: String(70000 + i) }));
    expectError(await up.call(alerts.alertAdd, { forex_id: id.BTCUSD, direction: 1, price: '80000' }, { token }), 'AlertLimitReached');
    const fr = await up.call(alerts.alertAdd, { forex_id: id.BTCUSD, direction: 1, price: '80000' }, { token, lang: 'fr' });
    expect(fr).toMatchObject({ code: ErrorCode.AlertLimitReached, msg: expect.stringContaining('50 alertes') });
    expectOk(alerts.alertDel, await up.call(alerts.alertDel, { id: made[0]!.id }, { token }));
    await add(token, { forex_id: id.BTCUSD, direction: 1, price: '80000' });
    expectError(await up.call(alerts.alertAdd, { forex_id: id.BTCUSD, direction: 2, price: '50000' }, { token }), 'AlertLimitReached');
    // One fires: it stays in the list, triggered, and no longer counts.
    up.setPrice('BTCUSD', 70001);
    up.setPrice('BTCUSD', 60000);
    const triggered = (await list(token)).filter((a) => a.triggered_at !== null);
    expect(triggered.map((a) => a.price).sort()).toEqual([70001]);
    await add(token, { forex_id: id.BTCUSD, direction: 2, price: '50000' });
    expect(await list(token)).toHaveLength(MAX_ACTIVE_ALERTS + 1);
  });

  test('999 without a valid token', async () => {
    await expectTokenRequired(up, alerts.alertList);
    await expectTokenRequired(up, alerts.alertAdd, { forex_id: id.EURUSD, direction: 1, price: '1.2' });
    await expectTokenRequired(up, alerts.alertDel, { id: 1 });
  });
});

describe('alert/del', () => {
  test('deletes a waiting alert (it never fires) and a triggered one', async () => {
    up.setPrice('EURUSD', 1.1);
    const { token } = await up.demo();
    const waiting = await add(token, { forex_id: id.EURUSD, direction: 1, price: '1.1003' });
    const fires = await add(token, { forex_id: id.EURUSD, direction: 2, price: '1.0997' });
    expect(expectOk(alerts.alertDel, await up.call(alerts.alertDel, { id: waiting.id }, { token }))).toBeNull();
    up.setPrice('EURUSD', 1.1005);
    up.setPrice('EURUSD', 1.0995);
    expect(await list(token)).toMatchObject([{ id: fires.id, triggered_price: 1.0995 }]);
    expectOk(alerts.alertDel, await up.call(alerts.alertDel, { id: fires.id }, { token }));
    expect(await list(token)).toEqual([]);
    up.setPrice('EURUSD', 1.1);
  });

  test('refusals: unknown, someone else’s, already deleted, malformed', async () => {
    const { token } = await up.demo();
    const other = await up.demo();
    const theirs = await add(other.token, { forex_id: id.EURUSD, direction: 1, price: '1.3' });
    expectError(await up.call(alerts.alertDel, { id: theirs.id }, { token }), 'AlertNotFound');
    expectError(await up.call(alerts.alertDel, { id: 99999999 }, { token }), 'AlertNotFound');
    expectOk(alerts.alertDel, await up.call(alerts.alertDel, { id: theirs.id }, { token: other.token }));
    expectError(await up.call(alerts.alertDel, { id: theirs.id }, { token: other.token }), 'AlertNotFound');
    for (const bad of ['abc', '0', '-3', '']) expectError(await up.call(alerts.alertDel, { id: bad }, { token }), 'InvalidRequest');
  });
});

describe('firing', () => {
  test('a tick that reaches the level fires it once: the list shows its time and price, the socket gets ALERT once', async () => {
    up.setPrice('EURUSD', 1.1);
    const { token } = await up.demo();
    const socket = new WebSocket(`${up.url.replace('http', 'ws')}/v1/ws`);
    const pushes: AlertPush[] = [];
    socket.on('message', (data) => {
      const text = data.toString();
      if (text === 'pong') return;
      const msg = ServerMessageSchema.parse(JSON.parse(text));
      if (msg.type === 'ALERT') pushes.push(msg);
      if (msg.type === 'login_result') socket.send(JSON.stringify({ type: 'sub', params: ['ALERT'] }));
    });
    const subscribed = new Promise<void>((resolve) =>
      socket.on('message', (d) => {
        if (d.toString().includes('sub_result')) resolve();
      }),
    );
    await new Promise((resolve, reject) => socket.once('open', resolve).once('error', reject));
    socket.send(JSON.stringify({ type: 'login', params: token }));
    await subscribed;
    try {
      const a = await add(token, { forex_id: id.EURUSD, direction: 1, price: '1.1010', note: 'take a look' });
      up.setPrice('EURUSD', 1.1009); // not reached
      up.setPrice('EURUSD', 1.1012); // crosses it
      up.setPrice('EURUSD', 1.1015); // past it again: no second firing
      await expect.poll(() => pushes.length).toBe(1);
      expect(pushes[0]!.alert).toMatchObject({ id: a.id, code: 'EURUSD', direction: 1, price: 1.101, triggered_price: 1.1012 });
      const [listed] = await list(token);
      expect(listed).toMatchObject({ id: a.id, triggered_price: 1.1012, note: 'take a look' });
      expect(Date.parse(listed!.triggered_at!)).toBeGreaterThanOrEqual(Date.parse(listed!.created_at));
      up.setPrice('EURUSD', 1.1);
      up.setPrice('EURUSD', 1.102);
      await new Promise((r) => setTimeout(r, 100));
      expect(pushes).toHaveLength(1);
    } finally {
      socket.close();
      up.setPrice('EURUSD', 1.1);
    }
  });

  test('with SMTP_URL the alert is e-mailed to the account, in the language it was set in', async () => {
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
      mailed.forceMarket('EURUSD', 'open');
      mailed.setPrice('EURUSD', 1.1);
      const email = freshEmail('alert');
      const { token } = await registerByEmail(mailed, email);
      await expect.poll(() => received.length, { timeout: 5000 }).toBe(1); // the registration code
      const env = await mailed.call(alerts.alertAdd, { forex_id: id.EURUSD, direction: 2, price: '1.0950' }, { token, lang: 'de' });
      expectOk(alerts.alertAdd, env);
      mailed.setPrice('EURUSD', 1.0949);
      await expect.poll(() => received.length, { timeout: 5000 }).toBe(2);
      expect(received[1]!.to).toBe(email);
      const outbox = (await mailed.admin('GET', `/admin/outbox?to=${encodeURIComponent(email)}`)).json as {
        outbox: { subject: string; body: string }[];
      };
      expect(outbox.outbox[0]).toMatchObject({
        subject: 'Preisalarm: EUR/USD bei 1.09490',
        body: expect.stringMatching(
          /^EUR\/USD ist auf 1\.09490 gefallen und hat Ihren Alarm bei 1\.09500 erreicht \(\d{4}-\d\d-\d\d \d\d:\d\d UTC\)\.$/,
        ),
      });
      // Quoted-printable may wrap lines: compare without soft breaks.
      expect(received[1]!.data.replace(/=\r?\n/g, '')).toContain('1.09490');
    } finally {
      await mailed.close();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });
});
