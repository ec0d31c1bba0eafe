/**
 * A value to copy (an address, a link, a code): without JavaScript it sits in a read-only field that a
 * long press selects; with JavaScript a Copy button puts it on the clipboard and says so (spec §8 "copy
 * success").
 */
import { useEffect, useId, useState } from 'react';
import { useTranslation } from '~/i18n/react';
import { useHydrated } from 'remix-utils/use-hydrated';

export function CopyField({ label, value, dir }: { label: string; value: string; dir?: 'ltr' | 'rtl' }) {
  const { t } = useTranslation();
  const id = useId();
  const hydrated = useHydrated();
  const [copied, setCopied] = useState<'yes' | 'failed' | null>(null);
  useEffect(() => {
    if (!copied) return;
    const timer = setTimeout(() => setCopied(null), 2500);
    return () => clearTimeout(timer);
  }, [copied]);
  async function copy() {
    try {
      await navigator.clipboard.writeText(value);
      setCopied('yes');
    } catch {
      // An insecure page or a refused permission: select the text so a long press copies it.
      (document.getElementById(id) as HTMLInputElement | null)?.select();
      setCopied('failed');
    }
  }
  return (
    <div className="copy-field">
      <label htmlFor={id}>{label}</label>
      <div className="copy-row">
        <input id={id} readOnly value={value} dir={dir ?? 'ltr'} onFocus={(e) => e.currentTarget.select()} />
        {hydrated ? (
          <button type="button" className="button secondary" onClick={copy}>
            {t('actions.copy')}
          </button>
        ) : null}
      </div>
      <p className="copy-status" role="status">
        {copied === 'yes' ? t('toasts.copied') : copied === 'failed' ? t('toasts.copyFailed') : ''}
      </p>
    </div>
  );
}
