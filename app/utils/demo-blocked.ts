/** The 403 a demo account gets on the pages it may not open (components/demo-blocked.tsx draws it); apart, so every page's title can know it without that component's code. */
import { isRouteErrorResponse } from '@remix-run/react';

export const DEMO_BLOCKED = { reason: 'demo-blocked' } as const;

export function isDemoBlocked(error: unknown): boolean {
  return isRouteErrorResponse(error) && error.status === 403 && (error.data as { reason?: unknown } | null)?.reason === DEMO_BLOCKED.reason;
}
