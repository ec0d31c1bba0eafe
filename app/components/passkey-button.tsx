/**
 * A passkey ceremony behind one button (issue 38): the options from /passkey, the phone's own prompt through
 * @simplewebauthn/browser (loaded on the tap, so no screen's first script grows), then the answer posted to the page
 * as a plain form (Post/Redirect/Get). WebAuthn needs JavaScript: before hydration, and without it, the screen
 * says so (`withoutScript`) and its code form is the way.
 */
import { Form } from '@remix-run/react';
import { useRef, useState } from 'react';
import { useAuthenticityToken } from 'remix-utils/csrf/react';
import { useHydrated } from 'remix-utils/use-hydrated';
import { CsrfInput } from '~/components/form-parts';
import { useTranslation } from '~/i18n/react';

type State = { kind: 'ready' } | { kind: 'working' } | { kind: 'failed'; message: string };

export function PasskeyButton({
  ceremony,
  id,
  action,
  intent,
  label,
  withoutScript,
  className = 'button block',
  children,
}: {
  ceremony: 'register' | 'login' | 'step-up';
  /** The kept form of a step-up. */
  id?: string;
  /** The page the answer is posted to, with `intent`. */
  action?: string;
  intent: string;
  label: string;
  /** What the screen says where a passkey cannot be used (nothing: the button is an extra there). */
  withoutScript?: string;
  className?: string;
  /** More fields posted with the answer (a new passkey's name). */
  children?: React.ReactNode;
}) {
  const { t } = useTranslation('security');
  const hydrated = useHydrated();
  const csrf = useAuthenticityToken();
  const form = useRef<HTMLFormElement>(null);
  const answer = useRef<HTMLInputElement>(null);
  const [state, setState] = useState<State>({ kind: 'ready' });

  // Where the button is an extra, its place is kept while it cannot be used: what is under it must not move under a
  // finger when the page's code comes (a tap meant for "Open a demo account" landed beside it).
  const place = (
    <div className="form passkey-form" aria-hidden="true">
      <span className={`${className ?? ''} passkey-place`}>{label}</span>
    </div>
  );
  if (!hydrated) return withoutScript ? <p className="muted">{withoutScript}</p> : place;
  if (typeof window.PublicKeyCredential !== 'function') return withoutScript ? <p className="muted">{t('passkey.unsupported')}</p> : place;

  async function run() {
    if (form.current && !form.current.reportValidity()) return;
    setState({ kind: 'working' });
    try {
      const response = await fetch('/passkey', {
        method: 'POST',
        body: new URLSearchParams({ intent: ceremony, csrf, ...(id ? { id } : {}) }),
      });
      const body = (await response.json().catch(() => ({}))) as { options?: unknown; error?: string };
      if (!response.ok || !body.options) return setState({ kind: 'failed', message: body.error ?? t('passkey.failed') });
      const browser = await import('@simplewebauthn/browser');
      const result =
        ceremony === 'register'
          ? await browser.startRegistration({ optionsJSON: body.options as Parameters<typeof browser.startRegistration>[0]['optionsJSON'] })
          : await browser.startAuthentication({
              optionsJSON: body.options as Parameters<typeof browser.startAuthentication>[0]['optionsJSON'],
            });
      answer.current!.value = JSON.stringify(result);
      form.current!.requestSubmit();
      setState({ kind: 'ready' });
    } catch {
      // Cancelled, timed out, or no passkey of this site on this phone: the browser says no more than that.
      setState({ kind: 'failed', message: t('passkey.failed') });
    }
  }

  return (
    <Form method="post" action={action} ref={form} className="form passkey-form">
      <CsrfInput />
      <input type="hidden" name="intent" value={intent} />
      <input type="hidden" name="answer" ref={answer} />
      {children}
      {state.kind === 'failed' ? (
        <p className="field-error" role="alert">
          {state.message}
        </p>
      ) : null}
      <button type="button" className={className} onClick={run} disabled={state.kind === 'working'} aria-busy={state.kind === 'working'}>
        {state.kind === 'working' ? t('passkey.working') : label}
      </button>
    </Form>
  );
}
