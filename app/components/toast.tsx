/**
 * A flash toast from the session: with JavaScript it fades after a few seconds (an error stays) and "Dismiss" hides
 * it. "Dismiss" is a link to the page again, so that without JavaScript it works too: a flash is shown once, and
 * every page a toast arrives on is a GET (Post/Redirect/Get), so loading it again takes only the toast away.
 */
import { useLocation } from '@remix-run/react';
import { useEffect, useState } from 'react';
import { useTranslation } from '~/i18n/react';
import type { Toast } from '~/utils/toast';

interface Props {
  toast: Toast;
  /** The page without the toast, where that is not this address (a toast the address itself asks for). */
  dismissTo?: string;
}

export function ToastBanner({ toast, dismissTo }: Props) {
  const { t } = useTranslation();
  const location = useLocation();
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
      <a
        // One leading slash: an address such as `//host/x` would make the link leave the site.
        href={dismissTo ?? `${location.pathname.replace(/^\/+/, '/')}${location.search}`}
        className="toast-close"
        aria-label={t('actions.dismiss')}
        onClick={(event) => {
          event.preventDefault();
          setVisible(false);
        }}
      >
        ×
      </a>
    </div>
  );
}
