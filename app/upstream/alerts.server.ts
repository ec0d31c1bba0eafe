/** Price alert calls (issue 13), mapped once to what the alerts screen names things. */
import * as alerts from '#contract/calls/alerts';
import type { Api } from './api.server';

/** A price alert as the trader reads it. */
export interface PriceAlert {
  id: number;
  /** The instrument's code (EURUSD), display name (EUR/USD) and price decimals. */
  code: string;
  symbol: string;
  precision: number;
  direction: 'above' | 'below';
  level: number;
  note: string;
  createdAt: string;
  /** Set once the price reached the level: when, and the price of that tick. */
  triggered: { at: string; price: number } | null;
}

function priceAlert(a: alerts.Alert): PriceAlert {
  return {
    id: a.id,
    code: a.code,
    symbol: a.show_code,
    precision: a.precision,
    direction: a.direction === alerts.AlertDirection.Above ? 'above' : 'below',
    level: a.price,
    note: a.note,
    createdAt: a.created_at,
    triggered: a.triggered_at === null ? null : { at: a.triggered_at, price: a.triggered_price ?? a.price },
  };
}

export async function listAlerts(api: Api): Promise<PriceAlert[]> {
  return (await api.call(alerts.alertList, {})).data.map(priceAlert);
}

export async function addAlert(
  api: Api,
  input: { instrumentId: number; direction: 'above' | 'below'; price: string; note?: string },
): Promise<PriceAlert> {
  const direction = input.direction === 'above' ? alerts.AlertDirection.Above : alerts.AlertDirection.Below;
  const { data } = await api.call(alerts.alertAdd, { forex_id: input.instrumentId, direction, price: input.price, note: input.note });
  return priceAlert(data);
}

export const deleteAlert = (api: Api, id: number) => api.call(alerts.alertDel, { id });
