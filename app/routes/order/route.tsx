/**
 * /order (spec §2 "Orders", §4): tabs holding (?type=1), pending (0) and history (3); a detail popup
 * (?detail=ID) that closes, cancels and edits take-profit / stop-loss. Everything is in the URL and works
 * as links and form posts without JavaScript; with it the list is endless, pulls to refresh, follows the
 * live profit, and drops an order the moment the stream says it was closed.
 */
import type { SubmissionResult } from '@conform-to/react';
import { getZodConstraint } from '@conform-to/zod/v3';
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import type { ShouldRevalidateFunction } from '@remix-run/react';
import { Link, useActionData, useLoaderData, useNavigation, useRevalidator, useSearchParams } from '@remix-run/react';
import { useCallback, useEffect, useMemo } from 'react';
import { useTranslation } from '~/i18n/react';
import { MY_DEAL_PAGE_SIZE } from '#contract/calls/trade';
import { OrderTab } from '#contract/enums';
import { AccountFigures } from '~/components/account-figures';
import { PageHeader } from '~/components/page-header';
import { useFeedStale, useLiveStream } from '~/live/hooks';
import { StaleNotice } from '~/live/stale-notice';
import { useLiveAccount } from '~/live/state';
import type { RouteHandle } from '~/root';
import ordersCss from '~/styles/orders.css?inline';
import { failureMessage, loaderFailure, UpstreamError, UpstreamUnavailable, upstreamApi, upstreamFallback } from '~/upstream/api.server';
import { ConfirmDialog as ServerConfirmDialog } from '~/components/confirm-dialog';
import { account as accountFigures, closeAllPreview, positionPage } from '~/upstream/trade.server';
import { invalid, readForm, replyWithFailure } from '~/utils/form-action.server';
import { formatInteger, formatProfit } from '~/utils/format';
import { useLocale } from '~/utils/locale';
import { redirectWithToast, requireSignedIn } from '~/utils/session.server';
import { OrderDetail as ServerOrderDetail } from './order-detail';
import { carryFields } from '~/components/carry-fields';
import { hydrateLater } from '~/components/hydrate-later';
import { whenIdle } from '~/utils/when-idle';
import { NextPageLink } from '~/components/endless-list';
import { OrderRow, OrderSkeleton, useMorePages, type LiveOrder } from './order-list';
import { closeScopeOf, onlyDetailChanged, ordersUrl, positiveIntOf, TABS, tabOf } from './orders-url';
import { PullIndicator, usePullToRefresh } from './pull-to-refresh';
import { conversionInstruments } from './stops-money';
import { runOrderCommand } from './order-commands.server';
import { CloseAllLinks, OrdersSummary } from './orders-summary';
import { findOrder, instrumentFacts } from './queries.server';
import { OrderActionSchema, StopsFormSchema } from './schema';
import { trailsMovedLive } from './trailing';
import { usePushedCloses } from './use-pushed-closes';
import { useTrailReread } from './use-trail-reread';
import { namedPageTitle } from '~/utils/page-title';

export const handle: RouteHandle = { footer: true };

export const meta: MetaFunction = (args) => namedPageTitle(args, 'orders');

// An order's details (its stops form, conform's code with it) and the close-all confirmation are not in the page's
// first script: the server draws an open one, which works as drawn until its code comes (components/hydrate-later);
// the code loads once the page is idle, before the first tap on an order. Over HTTP/1.1 each file of the first script
// is a request sharing a slow link with the shell (decision 0030).
const OrderDetail = hydrateLater(
  import.meta.env.SSR ? ServerOrderDetail : null,
  () => import('./order-detail').then((m) => m.OrderDetail),
  {
    carry: carryFields,
  },
);
const ConfirmDialog = hydrateLater(import.meta.env.SSR ? ServerConfirmDialog : null, () =>
  import('~/components/confirm-dialog').then((m) => m.ConfirmDialog),
);

const TAB_KEYS: Record<OrderTab, { tab: string; empty: string }> = {
  [OrderTab.Holding]: { tab: 'tabs.holding', empty: 'empty.holding' },
  [OrderTab.Pending]: { tab: 'tabs.pending', empty: 'empty.pending' },
  [OrderTab.History]: { tab: 'tabs.history', empty: 'empty.history' },
};

