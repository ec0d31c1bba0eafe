/** Web Push calls (contract/calls/push.ts): the VAPID key, and a phone's subscription kept or dropped. */
import type { FastifyInstance } from 'fastify';
import * as push from '../../contract/calls/push';
import type { Upstream } from '../upstream';
import { register } from './route';

export function registerPushRoutes(app: FastifyInstance, up: Upstream): void {
  register(app, up, push.pushKey, () => ({ public_key: up.push.publicKey }));
  register(app, up, push.pushSubscribe, ({ input, user }) => {
    up.push.subscribe(user.id, input);
    return null;
  });
  register(app, up, push.pushUnsubscribe, ({ input, user }) => {
    up.push.unsubscribe(user.id, input.endpoint);
    return null;
  });
}
