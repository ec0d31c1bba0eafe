/**
 * "Signed-in devices" (issue 38, contract/calls/security.ts): the user's upstream sessions, and ending one or every
 * other. An upstream without these calls (a broker's own backend) answers 404: `signedInDevices` then gives null and
 * the screen is not offered.
 */
import { sessionEnd, sessionEndOthers, sessionList } from '#contract/calls/security';
import type { Api } from './api.server';
import { UpstreamError, UpstreamUnavailable } from './api.server';

/** One signed-in device, in the trader's words (the browser's user agent is worded by the page). */
export interface Device {
  id: string;
  userAgent: string;
  /** The address, masked by the upstream. */
  address: string;
  firstSeenAt: number;
  lastSeenAt: number;
  /** The device asking. */
  current: boolean;
}

/** The user's devices, this one first, then the most recently seen; null when this upstream does not offer them. */
export async function signedInDevices(api: Api): Promise<Device[] | null> {
  try {
    const { data } = await api.call(sessionList, {});
    return data
      .map((d) => ({
        id: d.id,
        userAgent: d.user_agent,
        address: d.address,
        firstSeenAt: d.created_at,
        lastSeenAt: d.last_seen_at,
        current: d.current,
      }))
      .sort((a, b) => Number(b.current) - Number(a.current) || b.lastSeenAt - a.lastSeenAt);
  } catch (error) {
    if (error instanceof UpstreamUnavailable && error.notOffered) return null;
    throw error;
  }
}

/** Signs one device out: its token is revoked upstream. */
export async function endDevice(api: Api, id: string): Promise<void> {
  await api.call(sessionEnd, { id });
}

/** Signs out every device but this one. */
export async function endOtherDevices(api: Api): Promise<void> {
  await api.call(sessionEndOthers, {});
}

/**
 * Whether another session's token still works upstream: code 999 says it was revoked. Asked with that token and
 * marked initial, so the refusal does not end this request's own session; any other answer keeps it.
 */
export async function tokenStillWorks(api: Api, token: string): Promise<boolean> {
  try {
    await api.call(sessionList, {}, { token, initial: true, optional: true });
    return true;
  } catch (error) {
    return !(error instanceof UpstreamError && error.sessionExpired);
  }
}
