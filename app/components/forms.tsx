/**
 * Forms driven by a zod schema through conform. Schemas carry message KEYS (`auth:validation.passwordRequired`);
 * the form parts (form-parts.tsx) translate them, and a field (field.tsx) shows them.
 */
import { useForm, type SubmissionResult } from '@conform-to/react';
import { getZodConstraint, parseWithZod } from '@conform-to/zod/v3';
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
