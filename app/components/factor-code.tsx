/** The code field of the log-in's second step, the step-up and the authenticator's set-up. */
import type { FieldMetadata } from '@conform-to/react';
import { Field } from './field';

export function FactorCodeField({ meta, label, hint }: { meta: FieldMetadata<string | number | undefined>; label: string; hint?: string }) {
  // Text, not numeric: a recovery code has letters. `one-time-code` lets a phone offer a code it received.
  return <Field meta={meta} label={label} autoComplete="one-time-code" inputMode="text" hint={hint} />;
}
