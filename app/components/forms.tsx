/**
 * Forms driven by a zod schema through conform, with accessibility built in: a label, `aria-invalid`,
 * `aria-describedby` pointing at the errors, and error messages translated in the user's language. Schemas
 * carry message KEYS (`auth:validation.passwordRequired`); the form parts (form-parts.tsx) translate them.
 */
import { getInputProps, useForm, type FieldMetadata, type SubmissionResult } from '@conform-to/react';
import { getZodConstraint, parseWithZod } from '@conform-to/zod/v3';
import type { z } from 'zod';
import { ErrorList } from './form-parts';

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
