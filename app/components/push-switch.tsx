/**
 * "Notify this phone": subscribes this browser to Web Push (service worker `/sw.js`, the upstream's VAPID
 * key from `/push`) so that a price alert reaches the phone with no page open, and unsubscribes it again.
 * Web Push needs JavaScript and the trader's permission: without either the switch is not shown (or says
 * why), and alerts still come as a toast on any open page and by e-mail.
 */
import { useEffect, useState } from 'react';
import { useTranslation } from '~/i18n/react';
import { useAuthenticityToken } from 'remix-utils/csrf/react';
import { useHydrated } from 'remix-utils/use-hydrated';

type State = 'checking' | 'unsupported' | 'off' | 'on' | 'working' | 'denied' | 'failed';

const supported = () => 'serviceWorker' in navigator && 'PushManager' in window && 'Notification' in window;

async function currentSubscription(): Promise<PushSubscription | null> {
  const registration = await navigator.serviceWorker.getRegistration('/');
  return (await registration?.pushManager.getSubscription()) ?? null;
}

/** The key as the Push API wants it: raw bytes from base64url. */
function keyBytes(base64url: string): Uint8Array<ArrayBuffer> {
  const text = atob(base64url.replace(/-/g, '+').replace(/_/g, '/'));
  const bytes = new Uint8Array(new ArrayBuffer(text.length));
  for (let i = 0; i < text.length; i++) bytes[i] = text.charCodeAt(i);
  return bytes;
}

export function PushSwitch() {
  const { t } = useTranslation('alerts');
  const hydrated = useHydrated();
  const csrf = useAuthenticityToken();
  const [state, setState] = useState<State>('checking');

  useEffect(() => {
    if (!supported()) return setState('unsupported');
    if (Notification.permission === 'denied') return setState('denied');
    currentSubscription().then(
      (s) => setState(s ? 'on' : 'off'),
      () => setState('off'),
    );
  }, []);

  const post = (fields: Record<string, string>) =>
    fetch('/push', { method: 'POST', body: new URLSearchParams({ ...fields, csrf }) }).then((r) => {
      if (!r.ok) throw new Error(`push ${fields.intent}: HTTP ${r.status}`);
    });

  async function turnOn() {
    setState('working');
    try {
      if ((await Notification.requestPermission()) !== 'granted') return setState('denied');
      const registration = await navigator.serviceWorker.register('/sw.js', { scope: '/' });
      await navigator.serviceWorker.ready;
      const { publicKey } = (await (await fetch('/push')).json()) as { publicKey: string };
      const subscription = await registration.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: keyBytes(publicKey) });
      const { endpoint, keys } = subscription.toJSON();
      await post({ intent: 'subscribe', endpoint: endpoint ?? '', p256dh: keys?.p256dh ?? '', auth: keys?.auth ?? '' });
      setState('on');
    } catch {
      setState('failed');
    }
  }

  async function turnOff() {
    setState('working');
    try {
      const subscription = await currentSubscription();
      if (subscription) {
        await post({ intent: 'unsubscribe', endpoint: subscription.endpoint });
        await subscription.unsubscribe();
      }
      setState('off');
    } catch {
      setState('failed');
    }
  }

  if (!hydrated || state === 'checking' || state === 'unsupported') return null;
  return (
    <section className="push-switch" aria-labelledby="push-switch-title">
      <h2 id="push-switch-title">{t('push.title')}</h2>
      <p>{state === 'on' ? t('push.on') : state === 'denied' ? t('push.denied') : t('push.explain')}</p>
      {state === 'failed' ? <p role="alert">{t('push.failed')}</p> : null}
      {state === 'denied' ? null : (
        <button
          type="button"
          className={state === 'on' ? 'button secondary' : 'button'}
          disabled={state === 'working'}
          onClick={() => void (state === 'on' ? turnOff() : turnOn())}
        >
          {state === 'on' ? t('push.turnOff') : t('push.turnOn')}
        </button>
      )}
    </section>
  );
}
