/** /mine/bank-card-list: the bound bank accounts, swipe or tap to delete (spec §2). */
import type { MetaFunction } from '@remix-run/node';
import { WithdrawType } from '#contract/enums';
import { WithdrawMethodList } from '~/components/withdraw-method-list';
import { methodListAction, methodListLoader } from '~/components/withdraw-method-list.server';
import fundsCss from '~/styles/funds.css?inline';
import { pageTitle } from '~/utils/page-title';

export { DemoBlockedBoundary as ErrorBoundary } from '~/components/demo-blocked';

const PATH = '/mine/bank-card-list';
export const loader = methodListLoader(WithdrawType.Bank, 'mine:pages.bankCards');
export const action = methodListAction(PATH);
export const meta: MetaFunction<typeof loader> = (args) => pageTitle(args, args.data?.title);

export default function BankCardList() {
  return (
    <>
      {/* The screen's stylesheet comes with its markup (decision 0020). */}
      <style dangerouslySetInnerHTML={{ __html: fundsCss }} />
      <WithdrawMethodList path={PATH} />
    </>
  );
}
