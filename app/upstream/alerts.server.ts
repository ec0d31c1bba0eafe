/** Price alert calls (issue 13), mapped once to the PriceAlert view (contract/views.ts; the stream's `alert` too). */
import * as alerts from '#contract/calls/alerts';
import { priceAlertView, type PriceAlert } from '#contract/views';
import type { Api } from './api.server';

export type { PriceAlert } from '#contract/views';

export async function listAlerts(api: Api): Promise<PriceAlert[]> {
  return (await api.call(alerts.alertList, {})).data.map(priceAlertView);
}

export async function addAlert(
  api: Api,
  input: { instrumentId: number; direction: 'above' | 'below'; price: string; note?: string },
): Promise<PriceAlert> {
  const direction = input.direction === 'above' ? alerts.AlertDirection.Above : alerts.AlertDirection.Below;
  const { data } = await api.call(alerts.alertAdd, { forex_id: input.instrumentId, direction, price: input.price, note: input.note });
  return priceAlertView(data);
}

export const deleteAlert = (api: Api, id: number) => api.call(alerts.alertDel, { id });
