/** /mine/coin-address-list: the bound coin addresses, with delete (spec §2). */
import type { MetaFunction } from '@remix-run/node';
import { WithdrawType } from '#contract/enums';
import { WithdrawMethodList } from '~/components/withdraw-method-list';
import { methodListAction, methodListLoader } from '~/components/withdraw-method-list.server';
import { pageTitle } from '~/utils/page-title';

export { DemoBlockedBoundary as ErrorBoundary } from '~/components/demo-blocked';

export const loader = methodListLoader(WithdrawType.Crypto);
export const action = methodListAction(WithdrawType.Crypto);
export const meta: MetaFunction<typeof loader> = (args) => pageTitle(args, args.data?.title);

export default function CoinAddressList() {
  return <WithdrawMethodList />;
}
