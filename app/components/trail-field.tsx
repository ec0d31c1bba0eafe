/**
 * The trailing stop's distance (the order ticket on /trade and the order popup on /order): optional, in price
 * units as the trader types them, with a hint that says what it does. Empty or 0 is "off".
 */
import { getInputProps, type FieldMetadata } from '@conform-to/react';
import { ErrorList } from './forms';

export function TrailField({
  meta,
  label,
  hint,
  placeholder,
  type = 'text',
}: {
  meta: FieldMetadata<string | number | undefined>;
  label: string;
  hint: string;
  placeholder?: string;
  /** `number` on the ticket (like its other prices), `text` in the popup (like its stops). */
  type?: 'text' | 'number';
}) {
  const errorId = meta.errors?.length ? meta.errorId : undefined;
  const hintId = `${meta.id}-hint`;
  return (
    <div className="field trail-field">
      <label htmlFor={meta.id}>{label}</label>
      <input
        {...getInputProps(meta, { type, ariaAttributes: true })}
        aria-describedby={[errorId, hintId].filter(Boolean).join(' ')}
        inputMode="decimal"
        autoComplete="off"
        placeholder={placeholder}
      />
      <p id={hintId} className="field-hint muted">
        {hint}
      </p>
      <ErrorList id={errorId} errors={meta.errors} />
    </div>
  );
}
