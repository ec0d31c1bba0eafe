/**
 * A dialog's keyboard manners with JavaScript: focus moves into it as it opens (to the element given the returned
 * ref), and Escape dismisses it, by going to `to` (a dialog that lives in the URL) or by calling `dismiss`.
 */
import { useNavigate } from '@remix-run/react';
import { useEffect, useRef } from 'react';

export type DialogDismiss = (() => void) | { to: string; replace?: boolean };

export function useDialog<T extends HTMLElement>(dismiss: DialogDismiss, open = true) {
  const focusTarget = useRef<T>(null);
  const navigate = useNavigate();
  // Taken apart so that a new object of the same place each render does not restart the effect (and move focus).
  const onEscape = typeof dismiss === 'function' ? dismiss : null;
  const to = typeof dismiss === 'function' ? null : dismiss.to;
  const replace = typeof dismiss === 'function' ? false : (dismiss.replace ?? false);
  useEffect(() => {
    if (!open) return;
    focusTarget.current?.focus();
    const onKey = (event: KeyboardEvent) => {
      if (event.key !== 'Escape') return;
      if (onEscape) onEscape();
      else if (to !== null) navigate(to, { replace, preventScrollReset: true });
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [open, onEscape, to, replace, navigate]);
  return focusTarget;
}
