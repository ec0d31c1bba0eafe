/** The security calls as pages see them: an upstream without them (404) is "not offered", never an error page. */
import { describe, expect, test } from 'vitest';
import type { Api } from './api.server';
import { UpstreamError, UpstreamUnavailable } from './client.server';
import { securityOffered, securityStatus } from './security.server';

function apiAnswering(answer: () => unknown, upstreamUrl = 'http://upstream.test'): Api & { calls: number } {
  const api = {
    calls: 0,
    upstreamUrl,
    call: async () => {
      api.calls++;
      return { data: answer(), extras: {} };
    },
  };
  return api as unknown as Api & { calls: number };
}
const failing = (error: Error) => () => {
  throw error;
};

describe('securityStatus', () => {
  test("maps the upstream's status to the trader's words", async () => {
    const api = apiAnswering(() => ({ totp: true, recovery_codes_left: 7, step_up: 'totp', withdrawals_held_until: null }));
    expect(await securityStatus(api)).toEqual({
      authenticatorOn: true,
      recoveryCodesLeft: 7,
      stepUpBy: 'totp',
      withdrawalsHeldUntil: null,
    });
  });

  test('a 404 (a broker backend without these calls) is null; other failures go on', async () => {
    expect(await securityStatus(apiAnswering(failing(new UpstreamUnavailable('http', 'security_status', 'HTTP 404', 404))))).toBeNull();
    await expect(
      securityStatus(apiAnswering(failing(new UpstreamUnavailable('http', 'security_status', 'HTTP 500', 500)))),
    ).rejects.toThrow(UpstreamUnavailable);
    await expect(securityStatus(apiAnswering(failing(new UpstreamError(1000, 'no', 'security_status'))))).rejects.toThrow(UpstreamError);
  });
});

test('whether an upstream offers the calls is asked once a minute per upstream', async () => {
  const broker = apiAnswering(failing(new UpstreamUnavailable('http', 'security_status', 'HTTP 404', 404)), 'http://broker.test');
  const ours = apiAnswering(
    () => ({ totp: false, recovery_codes_left: 0, step_up: 'email', withdrawals_held_until: null }),
    'http://ours.test',
  );
  expect([await securityOffered(broker), await securityOffered(broker)]).toEqual([false, false]);
  expect(await securityOffered(ours)).toBe(true);
  expect([broker.calls, ours.calls]).toEqual([1, 1]);
});
