/** /mine/bank-card-list: the bound bank accounts, swipe or tap to delete (spec §2). */
import type { MetaFunction } from '@remix-run/node';
import { WithdrawType } from '#contract/enums';
import { WithdrawMethodList } from '~/components/withdraw-method-list';
import { methodListAction, methodListLoader } from '~/components/withdraw-method-list.server';
import { pageTitle } from '~/utils/page-title';

export { DemoBlockedBoundary as ErrorBoundary } from '~/components/demo-blocked';

export const loader = methodListLoader(WithdrawType.Bank);
export const action = methodListAction(WithdrawType.Bank);
export const meta: MetaFunction<typeof loader> = (args) => pageTitle(args, args.data?.title);

export default function BankCardList() {
  return <WithdrawMethodList />;
}
