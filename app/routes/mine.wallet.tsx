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

/** The ways in and out, in the wallet's order. */
const WAYS = [
  { to: '/mine/charge', key: 'entries.deposit' },
  { to: '/mine/withdraw', key: 'entries.withdraw' },
  { to: '/mine/coin-address-list', key: 'pages.coinAddresses' },
  { to: '/mine/bank-card-list', key: 'pages.bankCards' },
  { to: '/mine/history', key: 'pages.history' },
] as const;

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
          {[
            { key: 'wallet.balance', value: `${formatMoney(w.balance, locale)} USD`, className: 'total' },
            { key: 'wallet.margin', value: formatMargin(w.margin, locale) },
            { key: 'wallet.equity', value: formatMoney(w.equity, locale) },
            { key: 'wallet.depositPending', value: formatMoney(w.depositPending, locale) },
            { key: 'wallet.withdrawPending', value: formatMoney(w.withdrawPending, locale) },
          ].map(({ key, value, className }) => (
            <div key={key} className={className}>
              <dt>{t(key)}</dt>
              <dd>{value}</dd>
            </div>
          ))}
        </dl>
      </section>
      <ul className="list" aria-label={t('wallet.actions')}>
        {WAYS.map(({ to, key }) => (
          <li key={to}>
            <Link to={to} className="list-item">
              <span className="grow">{tm(key)}</span>
            </Link>
          </li>
        ))}
      </ul>
    </main>
  );
}
