/**
 * Web Push (issue 13, price alerts): the upstream's public VAPID key, and a phone's push subscription kept
 * per user so that a fired alert reaches the phone with no page open. Not in the spec: our own calls.
 */
import { z } from 'zod/v4';
import { defineCall } from './define';

/** What `PushSubscription.toJSON()` gives in the browser, flattened for a form body. */
export const PushSubscriptionSchema = z.object({
  endpoint: z.string().url().max(1024),
  /** The browser's P-256 public key, base64url (65 bytes uncompressed). */
  p256dh: z.string().regex(/^[A-Za-z0-9_-]{86,88}$/),
  /** The browser's 16-byte auth secret, base64url. */
  auth: z.string().regex(/^[A-Za-z0-9_-]{21,24}$/),
});

export const pushKey = defineCall({
  name: 'push_key',
  method: 'GET',
  path: '/v1/api/push/key',
  auth: 'none',
  request: z.object({}),
  /** The application server key the browser subscribes with (base64url). */
  response: z.object({ public_key: z.string() }),
});

export const pushSubscribe = defineCall({
  name: 'push_subscribe',
  method: 'POST',
  path: '/v1/api/push/subscribe',
  auth: 'required',
  request: PushSubscriptionSchema,
  response: z.null(),
});

export const pushUnsubscribe = defineCall({
  name: 'push_unsubscribe',
  method: 'POST',
  path: '/v1/api/push/unsubscribe',
  auth: 'required',
  request: z.object({ endpoint: z.string().url().max(1024) }),
  response: z.null(),
});

/** What a push carries; the service worker shows it as a notification and opens `url` when tapped. */
export const PushPayloadSchema = z.object({
  title: z.string(),
  body: z.string(),
  /** A same-origin path of the web app. */
  url: z.string().startsWith('/'),
  tag: z.string().optional(),
});
export type PushPayload = z.infer<typeof PushPayloadSchema>;
