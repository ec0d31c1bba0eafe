/**
 * Web Push from the upstream (issue 13, price alerts): the VAPID key pair is made at first start and kept
 * in the data folder; each user's phones are stored as push subscriptions; `send` encrypts a payload for
 * every subscription of a user and posts it to its push service with the well-kept `web-push` library.
 * A subscription the service says is gone (404/410) is forgotten. Only the push services named in
 * PUSH_SERVICE_HOSTS are ever called: an endpoint is a URL a user chose, and the upstream must not post to
 * whatever address a user names.
 */
import fs from 'node:fs';
import webpush from 'web-push';
import type { PushPayload } from '../../contract/calls/push';
import type { Db } from '../db/database';
import { BusinessError } from '../shared/errors';

/** The push services of the browsers that phones run (Chrome/Android, Firefox, Safari, Edge). */
export const DEFAULT_PUSH_SERVICE_HOSTS = [
  'fcm.googleapis.com',
  'updates.push.services.mozilla.com',
  '*.push.apple.com',
  '*.notify.windows.com',
];

export interface WebPushOptions {
  /** Where the key pair is kept (made on first start). */
  keyFile: string;
  /** Hosts an endpoint may name (`*.` matches any subdomain); tests add their own local endpoint. */
  serviceHosts: readonly string[];
  /** The contact the push services see in the VAPID token. */
  subject: string;
  clock: () => number;
  log: (line: string) => void;
}

interface SubscriptionRow {
  endpoint: string;
  p256dh: string;
  auth: string;
}

/** How long a push service keeps a message for a phone that is off (an alert is stale after an hour). */
const TTL_SECONDS = 3600;
/** A push service that does not answer within this is given up on (the alert's other channels carry it). */
const SEND_TIMEOUT_MS = 10_000;
/** A user's phones kept at most: the oldest goes when another subscribes. */
const MAX_PER_USER = 10;

export class WebPush {
  readonly publicKey: string;
  private readonly privateKey: string;
  private readonly stmt;

  constructor(
    private readonly db: Db,
    private readonly options: WebPushOptions,
  ) {
    const keys = readOrCreateKeys(options.keyFile);
    this.publicKey = keys.publicKey;
    this.privateKey = keys.privateKey;
    this.stmt = {
      upsert: db.prepare(
        `INSERT INTO push_subscriptions (user_id, endpoint, p256dh, auth, created_at) VALUES (?, ?, ?, ?, ?)
         ON CONFLICT (endpoint) DO UPDATE SET user_id = excluded.user_id, p256dh = excluded.p256dh, auth = excluded.auth,
           created_at = excluded.created_at`,
      ),
      trim: db.prepare(
        `DELETE FROM push_subscriptions WHERE user_id = ? AND endpoint NOT IN
           (SELECT endpoint FROM push_subscriptions WHERE user_id = ? ORDER BY created_at DESC, rowid DESC LIMIT ${MAX_PER_USER})`,
      ),
      remove: db.prepare('DELETE FROM push_subscriptions WHERE user_id = ? AND endpoint = ?'),
      forget: db.prepare('DELETE FROM push_subscriptions WHERE endpoint = ?'),
      ofUser: db.prepare('SELECT endpoint, p256dh, auth FROM push_subscriptions WHERE user_id = ?'),
    };
  }

  /** Keeps a phone's subscription for this user (an endpoint moves to the user who subscribed it last). */
  subscribe(userId: number, sub: SubscriptionRow): void {
    if (!this.allowed(sub.endpoint)) throw new BusinessError('InvalidRequest', 'endpoint');
    this.db.transaction(() => {
      this.stmt.upsert.run(userId, sub.endpoint, sub.p256dh, sub.auth, this.options.clock());
      this.stmt.trim.run(userId, userId);
    })();
  }

  unsubscribe(userId: number, endpoint: string): void {
    this.stmt.remove.run(userId, endpoint);
  }

  subscriptionsOf(userId: number): number {
    return (this.stmt.ofUser.all(userId) as SubscriptionRow[]).length;
  }

  /** Sends `payload` to every phone of the user; resolves with how many services accepted it. Never throws. */
  async send(userId: number, payload: PushPayload): Promise<number> {
    const subs = this.stmt.ofUser.all(userId) as SubscriptionRow[];
    const body = JSON.stringify(payload);
    const results = await Promise.all(
      subs.map(async (s) => {
        if (!this.allowed(s.endpoint)) return false; // the list of services changed since it subscribed
        try {
          // The library encrypts and signs (the hard part); node's fetch carries it, so that a bounded wait
          // applies and a push service on this machine (the tests') can speak plain HTTP.
          const request = webpush.generateRequestDetails({ endpoint: s.endpoint, keys: { p256dh: s.p256dh, auth: s.auth } }, body, {
            TTL: TTL_SECONDS,
            urgency: 'high',
            topic: payload.tag,
            vapidDetails: { subject: this.options.subject, publicKey: this.publicKey, privateKey: this.privateKey },
          });
          const res = await fetch(request.endpoint, {
            method: request.method,
            headers: request.headers as Record<string, string>,
            body: request.body ? new Uint8Array(request.body) : undefined,
            redirect: 'error',
            signal: AbortSignal.timeout(SEND_TIMEOUT_MS),
          });
          if (res.status === 404 || res.status === 410) this.stmt.forget.run(s.endpoint);
          if (!res.ok) this.options.log(`push to ${new URL(s.endpoint).host} refused: HTTP ${res.status}`);
          return res.ok;
        } catch (error) {
          this.options.log(`push to ${new URL(s.endpoint).host} failed: ${String(error)}`);
          return false;
        }
      }),
    );
    return results.filter(Boolean).length;
  }

  private allowed(endpoint: string): boolean {
    let url: URL;
    try {
      url = new URL(endpoint);
    } catch {
      return false;
    }
    const host = url.host;
    const hostname = url.hostname;
    const local = hostname === '127.0.0.1' || hostname === 'localhost' || hostname === '[::1]';
    // Real push services are HTTPS; a plain-HTTP endpoint only on this machine, and only when listed.
    if (url.protocol !== 'https:' && !(url.protocol === 'http:' && local)) return false;
    return this.options.serviceHosts.some((h) =>
      h.startsWith('*.') ? hostname.endsWith(h.slice(1)) && hostname.length > h.length - 1 : h === hostname || h === host,
    );
  }
}

function readOrCreateKeys(file: string): { publicKey: string; privateKey: string } {
  if (fs.existsSync(file)) return JSON.parse(fs.readFileSync(file, 'utf8')) as { publicKey: string; privateKey: string };
  const keys = webpush.generateVAPIDKeys();
  fs.writeFileSync(file, JSON.stringify(keys) + '\n', { mode: 0o600 });
  return keys;
}
