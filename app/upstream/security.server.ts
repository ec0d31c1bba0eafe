/**
 * Account security (issue 38, contract/calls/security.ts): the authenticator app, the log-in's second step and
 * step-up grants. An upstream without these calls (a broker's own backend) answers 404: `securityStatus` then
 * gives null, and the app hides the screens and sends no grants.
 */
import * as security from '#contract/calls/security';
import { UpstreamUnavailable, type Api } from './api.server';

export type StepUpAction = security.StepUpAction;

export interface SecurityState {
  authenticatorOn: boolean;
  recoveryCodesLeft: number;
  /** What a step-up asks for. */
  stepUpBy: 'totp' | 'email' | 'sms';
  /** Passkeys held: a step-up may also take one (with JavaScript). */
  passkeys: number;
  /** Withdrawals held until then (ms since the epoch), or null. */
  withdrawalsHeldUntil: number | null;
}

/** The user's security, or null when this upstream has no security calls. */
export async function securityStatus(api: Api): Promise<SecurityState | null> {
  try {
    const { data } = await api.call(security.securityStatus, {});
    return {
      authenticatorOn: data.totp,
      recoveryCodesLeft: data.recovery_codes_left,
      stepUpBy: data.step_up,
      passkeys: data.passkeys,
      withdrawalsHeldUntil: data.withdrawals_held_until,
    };
  } catch (error) {
    if (error instanceof UpstreamUnavailable && error.notOffered) return null;
    throw error;
  }
}

export async function startAuthenticator(api: Api): Promise<{ secret: string; uri: string }> {
  return (await api.call(security.totpSetup, {})).data;
}

/** Turns the authenticator on with its first code; answers the recovery codes, shown once. */
export async function confirmAuthenticator(api: Api, code: string): Promise<string[]> {
  return (await api.call(security.totpConfirm, { code })).data.recovery_codes;
}

export async function turnOffAuthenticator(api: Api, grant: string | undefined): Promise<void> {
  await api.call(security.totpDisable, { grant });
}

/** Sends a code for one action to an account without a factor; answers where it went, masked. */
export async function sendStepUpCode(api: Api, action: StepUpAction): Promise<string> {
  return (await api.call(security.stepUpSend, { action })).data.to;
}

/** Trades a second factor for a grant of one action. */
export async function stepUp(api: Api, action: StepUpAction, code: string): Promise<{ grant: string; expiresAt: number }> {
  const { data } = await api.call(security.stepUp, { action, code });
  return { grant: data.grant, expiresAt: data.expires_at };
}

/** A passkey-only account's log-in on a browser without JavaScript: a code sent for it; answers where, masked. */
export async function sendLoginCode(api: Api, ticket: string): Promise<string> {
  return (await api.call(security.loginFactorSend, { ticket })).data.to;
}

/** The log-in's second step: the ticket of a half-done log-in and a code give the session. */
export async function loginWithFactor(api: Api, ticket: string, code: string) {
  return (await api.call(security.loginFactor, { ticket, code })).data;
}

const offeredByUpstream = new Map<string, { offered: boolean; at: number }>();
const OFFERED_TTL_MS = 60_000;
/**
 * Whether this upstream has the security calls, remembered a minute per upstream (it is the backend's, not the
 * user's): the user centre shows "Security" only then, without asking on every view.
 */
export async function securityOffered(api: Api): Promise<boolean> {
  const known = offeredByUpstream.get(api.upstreamUrl);
  if (known && Date.now() - known.at < OFFERED_TTL_MS) return known.offered;
  const offered = (await securityStatus(api)) !== null;
  offeredByUpstream.set(api.upstreamUrl, { offered, at: Date.now() });
  return offered;
}
