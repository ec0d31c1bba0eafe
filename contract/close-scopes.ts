/**
 * Which positions a "close all" takes. Apart from calls/trade.ts (its zod schemas) so that the orders screen's
 * first script can read a scope from its URL without zod.
 */
export const CLOSE_ALL_SCOPES = ['all', 'profit', 'loss'] as const;
export type CloseAllScope = (typeof CLOSE_ALL_SCOPES)[number];

/** Which positions a close-all takes, by their floating profit (the one rule for both sides). */
export function inCloseScope(scope: CloseAllScope, profit: number): boolean {
  return scope === 'all' || (scope === 'profit' ? profit > 0 : profit < 0);
}
