/** /mine/bank-card-list: the bound bank accounts, swipe or tap to delete (spec §2). */
import type { LinksFunction, MetaFunction } from '@remix-run/node';
import { WithdrawType } from '#contract/enums';
import { WithdrawMethodList } from '~/components/withdraw-method-list';
import { methodListAction, methodListLoader } from '~/components/withdraw-method-list.server';
import styles from '~/styles/funds.css?url';
import { pageTitle } from '~/utils/page-title';

export { DemoBlockedBoundary as ErrorBoundary } from '~/components/demo-blocked';

const PATH = '/mine/bank-card-list';
export const loader = methodListLoader(WithdrawType.Bank, 'mine:pages.bankCards');
export const action = methodListAction(PATH);
export const meta: MetaFunction<typeof loader> = (args) => pageTitle(args, args.data?.title);
export const links: LinksFunction = () => [{ rel: 'stylesheet', href: styles }];

export default function BankCardList() {
  return <WithdrawMethodList path={PATH} />;
}
