/** Web Push calls (contract/calls/push.ts): the key phones subscribe with, and a phone kept or dropped. */
import * as push from '#contract/calls/push';
import type { z } from 'zod/v4';
import type { Api } from './api.server';

export const pushPublicKey = async (api: Api) => (await api.call(push.pushKey, {})).data.public_key;

export const subscribePhone = (api: Api, subscription: z.input<typeof push.PushSubscriptionSchema>) =>
  api.call(push.pushSubscribe, subscription);

export const unsubscribePhone = (api: Api, endpoint: string) => api.call(push.pushUnsubscribe, { endpoint });
