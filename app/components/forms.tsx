/**
 * Form pieces with accessibility built in: a label, `aria-invalid`, `aria-describedby` pointing at the
 * errors, and error messages translated in the user's language. Schemas carry message KEYS
 * (`auth:validation.passwordRequired`); these components translate them.
 */
import { getInputProps, useForm, type FieldMetadata, type SubmissionResult } from '@conform-to/react';
import { getZodConstraint, parseWithZod } from '@conform-to/zod/v3';
import { useNavigation } from '@remix-run/react';
import { useTranslation } from '~/i18n/react';
import { AuthenticityTokenInput } from 'remix-utils/csrf/react';
import type { z } from 'zod';

/**
 * A conform form driven by one zod schema, the same the action parses with: HTML constraints from the
 * schema, validation on blur and again on input, and the server's reply (`lastResult`) shown in place.
 */
export function useSchemaForm<S extends z.ZodTypeAny>(
  schema: S,
  options: { id: string; lastResult?: SubmissionResult<string[]> | null; defaultValue?: Partial<Record<keyof z.input<S>, string>> },
) {
  const [form, fields] = useForm<z.input<S>>({
    id: options.id,
    lastResult: options.lastResult ?? undefined,
    defaultValue: options.defaultValue as never,
    constraint: getZodConstraint(schema),
    onValidate: ({ formData }) => parseWithZod(formData, { schema }),
    shouldValidate: 'onBlur',
    shouldRevalidate: 'onInput',
  });
  // conform re-renders a form only for the state its own render read; after a full page load the page can
  // render again without its Field children, dropping their reads, so read every field's errors here.
  void form.allErrors;
  return [form, fields] as const;
}

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

export function Field({
  meta,
  label,
  type = 'text',
  autoComplete,
  inputMode,
  placeholder,
  hint,
  describedBy,
  children,
}: {
  meta: FieldMetadata<string | number | undefined>;
  label: string;
  type?: 'text' | 'email' | 'password' | 'tel' | 'number' | 'hidden';
  autoComplete?: string;
  inputMode?: 'text' | 'email' | 'tel' | 'numeric' | 'decimal';
  placeholder?: string;
  /** What the field means, under it (and described by it). */
  hint?: string;
  /** The id of a note about the value shown outside the field (the money at a stop), read after the rest. */
  describedBy?: string;
  /** Something beside the input (a send-code button). */
  children?: React.ReactNode;
}) {
  const errorId = meta.errors?.length ? meta.errorId : undefined;
  const hintId = hint ? `${meta.id}-hint` : undefined;
  const input = (
    <input
      {...getInputProps(meta, { type, ariaAttributes: true })}
      aria-describedby={[errorId, hintId, describedBy].filter(Boolean).join(' ') || undefined}
      autoComplete={autoComplete}
      inputMode={inputMode}
      placeholder={placeholder}
    />
  );
  return (
    <div className="field">
      <label htmlFor={meta.id}>{label}</label>
      {children ? (
        <div className="field-row">
          {input}
          {children}
        </div>
      ) : (
        input
      )}
      {hint ? (
        <p id={hintId} className="field-hint muted">
          {hint}
        </p>
      ) : null}
      <ErrorList id={errorId} errors={meta.errors} />
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
