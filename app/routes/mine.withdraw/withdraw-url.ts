/** The withdraw screen's address: the kind of withdrawal (coin or bank), and what else the screen shows. */
import { WithdrawType } from '#contract/enums';

/** `?type=`: 2 bank; anything else is a coin withdrawal. */
export const typeOf = (v: unknown) => (Number(v) === WithdrawType.Bank ? WithdrawType.Bank : WithdrawType.Crypto);

export const withdrawUrl = (type: WithdrawType, extra: Record<string, string> = {}) =>
  `/mine/withdraw?${new URLSearchParams({ type: String(type), ...extra })}`;
