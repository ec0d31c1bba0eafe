/**
 * What each post of the orders screen does at the upstream (close, close all, cancel, save the stops, or only show
 * the figures for what was typed), and the page it answers with: the list with a toast, or the popup again.
 */
import { redirect } from '@remix-run/node';
import type { z } from 'zod';
import type { OrderTab } from '#contract/enums';
import { LANGUAGE_TAGS } from '#contract/languages';
import { translator } from '~/i18n/i18next.server';
import type { Api } from '~/upstream/api.server';
import { cancelPending, closePosition, closePositions, setPositionStops } from '~/upstream/trade.server';
import { formatInteger, formatLots, formatProfit } from '~/utils/format';
import { safeRedirectPath } from '~/utils/safe-redirect';
import { redirectWithToast } from '~/utils/session.server';
import { ordersUrl } from './orders-url';
import type { OrderActionSchema } from './schema';

export async function runOrderCommand(
  request: Request,
  api: Api,
  form: z.infer<typeof OrderActionSchema>,
  { type, page }: { type: OrderTab; page: number },
): Promise<Response> {
  const { t, lang } = await translator(request, 'orders');
  const locale = LANGUAGE_TAGS[lang];
  if (form.intent === 'preview') return redirect(ordersUrl({ type, page, detail: form.id, cont: form.cont }));
  if (form.intent === 'stops-preview') {
    const stops = { takeProfit: form.take_profit, stopLoss: form.stop_loss, trail: form.trail_distance };
    return redirect(ordersUrl({ type, page, detail: form.id, stops }));
  }
  if (form.intent === 'close') {
    const closed = await closePosition(api, form.id, { lots: form.cont, key: form.idempotency_key });
    const profit = formatProfit(closed.profit, locale);
    // A part closed is its own row (its parentId); the position stays open with the rest.
    const message =
      closed.parentId === form.id
        ? t('toasts.partClosed', { id: form.id, lots: formatLots(closed.lots, locale), profit })
        : t('toasts.closed', { id: form.id, profit });
    return await redirectWithToast(request, ordersUrl({ type }), { kind: 'success', message });
  }
  if (form.intent === 'close-all') {
    // The outcome as a toast: how many closed and their profit, then which were refused and why.
    const outcome = await closePositions(api, form.scope, form.idempotency_key);
    const closed = t('toasts.closedAll', { n: formatInteger(outcome.closed.length, locale), profit: formatProfit(outcome.profit, locale) });
    const failed = outcome.failed.length
      ? ' ' + t('toasts.closeAllFailed', { ids: outcome.failed.map((f) => `#${f.id}`).join(', '), reason: outcome.failed[0]!.msg })
      : '';
    return await redirectWithToast(request, ordersUrl({ type }), { kind: failed ? 'error' : 'success', message: closed + failed });
  }
  if (form.intent === 'cancel') {
    await cancelPending(api, form.id);
    return await redirectWithToast(request, ordersUrl({ type }), { kind: 'success', message: t('toasts.cancelled', { id: form.id }) });
  }
  // What the form leaves out is removed.
  await setPositionStops(api, form.id, { takeProfit: form.take_profit, stopLoss: form.stop_loss, trailDistance: form.trail_distance });
  const back = ordersUrl({ type, page, detail: form.id });
  return await redirectWithToast(request, form.redirect_to ? safeRedirectPath(form.redirect_to, back) : back, {
    kind: 'success',
    message: t('toasts.stopsSaved'),
  });
}
