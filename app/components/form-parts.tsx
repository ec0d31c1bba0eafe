/**
 * The parts every form uses, with or without a schema: the CSRF token, a submit button that says it is
 * working, and translated error messages. Apart from late-checks.ts so that a screen whose only form is a button
 * (a confirmation, a logout) does not load conform with its first script.
 */
import { useNavigation } from '@remix-run/react';
import { AuthenticityTokenInput } from 'remix-utils/csrf/react';
import { useTranslation } from '~/i18n/react';

export function ErrorList({ id, errors }: { id?: string; errors?: string[] | null }) {
  const { t } = useTranslation();
  // The same words from the browser and from the server are said once.
  const list = [...new Set((errors?.filter(Boolean) ?? []).map((e) => t(e)))];
  // Always there, one line tall (CSS): a message arriving on blur does not move the button under the finger.
  return (
    <div id={list.length > 0 ? id : undefined} className="field-errors">
      {list.map((e) => (
        <p key={e} className="field-error">
          {e}
        </p>
      ))}
    </div>
  );
}

/** A submit button that says it is working while its form is being sent (with JavaScript). */
export function SubmitButton({
  children,
  className = 'button block',
  name,
  value,
  disabled,
}: {
  children: React.ReactNode;
  className?: string;
  name?: string;
  value?: string;
  disabled?: boolean;
}) {
  const navigation = useNavigation();
  const { t } = useTranslation();
  const busy = navigation.state === 'submitting' && (name === undefined || navigation.formData?.get(name) === value);
  return (
    <button type="submit" className={className} name={name} value={value} disabled={disabled || busy} aria-disabled={disabled || busy}>
      {busy ? t('actions.loading') : children}
    </button>
  );
}

/** The CSRF token every state-changing form carries. */
export function CsrfInput() {
  return <AuthenticityTokenInput name="csrf" />;
}

/** A form-level error (the upstream's message), announced to screen readers. */
export function FormError({ id, errors }: { id?: string; errors?: string[] | null }) {
  const { t } = useTranslation();
  const list = errors?.filter(Boolean) ?? [];
  if (list.length === 0) return null;
  return (
    <div id={id} role="alert" className="form-error">
      {list.map((e) => (
        <p key={e}>{t(e)}</p>
      ))}
    </div>
  );
}
