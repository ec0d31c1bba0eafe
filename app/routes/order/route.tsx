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
import { Link, useActionData, useLoaderData, useNavigate, useNavigation, useRevalidator, useSearchParams } from '@remix-run/react';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from '~/i18n/react';
import { MY_DEAL_PAGE_SIZE } from '#contract/calls/trade';
import { OrderTab } from '#contract/enums';
import { AccountFigures } from '~/components/account-figures';
import { PageHeader } from '~/components/page-header';
import { LANGUAGE_TAGS } from '#contract/languages';
import { translator } from '~/i18n/i18next.server';
import { useLiveStream } from '~/live/hooks';
import { useLiveAccount, useLiveClosed } from '~/live/state';
import type { RouteHandle } from '~/root';
import ordersCss from '~/styles/orders.css?inline';
import { failureMessage, loaderFailure, UpstreamError, UpstreamUnavailable, upstreamApi, upstreamFallback } from '~/upstream/api.server';
import { ConfirmDialog as ServerConfirmDialog } from '~/components/confirm-dialog';
import { redirect } from '@remix-run/node';
import { accountDetail, cancelOrder, closeAll, closeAllPreview, closeOrder, myOrders, setStops } from '~/upstream/trade.server';
import { invalid, readForm, replyWithFailure } from '~/utils/form-action.server';
import { formatInteger, formatLots, formatMoney, formatProfit, trendOf } from '~/utils/format';
import { useLocale } from '~/utils/locale';
import { redirectWithToast, requireSignedIn } from '~/utils/session.server';
import { OrderDetail as ServerOrderDetail } from './order-detail';
import { carryFields } from '~/components/carry-fields';
import { hydrateLater } from '~/components/hydrate-later';
import { whenIdle } from '~/utils/when-idle';
import { NextPageLink } from '~/components/endless-list';
import { OrderRow, OrderSkeleton, useMorePages, type LiveOrder } from './order-list';
import { closeScopeOf, ordersUrl, positiveIntOf, TABS, tabOf } from './orders-url';
import { PullIndicator, usePullToRefresh } from './pull-to-refresh';
import { conversionInstruments } from './stops-money';
import { findOrder, instrumentFacts } from './queries.server';
import { OrderActionSchema, StopsFormSchema } from './schema';
import { trailsMovedLive } from './trailing';
import { namedPageTitle } from '~/utils/page-title';
import { safeRedirectPath } from '~/utils/safe-redirect';

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
      myOrders(api, type, page),
      // The figures are an extra on the holding tab: the list shows without them.
      type === OrderTab.Holding ? accountDetail(api).then((r) => r.data, upstreamFallback(null, 'account figures')) : null,
      instrumentFacts(api),
      closeScope ? closeAllPreview(api, closeScope) : null,
    ]);
    const total = list.extras.total ?? list.data.length;
    const totalProfit = list.extras.all_fact_profits ?? 0;
    const balance = list.extras.balance ?? 0;
    const detail = detailId ? await findOrder(api, type, detailId, { page, orders: list.data, total }) : null;
    return {
      list: type,
      type,
      page,
      items: list.data,
      total,
      totalProfit,
      balance,
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
  const { t, lang } = await translator(request, 'orders');
  const form = submission.value;
  try {
    if (form.intent === 'preview') return redirect(ordersUrl({ type, page, detail: form.id, cont: form.cont }));
    if (form.intent === 'stops-preview') {
      const stops = { takeProfit: form.take_profit, stopLoss: form.stop_loss, trail: form.trail_distance };
      return redirect(ordersUrl({ type, page, detail: form.id, stops }));
    }
    if (form.intent === 'close') {
      const closed = await closeOrder(api, form.id, { lots: form.cont, key: form.idempotency_key });
      const profit = formatProfit(closed.data.FactProfits, LANGUAGE_TAGS[lang]);
      // A part closed is its own row (ParentId); the position stays open with the rest.
      const message =
        closed.data.ParentId === form.id
          ? t('toasts.partClosed', { id: form.id, lots: formatLots(closed.data.Quantity, LANGUAGE_TAGS[lang]), profit })
          : t('toasts.closed', { id: form.id, profit });
      return await redirectWithToast(request, ordersUrl({ type }), { kind: 'success', message });
    }
    if (form.intent === 'close-all') {
      // The outcome as a toast: how many closed and their profit, then which were refused and why.
      const { data: outcome } = await closeAll(api, form.scope, form.idempotency_key);
      const locale = LANGUAGE_TAGS[lang];
      const closed = t('toasts.closedAll', {
        n: formatInteger(outcome.closed.length, locale),
        profit: formatProfit(outcome.profit, locale),
      });
      const failed = outcome.failed.length
        ? ' ' + t('toasts.closeAllFailed', { ids: outcome.failed.map((f) => `#${f.id}`).join(', '), reason: outcome.failed[0]!.msg })
        : '';
      return await redirectWithToast(request, ordersUrl({ type }), { kind: failed ? 'error' : 'success', message: closed + failed });
    }
    if (form.intent === 'cancel') {
      await cancelOrder(api, form.id);
      return await redirectWithToast(request, ordersUrl({ type }), { kind: 'success', message: t('toasts.cancelled', { id: form.id }) });
    }
    await setStops(api, {
      id: form.id,
      target_profit_price: form.take_profit ?? null,
      stop_loss_price: form.stop_loss ?? null,
      trail_distance: form.trail_distance ?? null,
    });
    const back = ordersUrl({ type, page, detail: form.id });
    return await redirectWithToast(request, form.redirect_to ? safeRedirectPath(form.redirect_to, back) : back, {
      kind: 'success',
      message: t('toasts.stopsSaved'),
    });
  } catch (error) {
    // The confirmation has no field to show a refusal by: the list says what happened (nothing was typed).
    if (form.intent === 'close-all' && (error instanceof UpstreamError || error instanceof UpstreamUnavailable)) {
      return await redirectWithToast(request, ordersUrl({ type }), { kind: 'error', message: await failureMessage(request, error) });
    }
    return replyWithFailure(request, submission, error);
  }
}

