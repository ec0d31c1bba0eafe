/**
 * What the alerts screen reads: the trader's alerts, the products with their current prices, the one the
 * add form is for (`?code=`, else the first listed), and the alert a `?confirm=delete&id=` asks about.
 */
import type { Instrument } from '#contract/views';
import type { Api } from '~/upstream/api.server';
import { listAlerts, type PriceAlert } from '~/upstream/alerts.server';
import { instrumentList } from '~/upstream/market.server';

/** A product as the add form needs it: its names, price decimals and latest quote. */
export type AlertInstrument = Pick<Instrument, 'id' | 'code' | 'symbol' | 'digits' | 'quote'>;

export async function instrumentsForAlerts(api: Api): Promise<Instrument[]> {
  return (await instrumentList(api)).instruments;
}

export function pickInstrument<I extends AlertInstrument>(list: readonly I[], code: string | null): I | undefined {
  const wanted = (code ?? '').trim().toUpperCase();
  return list.find((i) => i.code === wanted) ?? list[0];
}

export async function loadAlertsScreen(api: Api, url: URL) {
  const [instruments, alerts] = await Promise.all([instrumentsForAlerts(api), listAlerts(api)]);
  const instrument = pickInstrument(instruments, url.searchParams.get('code'));
  if (!instrument) throw new Response('No products are listed right now.', { status: 503 });
  const params = url.searchParams;
  const deleting: PriceAlert | null =
    params.get('confirm') === 'delete' ? (alerts.find((a) => a.id === Number(params.get('id'))) ?? null) : null;
  const { id, code, symbol, digits, quote } = instrument;
  return {
    instrument: { id, code, symbol, digits, quote } satisfies AlertInstrument,
    instruments: instruments.map(({ code, symbol }) => ({ code, symbol })),
    active: alerts.filter((a) => a.triggered === null),
    triggered: alerts.filter((a) => a.triggered !== null),
    deleting,
    /** A price named in the link (`?price=`), else the current one. */
    price: /^\d+(\.\d+)?$/.test(params.get('price') ?? '') ? params.get('price')! : quote.price.toFixed(digits),
  };
}
