/**
 * How every form checks in the browser: with its zod schema (the one its action parses with), loaded when the
 * browser is first idle rather than with the page, so that zod is in no page's first script (decision 0028).
 * Until the checks are there, a form posts as it is and its action checks it with the same schema; nothing is
 * checked as a field is left (conform would ask the server with a post for that); a chunk that cannot load leaves
 * the form in that state.
 */
import { parse, useForm, type Submission, type SubmissionResult } from '@conform-to/react';
import { useEffect, useRef, useState } from 'react';
import type { z } from 'zod';
import { whenIdle } from '~/utils/when-idle';

const noop = () => {};

/** What `load` brings (a check, or a module of them), once the browser is first idle; null until then. */
function useLateChecks<M>(load: () => Promise<M>): M | null {
  const [checks, setChecks] = useState<M | null>(null);
  // Loaded once per form: `load` names a module, which does not change.
  // eslint-disable-next-line react-hooks/exhaustive-deps
  useEffect(() => whenIdle(() => void load().then((m) => setChecks(() => m), noop)), []);
  return checks;
}

/** What a form posts, unchecked (the action checks it): intents such as a lot button's are still handled in place. */
function unchecked<V>(formData: FormData): Submission<V, string[]> {
  return parse<V, string[]>(formData, { resolve: (value) => ({ value: value as V }) });
}

/**
 * conform's validation for a form whose check may not be there yet: checked on submit, and as a field is changed
 * once it has been checked; `useCheckOnLeave` checks a field as it is left.
 */
export function lateValidation<V>(check: ((formData: FormData) => Submission<V, string[]>) | null | undefined) {
  return {
    onValidate: ({ formData }: { formData: FormData }) => (check ? check(formData) : unchecked<V>(formData)),
    shouldValidate: 'onSubmit' as const,
    shouldRevalidate: 'onInput' as const,
  };
}

/**
 * Once a form's check is there, a field is checked as it is left, after the frame that shows what left it. conform's
 * own check on leaving ran inside that tap's task, so a tap on "Buy up" straight from the lots waited for the
 * ticket's whole check before the confirmation could open (decision 0053). A button that loses focus (the
 * confirmation taking it from "Buy up") is no field to check. And the first check is run once, unseen, when the
 * browser is idle: it builds conform's coerced copy of the schema and runs zod's code cold, which a tap should not
 * wait for (decision 0054).
 */
export function useCheckOnLeave(
  form: { id: string; validate: (options: { name: string }) => void },
  check: ((formData: FormData) => unknown) | null,
) {
  const { id, validate } = form;
  const checked = check !== null;
  const latest = useRef(check);
  useEffect(() => {
    latest.current = check;
  });
  useEffect(() => {
    if (!checked) return;
    const cancelWarm = whenIdle(() => {
      const element = document.forms.namedItem(id);
      if (element) latest.current?.(new FormData(element));
    });
    const leave = (event: FocusEvent) => {
      const field = event.target as Partial<HTMLInputElement>;
      if (!field.name || field.form?.id !== id || field instanceof HTMLButtonElement) return;
      const name = field.name;
      requestAnimationFrame(() => setTimeout(() => document.forms.namedItem(id) && validate({ name })));
    };
    document.addEventListener('focusout', leave);
    return () => {
      cancelWarm();
      document.removeEventListener('focusout', leave);
    };
  }, [id, validate, checked]);
}

/** A form's HTML constraints, as conform derives them from a schema (`getZodConstraint`). */
export type Constraint = NonNullable<Parameters<typeof useForm>[0]['constraint']>;

/** conform's zod adapter, with the schemas: both come after the page. */
const loadAdapter = () => import('@conform-to/zod/v3');

/**
 * A form's schemas module (`loadSchemas`, the module its action parses with), loaded late with conform's zod
 * adapter; `schemaOf` picks the schema for this render's values. Null until both are there.
 */
export function useLateSchemaCheck<M, S extends z.ZodTypeAny>(loadSchemas: () => Promise<M>, schemaOf: (schemas: M) => S) {
  const loaded = useLateChecks(() => Promise.all([loadSchemas(), loadAdapter()]));
  if (!loaded) return null;
  const [schemas, { parseWithZod }] = loaded;
  return { schemas, check: (formData: FormData) => parseWithZod(formData, { schema: schemaOf(schemas) }) };
}

/**
 * A conform form whose checks come late (`useLateSchemaCheck`). The HTML constraints come from the loader
 * (`getZodConstraint` on the server), so the page draws the same with or without the checks. The schemas module
 * comes back too (null until it is there), for a form that uses it beyond its own schema.
 */
export function useLateSchemaForm<M, S extends z.ZodTypeAny>(
  loadSchemas: () => Promise<M>,
  schemaOf: (schemas: M) => S,
  options: {
    id: string;
    constraint: Constraint;
    lastResult?: SubmissionResult<string[]> | null;
    defaultValue?: Partial<Record<keyof z.input<S>, string>>;
  },
) {
  const late = useLateSchemaCheck(loadSchemas, schemaOf);
  const [form, fields] = useForm<z.input<S>>({
    id: options.id,
    lastResult: options.lastResult ?? undefined,
    defaultValue: options.defaultValue as never,
    constraint: options.constraint as never,
    ...lateValidation(late?.check),
  });
  useCheckOnLeave(form, late?.check ?? null);
  // conform re-renders a form only for the state its own render read; after a full page load the page can
  // render again without its Field children, dropping their reads, so read every field's errors here.
  void form.allErrors;
  return [form, fields, late?.schemas ?? null] as const;
}
