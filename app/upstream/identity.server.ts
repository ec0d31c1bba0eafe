/** Spec §7 "Identity": the real-name check, mapped to the screen's three states. */
import * as identity from '#contract/calls/identity';
import { ReviewStatus } from '#contract/enums';
import type { Api } from './api.server';

type IdentityState =
  | { state: 'form'; rejection: string | null }
  | { state: 'waiting'; name: string; idNumber: string }
  | { state: 'certified'; name: string; idNumber: string };

export async function identityState(api: Api): Promise<IdentityState> {
  const { data } = await api.call(identity.realNameCenter, {});
  if (data.review_status === ReviewStatus.NotSubmitted) return { state: 'form', rejection: data.reason };
  const person = { name: data.name ?? '', idNumber: data.card_id ?? '' };
  return data.review_status === ReviewStatus.UnderReview ? { state: 'waiting', ...person } : { state: 'certified', ...person };
}

export async function submitIdentity(api: Api, input: { name: string; idNumber: string; front: string; back: string }): Promise<void> {
  await api.call(identity.realName, { name: input.name, card_id: input.idNumber, front_pic: input.front, reverse_pic: input.back });
}
