/**
 * The verification-code field with its "Send code" button (spec §4: 60 seconds before a new code).
 * Without JavaScript the button posts the whole form (`intent=send-code`) and is redirected to the page again,
 * with what was typed (passwords aside), the wait, and the button disabled. With JavaScript a fetcher sends only what the code
 * needs, so nothing typed is lost, and the wait counts down live and re-enables the button at 0.
 */
import type { FieldMetadata } from '@conform-to/react';
import { useFetcher } from '@remix-run/react';
import { useCallback, useEffect, useState } from 'react';
import { useTranslation } from '~/i18n/react';
import { Field } from './field';
import { FormError } from './form-parts';

export const SEND_CODE_INTENT = 'send-code';
/** Marks the fetcher's post (JavaScript): it is answered with data, not redirected to a page. */
export const IN_PLACE_FIELD = 'in_place';

/** What a send-code action answers (see verification-code.server.ts). */
interface SendCodeAnswer {
  result?: { error?: Record<string, string[] | null> | null } | null;
  codeSent?: { resendIn: number };
}

/** Seconds left until `deadline`, ticking once a second in the browser; the server's figure first. */
function useCountdown(seconds: number): [number, (seconds: number) => void] {
  const [left, setLeft] = useState(seconds);
  const [deadline, setDeadline] = useState<number | null>(null);
  const restart = useCallback((s: number) => {
    setLeft(s);
    setDeadline(s > 0 ? Date.now() + s * 1000 : null);
  }, []);
  useEffect(() => restart(seconds), [seconds, restart]);
  useEffect(() => {
    if (deadline === null) return;
    const timer = setInterval(() => {
      const s = Math.max(0, Math.ceil((deadline - Date.now()) / 1000));
      setLeft(s);
      if (s === 0) setDeadline(null);
    }, 250);
    return () => clearInterval(timer);
  }, [deadline]);
  return [left, restart];
}

export function VerificationCodeField({
  meta,
  label,
  resendIn,
  include = [],
  canSend,
  destination,
}: {
  meta: FieldMetadata<string | undefined>;
  label: string;
  /** Seconds until a new code may be asked for, as the server computed it (0: now). */
  resendIn: number;
  /** The form's fields the code needs (the e-mail it goes to), sent with it by the fetcher. */
  include?: string[];
  /** Checks those fields first (showing their errors); false: nothing is sent. */
  canSend?: (payload: FormData) => boolean;
  /** Where the code goes, when the user does not type it (their own e-mail). */
  destination?: string | null;
}) {
  const { t } = useTranslation('auth');
  const fetcher = useFetcher<SendCodeAnswer>();
  const [left, restart] = useCountdown(resendIn);
  const answer = fetcher.state === 'idle' ? fetcher.data : undefined;
  useEffect(() => {
    if (answer?.codeSent) restart(answer.codeSent.resendIn);
  }, [answer, restart]);
  const sending = fetcher.state !== 'idle';
  const errors = answer && !answer.codeSent ? Object.values(answer.result?.error ?? {}).flatMap((e) => e ?? []) : [];
  const onSend = (event: React.MouseEvent<HTMLButtonElement>) => {
    const form = event.currentTarget.form;
    if (!form) return;
    event.preventDefault();
    const typed = new FormData(form);
    const payload = new FormData();
    payload.set('csrf', String(typed.get('csrf') ?? ''));
    payload.set('intent', SEND_CODE_INTENT);
    payload.set(IN_PLACE_FIELD, '1');
    for (const name of include) payload.set(name, String(typed.get(name) ?? ''));
    if (canSend && !canSend(payload)) return;
    fetcher.submit(payload, { method: 'post' });
  };
  return (
    <>
      <Field meta={meta} label={label} autoComplete="one-time-code" inputMode="numeric">
        <button
          type="submit"
          name="intent"
          value={SEND_CODE_INTENT}
          formNoValidate
          className="button secondary send-code"
          disabled={left > 0 || sending}
          onClick={onSend}
        >
          {sending ? t('common:actions.loading') : left > 0 || answer?.codeSent ? t('code.sendAgain') : t('code.send')}
        </button>
      </Field>
      {destination ? <p className="code-hint">{t('code.sentToAccount', { destination })}</p> : null}
      {left > 0 ? (
        <p className="code-hint">
          <span role="status">{t('code.sent')}</span> <span>{t('code.wait', { seconds: left })}</span>
        </p>
      ) : null}
      <FormError errors={errors} />
    </>
  );
}

/**
 * Enter in any field submits the form's main action: the browser presses the first submit button, which
 * would otherwise be "Send code". Hidden from sight and from assistive technology.
 */
export function DefaultSubmit({ value }: { value: string }) {
  return <button type="submit" name="intent" value={value} className="visually-hidden" tabIndex={-1} aria-hidden="true" />;
}