export async function loader({ request, context }: LoaderFunctionArgs) {
  await requireSignedIn(request);
  const url = new URL(request.url);
  const type = tabOf(url.searchParams.get('type'));
  const page = positiveIntOf(url.searchParams.get('page'), 100_000) ?? 1;
  const detailId = positiveIntOf(url.searchParams.get('detail'));
  // `?confirm=close-all&scope=loss`: the confirmation says how many positions and their profit, from the upstream.
  const closeScope =
    type === OrderTab.Holding && url.searchParams.get('confirm') === 'close-all' ? closeScopeOf(url.searchParams.get('scope')) : null;
  const api = await upstreamApi(request, context);
  try {
    const [list, account, facts, closePreview] = await Promise.all([
      positionPage(api, type, page),
      // The figures are an extra on the holding tab: the list shows without them.
      type === OrderTab.Holding ? accountFigures(api).catch(upstreamFallback(null, 'account figures')) : null,
      instrumentFacts(api),
      closeScope ? closeAllPreview(api, closeScope) : null,
    ]);
    const { total } = list;
    const detail = detailId ? await findOrder(api, type, detailId, { page, orders: list.positions, total }) : null;
    return {
      list: type,
      type,
      page,
      items: list.positions,
      total,
      totalProfit: list.profit,
      balance: list.balance,
      hasMore: page * MY_DEAL_PAGE_SIZE < total,
      account,
      units: facts.units,
      lotRules: facts.lots,
      conversions: facts.conversions,
      detail,
      /** One per rendered page: a close or close-all sent twice (a double tap, a resent page) acts once. */
      actionKey: crypto.randomUUID(),
      closeAll: closeScope && closePreview ? { scope: closeScope, ...closePreview } : null,
      detailMissing: detailId !== null && detail === null,
      /** The detail's stops form draws its fields from these; its schema loads after the page (decision 0028). */
      stopsConstraint: getZodConstraint(StopsFormSchema),
    };
  } catch (error) {
    return loaderFailure(request, error);
  }
}

export async function action({ request, context }: ActionFunctionArgs) {
  await requireSignedIn(request);
  const { submission } = await readForm(request, OrderActionSchema);
  if (submission.status !== 'success') return invalid(submission);
  const url = new URL(request.url);
  const type = tabOf(url.searchParams.get('type'));
  const page = positiveIntOf(url.searchParams.get('page'), 100_000) ?? 1;
  const api = await upstreamApi(request, context);
  const form = submission.value;
  try {
    return await runOrderCommand(request, api, form, { type, page });
  } catch (error) {
    // The confirmation has no field to show a refusal by: the list says what happened (nothing was typed).
    if (form.intent === 'close-all' && (error instanceof UpstreamError || error instanceof UpstreamUnavailable)) {
      return await redirectWithToast(request, ordersUrl({ type }), { kind: 'error', message: await failureMessage(request, error) });
    }
    return replyWithFailure(request, submission, error);
  }
}

/** Opening or closing the popup needs no new data: the rows on screen already carry every figure. */
export const shouldRevalidate: ShouldRevalidateFunction = ({ currentUrl, nextUrl, formMethod, defaultShouldRevalidate }) =>
  !formMethod && onlyDetailChanged(currentUrl, nextUrl) ? false : defaultShouldRevalidate;

