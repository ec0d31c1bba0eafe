/**
 * /mine/wallet (spec §2): the balance, what is held (margin of open orders, withdrawals under review)
 * and what is on its way in (deposits under review), with the ways in and out. Demo accounts are asked to
 * use a real account.
 */
import type { LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { Link, useLoaderData } from '@remix-run/react';
import { useTranslation } from '~/i18n/react';
import { PageHeader } from '~/components/page-header';
import { translator } from '~/i18n/i18next.server';
import { loaderFailure, upstreamApi } from '~/upstream/api.server';
import { account } from '~/upstream/trade.server';
import { formatMargin, formatMoney } from '~/utils/format';
import { requireRealAccount } from '~/utils/guards.server';
import { useLocale } from '~/utils/locale';
import fundsCss from '~/styles/funds.css?inline';
import { pageTitle } from '~/utils/page-title';

export { DemoBlockedBoundary as ErrorBoundary } from '~/components/demo-blocked';

export const meta: MetaFunction<typeof loader> = (args) => pageTitle(args, args.data?.title);

export async function loader({ request, context }: LoaderFunctionArgs) {
  await requireRealAccount(request);
  const api = await upstreamApi(request, context);
  const { t } = await translator(request, 'mine');
  try {
    const a = await account(api);
    return {
      title: t('entries.wallet'),
      balance: a.balance,
      equity: a.equity,
      margin: a.heldMargin,
      withdrawPending: a.withdrawPending,
      depositPending: a.depositPending,
    };
  } catch (error) {
    return loaderFailure(request, error);
  }
}

export default function WalletPage() {
  const w = useLoaderData<typeof loader>();
  const { t } = useTranslation('deposit');
  const { t: tm } = useTranslation('mine');
  const locale = useLocale();
  return (
    <main className="page funds-page">
      {/* The screen's stylesheet comes with its markup (decision 0020). */}
      <style dangerouslySetInnerHTML={{ __html: fundsCss }} />
      <PageHeader title={tm('entries.wallet')} back="/mine" />
      <section className="funds-card" aria-label={t('wallet.figures')}>
        <dl className="wallet-figures">
          <div className="total">
            <dt>{t('wallet.balance')}</dt>
            <dd>{formatMoney(w.balance, locale)} USD</dd>
          </div>
          <div>
            <dt>{t('wallet.margin')}</dt>
            <dd>{formatMargin(w.margin, locale)}</dd>
          </div>
          <div>
            <dt>{t('wallet.equity')}</dt>
            <dd>{formatMoney(w.equity, locale)}</dd>
          </div>
          <div>
            <dt>{t('wallet.depositPending')}</dt>
            <dd>{formatMoney(w.depositPending, locale)}</dd>
          </div>
          <div>
            <dt>{t('wallet.withdrawPending')}</dt>
            <dd>{formatMoney(w.withdrawPending, locale)}</dd>
          </div>
        </dl>
      </section>
      <ul className="list" aria-label={t('wallet.actions')}>
        <li>
          <Link to="/mine/charge" className="list-item">
            <span className="grow">{tm('entries.deposit')}</span>
          </Link>
        </li>
        <li>
          <Link to="/mine/withdraw" className="list-item">
            <span className="grow">{tm('entries.withdraw')}</span>
          </Link>
        </li>
        <li>
          <Link to="/mine/coin-address-list" className="list-item">
            <span className="grow">{tm('pages.coinAddresses')}</span>
          </Link>
        </li>
        <li>
          <Link to="/mine/bank-card-list" className="list-item">
            <span className="grow">{tm('pages.bankCards')}</span>
          </Link>
        </li>
        <li>
          <Link to="/mine/history" className="list-item">
            <span className="grow">{tm('pages.history')}</span>
          </Link>
        </li>
      </ul>
    </main>
  );
}
