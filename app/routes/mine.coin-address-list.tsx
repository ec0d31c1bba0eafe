/** /mine/coin-address-list: the bound coin addresses, with delete (spec §2). */
import type { MetaFunction } from '@remix-run/node';
import { WithdrawType } from '#contract/enums';
import { WithdrawMethodList } from '~/components/withdraw-method-list';
import { methodListAction, methodListLoader } from '~/components/withdraw-method-list.server';
import fundsCss from '~/styles/funds.css?inline';
import { pageTitle } from '~/utils/page-title';

export { DemoBlockedBoundary as ErrorBoundary } from '~/components/demo-blocked';

const PATH = '/mine/coin-address-list';
export const loader = methodListLoader(WithdrawType.Crypto, 'mine:pages.coinAddresses');
export const action = methodListAction(PATH);
export const meta: MetaFunction<typeof loader> = (args) => pageTitle(args, args.data?.title);

export default function CoinAddressList() {
  return (
    <>
      {/* The screen's stylesheet comes with its markup (decision 0020). */}
      <style dangerouslySetInnerHTML={{ __html: fundsCss }} />
      <WithdrawMethodList path={PATH} />
    </>
  );
}