/** Opening or closing the popup needs no new data: the rows on screen already carry every figure. */
export const shouldRevalidate: ShouldRevalidateFunction = ({ currentUrl, nextUrl, formMethod, defaultShouldRevalidate }) => {
  if (formMethod || currentUrl.pathname !== nextUrl.pathname) return defaultShouldRevalidate;
  const rest = (u: URL) => {
    const params = new URLSearchParams(u.search);
    params.delete('detail');
    params.sort();
    return params.toString();
  };
  const onlyDetail = currentUrl.searchParams.get('detail') !== nextUrl.searchParams.get('detail') && rest(currentUrl) === rest(nextUrl);
  return onlyDetail ? false : defaultShouldRevalidate;
};

/** How long the "was closed" notice stays. */
const NOTICE_MS = 8000;
/** At most this often the list is re-read because live prices moved a trailing stop (the upstream's stop, stored). */
const TRAIL_REREAD_MS = 10_000;

export default function OrdersPage() {
  const data = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const { t } = useTranslation('orders');
  const locale = useLocale();
  const navigation = useNavigation();
  const navigate = useNavigate();
  const revalidator = useRevalidator();
  const [searchParams] = useSearchParams();
  // The orders' figures come with the account's events; quotes only for the instruments that convert an order's
  // money into dollars (the take-profit and stop-loss amounts in an order's detail).
  useLiveStream({ quotes: conversionInstruments(data.conversions) });
  const liveAccount = useLiveAccount();
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
  const [closedIds, setClosedIds] = useState<ReadonlySet<number>>(() => new Set());
  const holdingTab = data.type === OrderTab.Holding;
  const rows = holdingTab ? more.orders.filter((o) => !closedIds.has(o.Id)) : more.orders;
  const liveOrders = useMemo(() => new Map<number, LiveOrder>(liveAccount?.orders.map((o) => [o.id, o]) ?? []), [liveAccount]);
  const liveFor = (id: number) => (holdingTab ? liveOrders.get(id) : undefined);
  const listUrl = ordersUrl({ type: data.type, page: data.page });
  const openOrder =
    detailId === null || (holdingTab && closedIds.has(detailId))
      ? null
      : (rows.find((o) => o.Id === detailId) ?? (data.detail?.Id === detailId ? data.detail : null));

  // A pushed close: the row goes at once, an open popup of that order closes, and the totals are re-read.
  const [notice, setNotice] = useState<string | null>(null);
  const [refreshWhenIdle, setRefreshWhenIdle] = useState(false);
  // This tab's own close or cancel is on its way: its answer (and its toast) closes the popup, not the push;
  // a navigation of ours now would cancel the answer's page and its toast. The push can arrive before React
  // has rendered the submission, so the popup's forms also say so the moment they are sent.
  const submitting = navigation.formMethod !== undefined;
  const sent = useRef(false);
  const onSend = useCallback(() => {
    sent.current = true;
  }, []);
  useEffect(() => {
    if (navigation.state === 'idle') sent.current = false;
  }, [navigation.state]);
  const latest = useRef({ rows, detailId, listUrl, holdingTab, submitting });
  latest.current = { rows, detailId, listUrl, holdingTab, submitting };
  const onClosed = useCallback(
    (ids: number[]) => {
      const { rows: shownRows, detailId: openId, listUrl: backTo, holdingTab: onHolding, submitting } = latest.current;
      if (submitting || sent.current) return setRefreshWhenIdle(true);
      // Only holding orders are closed by a push; other tabs just re-read their list.
      const shown = onHolding ? ids.filter((id) => id === openId || shownRows.some((o) => o.Id === id)) : [];
      setClosedIds((before) => new Set([...before, ...ids]));
      if (shown.length > 0) setNotice(t('live.closed', { count: shown.length, ids: shown.map((id) => `#${id}`).join(', ') }));
      if (onHolding && openId !== null && ids.includes(openId)) navigate(backTo, { replace: true, preventScrollReset: true });
      setRefreshWhenIdle(true);
    },
    [navigate, t],
  );
  useLiveClosed(onClosed);
  useEffect(() => {
    // After the popup's navigation, or the revalidation would be folded into it and skipped; and not while
    // a form of ours is out though React still renders "idle": a revalidation then restarts the answer's
    // page load, and the toast the first load took is lost with it.
    if (!refreshWhenIdle || navigation.state !== 'idle' || sent.current) return;
    setRefreshWhenIdle(false);
    revalidator.revalidate();
  }, [refreshWhenIdle, navigation.state, revalidator]);
  // A trailing stop the live price has moved is shown moved at once (TrailingLine); the list is re-read now and
  // then for the stop the upstream stored, through the same idle-time revalidation as a pushed close. Not
  // under an open popup, whose form holds what the trader is typing.
  const trailMoved = holdingTab && detailId === null && trailsMovedLive(rows, (id) => liveOrders.get(id)?.mark);
  const trailReadAt = useRef(0);
  useEffect(() => {
    if (!trailMoved) return;
    const timer = setTimeout(
      () => {
        trailReadAt.current = Date.now();
        setRefreshWhenIdle(true);
      },
      Math.max(0, trailReadAt.current + TRAIL_REREAD_MS - Date.now()),
    );
    return () => clearTimeout(timer);
  }, [trailMoved, data]);
  useEffect(() => {
    if (!notice) return;
    const timer = setTimeout(() => setNotice(null), NOTICE_MS);
    return () => clearTimeout(timer);
  }, [notice]);

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
    <main className="page orders-page">
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
      {switchingTab ? (
        <OrderSkeleton />
      ) : (
        <>
          {holdingTab && data.account ? <AccountFigures detail={data.account} /> : null}
          <section className="orders-summary" aria-label={t('summary.label')}>
            <dl>
              <div>
                <dt>{t('summary.count')}</dt>
                <dd>{formatInteger(data.total, locale)}</dd>
              </div>
              <div>
                <dt>{t('summary.profit')}</dt>
                <dd className={`order-profit ${trendOf(totalProfit)}`}>{formatProfit(totalProfit, locale)}</dd>
              </div>
              <div>
                <dt>{t('summary.balance')}</dt>
                <dd>{formatMoney(balance, locale)}</dd>
              </div>
            </dl>
            <Link
              to={listUrl}
              className="refresh-link"
              preventScrollReset
              onClick={(e) => {
                e.preventDefault();
                refresh();
              }}
            >
              {refreshing ? t('refresh.refreshing') : t('refresh.link')}
            </Link>
          </section>
          {holdingTab && rows.length > 0 ? (
            <nav className="close-all" aria-label={t('closeAll.label')}>
              {(['loss', 'profit', 'all'] as const).map((scope) => (
                <Link
                  key={scope}
                  to={ordersUrl({ type: data.type, page: data.page, closeAll: scope })}
                  className="button secondary"
                  preventScrollReset
                >
                  {t(`closeAll.link.${scope}`)}
                </Link>
              ))}
            </nav>
          ) : null}
          {data.detailMissing && detailId !== null && !openOrder ? <p className="notice">{t('detail.missing')}</p> : null}
          {rows.length === 0 ? (
            <p className="empty">{t(TAB_KEYS[data.type].empty)}</p>
          ) : (
            <ul className="list order-list" aria-label={t(TAB_KEYS[data.type].tab)}>
              {rows.map((order) => (
                <OrderRow
                  key={order.Id}
                  order={order}
                  tab={data.type}
                  live={liveFor(order.Id)}
                  to={ordersUrl({ type: data.type, page: data.page, detail: order.Id })}
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
          key={openOrder.Id}
          order={openOrder}
          live={liveFor(openOrder.Id)}
          unitsPerLot={more.units[openOrder.ForexId] ?? data.units[openOrder.ForexId]}
          lotRule={data.lotRules[openOrder.ForexId]}
          conversion={data.conversions[openOrder.ForexId] ?? null}
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
