/** The withdraw screen's address: the kind of withdrawal (coin or bank), and what else the screen shows. */
import { WithdrawType } from '#contract/enums';

/** `?type=`: 2 bank; anything else is a coin withdrawal. */
export const typeOf = (v: unknown) => (Number(v) === WithdrawType.Bank ? WithdrawType.Bank : WithdrawType.Crypto);

export const withdrawUrl = (type: WithdrawType, extra: Record<string, string> = {}) =>
  `/mine/withdraw?${new URLSearchParams({ type: String(type), ...extra })}`;

/** What "Calculate" carries to the page it redirects to (Post/Redirect/Get): the form's values, shown again. */
const TYPED = ['currency', 'method', 'amount', 'memo'] as const;
export type TypedWithdrawal = Partial<Record<(typeof TYPED)[number], string>>;

export function typedOf(params: { get(name: string): unknown }): TypedWithdrawal {
  const typed: TypedWithdrawal = {};
  for (const name of TYPED) {
    const value = params.get(name);
    if (typeof value === 'string' && value.trim()) typed[name] = value.trim().slice(0, 100);
  }
  return typed;
}
