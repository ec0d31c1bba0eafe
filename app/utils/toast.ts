/** A message shown once at the top of the next page (spec §8: server messages as toasts). */
export interface Toast {
  kind: 'success' | 'error' | 'info';
  message: string;
}
