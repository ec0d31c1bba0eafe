/** A flash toast from the session: a banner without JS; with JS it also fades after a few seconds. */
import { useEffect, useState } from 'react';
import { useTranslation } from '~/i18n/react';
import type { Toast } from '~/utils/toast';

export function ToastBanner({ toast }: { toast: Toast }) {
  const { t } = useTranslation();
  const [visible, setVisible] = useState(true);
  useEffect(() => {
    if (toast.kind === 'error') return; // errors stay until dismissed
    const timer = setTimeout(() => setVisible(false), 4000);
    return () => clearTimeout(timer);
  }, [toast]);
  if (!visible) return null;
  return (
    <div className={`toast toast-${toast.kind}`} role={toast.kind === 'error' ? 'alert' : 'status'}>
      <span className="toast-text">{toast.message}</span>
      <button type="button" className="toast-close" aria-label={t('actions.dismiss')} onClick={() => setVisible(false)}>
        ×
      </button>
    </div>
  );
}