export default function OrdersPage() {
  const data = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const { t } = useTranslation('orders');
  const locale = useLocale();
  const navigation = useNavigation();
  const revalidator = useRevalidator();
  const [searchParams] = useSearchParams();
  // The orders' figures come with the account's events; quotes only for the instruments that convert an order's
  // money into dollars (the take-profit and stop-loss amounts in an order's detail).
  useLiveStream({ quotes: conversionInstruments(data.conversions) });
  const liveAccount = useLiveAccount();
  const stale = useFeedStale();
  useEffect(
    () =>
      whenIdle(() => {
        OrderDetail.preload();
        ConfirmDialog.preload();
      }),
    [],
  );

  // Where the screen is going: a new tab shows its loading state and a popup opens before the server answers.
  const going =
    navigation.state === 'loading' && !navigation.formMethod && navigation.location.pathname === '/order'
      ? new URLSearchParams(navigation.location.search)
      : null;
  const switchingTab = going !== null && tabOf(going.get('type')) !== data.type;
  const detailId = switchingTab ? null : positiveIntOf((going ?? searchParams).get('detail'));

  const more = useMorePages(data);
  const holdingTab = data.type === OrderTab.Holding;
  const listUrl = ordersUrl({ type: data.type, page: data.page });
  const { rows, closedIds, notice, onSend, refreshSoon } = usePushedCloses({ orders: more.orders, detailId, listUrl, holdingTab });
  const liveOrders = useMemo(() => new Map<number, LiveOrder>(liveAccount?.positions.map((o) => [o.id, o]) ?? []), [liveAccount]);
  const liveFor = (id: number) => (holdingTab ? liveOrders.get(id) : undefined);
  const openOrder =
    detailId === null || (holdingTab && closedIds.has(detailId))
      ? null
      : (rows.find((o) => o.id === detailId) ?? (data.detail?.id === detailId ? data.detail : null));

  // Not under an open popup, whose form holds what the trader is typing.
  const trailMoved = holdingTab && detailId === null && trailsMovedLive(rows, (id) => liveOrders.get(id)?.mark);
  useTrailReread(trailMoved, data, refreshSoon);

  const refreshing = revalidator.state === 'loading';
  const resetMore = more.reset;
  const refresh = useCallback(() => {
    resetMore();
    revalidator.revalidate();
  }, [resetMore, revalidator]);
  const pull = usePullToRefresh(refresh, refreshing);

  const totalProfit = holdingTab && liveAccount ? liveAccount.profit : data.totalProfit;
  const balance = liveAccount ? liveAccount.balance : data.balance;
  const lastResult = actionData && 'result' in actionData ? (actionData.result as SubmissionResult<string[]>) : undefined;

  return (
    <main className={stale ? 'page orders-page stale' : 'page orders-page'}>
      {/* The screen's stylesheet comes with its markup (decision 0020). */}
      <style dangerouslySetInnerHTML={{ __html: ordersCss }} />
      <PageHeader title={t('title')} />
      <PullIndicator phase={pull.phase} distance={pull.distance} />
      <nav className="segmented" aria-label={t('tabs.label')}>
        {TABS.map((tab) => (
          <Link key={tab} to={ordersUrl({ type: tab })} aria-current={tab === data.type ? 'page' : undefined} replace>
            {t(TAB_KEYS[tab].tab)}
          </Link>
        ))}
      </nav>
      {/* Always there, so screen readers announce the words when they arrive. */}
      <p className={notice ? 'notice live-notice' : 'visually-hidden'} role="status">
        {notice}
      </p>
      <StaleNotice text={t('stale')} />
      {switchingTab ? (
        <OrderSkeleton />
      ) : (
        <>
          {holdingTab && data.account ? <AccountFigures account={data.account} /> : null}
          <OrdersSummary
            count={data.total}
            profit={totalProfit}
            balance={balance}
            listUrl={listUrl}
            refreshing={refreshing}
            onRefresh={refresh}
          />
          {holdingTab && rows.length > 0 ? <CloseAllLinks type={data.type} page={data.page} /> : null}
          {data.detailMissing && detailId !== null && !openOrder ? <p className="notice">{t('detail.missing')}</p> : null}
          {rows.length === 0 ? (
            <p className="empty">{t(TAB_KEYS[data.type].empty)}</p>
          ) : (
            <ul className="list order-list" aria-label={t(TAB_KEYS[data.type].tab)}>
              {rows.map((order) => (
                <OrderRow
                  key={order.id}
                  order={order}
                  tab={data.type}
                  live={liveFor(order.id)}
                  to={ordersUrl({ type: data.type, page: data.page, detail: order.id })}
                />
              ))}
            </ul>
          )}
          <p className="list-pages">
            {data.page > 1 ? (
              <Link to={ordersUrl({ type: data.type, page: data.page - 1 })} className="button secondary block">
                {t('more.previous')}
              </Link>
            ) : null}
            {more.hasMore ? <NextPageLink to={more.nextUrl} loading={more.loading} onLoad={more.loadMore} /> : null}
          </p>
        </>
      )}
      {openOrder ? (
        <OrderDetail
          key={openOrder.id}
          order={openOrder}
          live={liveFor(openOrder.id)}
          unitsPerLot={more.units[openOrder.instrumentId] ?? data.units[openOrder.instrumentId]}
          lotRule={data.lotRules[openOrder.instrumentId]}
          conversion={data.conversions[openOrder.instrumentId] ?? null}
          actionKey={data.actionKey}
          closeTo={listUrl}
          stopsConstraint={data.stopsConstraint}
          lastResult={lastResult}
          onSend={onSend}
        />
      ) : null}
      {data.closeAll ? (
        <ConfirmDialog
          title={t(`closeAll.title.${data.closeAll.scope}`)}
          message={
            data.closeAll.count > 0
              ? t('closeAll.message', { n: formatInteger(data.closeAll.count, locale), profit: formatProfit(data.closeAll.profit, locale) })
              : t('closeAll.none')
          }
          confirmLabel={t('closeAll.confirm')}
          action={ordersUrl({ type: OrderTab.Holding })}
          intent="close-all"
          fields={{ scope: data.closeAll.scope, idempotency_key: data.actionKey }}
          cancelTo={listUrl}
          danger
        />
      ) : null}
    </main>
  );
}
