/** The step-up's kept forms (decision 0039): bound to one session, one action, the grant only after the code. */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { ErrorCode } from '#contract/errors';
import { formOf as form, signInWith, withCookie } from './session-store.test-support';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'web-step-up-test-'));
process.env.DATA_DIR = dir;
delete process.env.REDIS_URL;
const sessions = await import('./session.server');
const stepUp = await import('./step-up.server');
const { UpstreamError } = await import('~/upstream/api.server');

afterAll(async () => {
  await sessions.closeSessionStore();
  fs.rmSync(dir, { recursive: true, force: true });
});

const signIn = signInWith(sessions);

/** Asks for a step-up as an action does; answers the kept form's id from the redirect. */
async function ask(cookie: string, fields: Record<string, string>) {
  const response = await stepUp.askStepUp(withCookie(cookie), 'withdraw', form(fields), '/mine/withdraw?type=1');
  const location = new URL(response.headers.get('Location')!, 'http://localhost');
  return { response, location, id: location.searchParams.get('id')! };
}

describe('kept forms', () => {
  test('the redirect names only an opaque id and the form page; the fields stay on the server, without the CSRF token', async () => {
    const cookie = await signIn('t1');
    const { response, location, id } = await ask(cookie, { csrf: 'x', amount: '100', method: '3', secret: 'pw-123456' });
    expect(response.status).toBe(302);
    expect(location.pathname).toBe('/step-up');
    expect([...location.searchParams.keys()].sort()).toEqual(['back', 'id']);
    expect(location.searchParams.get('back')).toBe('/mine/withdraw?type=1');
    expect(response.headers.get('Location')).not.toContain('pw-123456');
    const kept = await stepUp.keptForm(withCookie(cookie), id);
    expect(kept?.fields).toEqual([
      ['amount', '100'],
      ['method', '3'],
      ['secret', 'pw-123456'],
    ]);
    expect(kept?.grant).toBeUndefined();
  });

  test("another session cannot read or resume someone's kept form", async () => {
    const mine = await signIn('t2');
    const theirs = await signIn('t3');
    const { id } = await ask(mine, { amount: '1' });
    const kept = (await stepUp.keptForm(withCookie(mine), id))!;
    await stepUp.saveKeptForm(id, { ...kept, grant: 'g-1' });
    expect(await stepUp.keptForm(withCookie(theirs), id)).toBeNull();
    const resumed = await stepUp.resumeStepUp(withCookie(theirs), form({ resume: id, finish: '1' }), 'withdraw');
    expect(resumed).toMatchObject({ grant: undefined, keptId: null });
  });

  test('no grant before the code; then "finish" posts the kept fields with the grant, for that action only', async () => {
    const cookie = await signIn('t4');
    const { id } = await ask(cookie, { amount: '250', intent: 'withdraw' });
    const before = await stepUp.resumeStepUp(withCookie(cookie), form({ resume: id, finish: '1' }), 'withdraw');
    expect(before.grant).toBeUndefined();
    const kept = (await stepUp.keptForm(withCookie(cookie), id))!;
    await stepUp.saveKeptForm(id, { ...kept, grant: 'g-2' });
    const finished = await stepUp.resumeStepUp(withCookie(cookie), form({ resume: id, finish: '1' }), 'withdraw');
    expect(finished.grant).toBe('g-2');
    expect(Object.fromEntries(finished.formData)).toEqual({ amount: '250', intent: 'withdraw' });
    // Posted again after a refusal: what was typed now, with the same grant.
    const again = await stepUp.resumeStepUp(withCookie(cookie), form({ resume: id, amount: '200' }), 'withdraw');
    expect(again.grant).toBe('g-2');
    expect(again.formData.get('amount')).toBe('200');
    // Another action's form cannot borrow it.
    const other = await stepUp.resumeStepUp(withCookie(cookie), form({ resume: id, finish: '1' }), 'bind_method');
    expect(other.grant).toBeUndefined();
    // Done: forgotten.
    await stepUp.forgetKeptForm(id);
    expect(await stepUp.keptForm(withCookie(cookie), id)).toBeNull();
  });

  test('the page offers to finish only with a grant for its own action', async () => {
    const cookie = await signIn('t5');
    const { id } = await ask(cookie, { amount: '5' });
    const page = (action: 'withdraw' | 'bind_method') =>
      stepUp.readyToFinish(withCookie(cookie, `http://localhost/mine/withdraw?type=1&resume=${id}`), action);
    expect(await page('withdraw')).toBeNull();
    await stepUp.saveKeptForm(id, { ...(await stepUp.keptForm(withCookie(cookie), id))!, grant: 'g-3' });
    expect(await page('withdraw')).toBe(id);
    expect(await page('bind_method')).toBeNull();
  });

  test('a kept form is forgotten after KEEP_MS', async () => {
    const cookie = await signIn('t6');
    const { id } = await ask(cookie, { amount: '5' });
    const now = sessions.sessionClock.now;
    sessions.sessionClock.now = () => now() + stepUp.KEEP_MS + 1;
    try {
      expect(await stepUp.keptForm(withCookie(cookie), id)).toBeNull();
    } finally {
      sessions.sessionClock.now = now;
    }
  });

  test('the finish page keeps the form page and adds only the id; a foreign back path is refused', () => {
    expect(stepUp.finishUrl('/mine/withdraw?type=2', 'abc')).toBe('/mine/withdraw?type=2&resume=abc');
    expect(stepUp.finishUrl('//evil.example/x', 'abc')).toBe('/mine?resume=abc');
  });

  test('only the StepUp refusals ask for a step-up', () => {
    for (const code of [ErrorCode.StepUpRequired, ErrorCode.StepUpInvalid, ErrorCode.StepUpExpired, ErrorCode.StepUpWrongAction])
      expect(stepUp.needsStepUp(new UpstreamError(code, 'm', 'draw'))).toBe(true);
    expect(stepUp.needsStepUp(new UpstreamError(ErrorCode.MethodHeld, 'm', 'draw'))).toBe(false);
    expect(stepUp.needsStepUp(new Error('x'))).toBe(false);
  });
});
