/**
 * A switch of this device kept in a cookie (low data mode, one-tap trading): a form whose one button posts the
 * other state with its CSRF token and says the current one, with a hint under it that describes it.
 */
import { Form } from '@remix-run/react';
import type { ReactNode } from 'react';
import { useTranslation } from '~/i18n/react';
import { CsrfInput } from '~/components/form-parts';

export function CookieSwitch({
  intent,
  name,
  on,
  label,
  hintId,
  hint,
  className,
  reloadDocument,
}: {
  intent: string;
  /** The field that carries the new state, "on" or "off". */
  name: string;
  on: boolean;
  label: string;
  hintId: string;
  hint: ReactNode;
  className: string;
  /** A switch the live stream reads when it opens: the page loads anew, and the stream with it. */
  reloadDocument?: boolean;
}) {
  const { t } = useTranslation('mine');
  return (
    <Form method="post" reloadDocument={reloadDocument} className={className}>
      <CsrfInput />
      <input type="hidden" name="intent" value={intent} />
      <button
        type="submit"
        name={name}
        value={on ? 'off' : 'on'}
        role="switch"
        aria-checked={on}
        aria-describedby={hintId}
        className="list-button"
      >
        <span className="grow">{label}</span>
        <span className="low-data-state" aria-hidden="true">
          {on ? t('system.lowDataOn') : t('system.lowDataOff')}
        </span>
      </button>
      <p id={hintId} className="muted field-hint">
        {hint}
      </p>
    </Form>
  );
}
