/**
 * A form field with accessibility built in: a label, `aria-invalid`, `aria-describedby` pointing at the errors
 * and the hint, and error messages translated in the user's language. No schema here: a form's checks (zod) load
 * after the page is up (late-checks.ts, decision 0028).
 */
import { getInputProps, type FieldMetadata } from '@conform-to/react';
import { ErrorList } from './form-parts';

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
