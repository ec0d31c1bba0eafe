/**
 * Passkeys (issue 38, contract/calls/passkeys.ts): listing, adding, naming and removing them, and the ceremonies'
 * options and answers for signing in and for a step-up. The browser's answers pass through as their JSON text.
 */
import * as passkeys from '#contract/calls/passkeys';
import type { StepUpAction } from '#contract/calls/security';
import type { Api } from './api.server';

export interface PasskeyView {
  id: string;
  name: string;
  addedAt: number;
  lastUsedAt: number | null;
}

export async function listPasskeys(api: Api): Promise<PasskeyView[]> {
  const { data } = await api.call(passkeys.passkeyList, {});
  return data.map((p) => ({ id: p.id, name: p.name, addedAt: p.created_at, lastUsedAt: p.last_used_at }));
}

export type Ceremony = { kind: 'register' } | { kind: 'login'; ticket?: string } | { kind: 'step-up'; action: StepUpAction };

/** The options a ceremony starts with in the browser (its challenge kept by the upstream). */
export async function ceremonyOptions(api: Api, ceremony: Ceremony): Promise<Record<string, unknown>> {
  if (ceremony.kind === 'register') return (await api.call(passkeys.passkeyRegisterOptions, {})).data;
  if (ceremony.kind === 'login') return (await api.call(passkeys.passkeyLoginOptions, { ticket: ceremony.ticket })).data;
  return (await api.call(passkeys.passkeyStepUpOptions, { action: ceremony.action })).data;
}

export async function addPasskey(api: Api, name: string, answer: string): Promise<void> {
  await api.call(passkeys.passkeyRegister, { name, answer });
}

export async function renamePasskey(api: Api, id: string, name: string): Promise<void> {
  await api.call(passkeys.passkeyRename, { id, name });
}

export async function removePasskey(api: Api, id: string, grant: string | undefined): Promise<void> {
  await api.call(passkeys.passkeyRemove, { id, grant });
}

/** A passkey's answer (with a half-done log-in's ticket, if any): the session. */
export async function loginWithPasskey(api: Api, answer: string, ticket?: string) {
  return (await api.call(passkeys.passkeyLogin, { answer, ticket }, { initial: true })).data;
}

export async function stepUpWithPasskey(api: Api, action: StepUpAction, answer: string): Promise<{ grant: string }> {
  return (await api.call(passkeys.passkeyStepUp, { action, answer })).data;
}
