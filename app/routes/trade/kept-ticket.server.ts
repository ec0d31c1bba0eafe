/**
 * The order's confirmation as a page (decision 0041). Without JavaScript, "Buy up" or "Buy low" posts the ticket;
 * the action keeps what was typed here, on the server, with the ticket's one-time order key, and redirects to
 * `/trade?code=…&confirm=<id>` (Post/Redirect/Get), so Back and reload never ask to send the form again. The
 * confirmation page always carries the kept key: placing from it twice (Back, then "Place order" again) gives the
 * upstream the same key, which answers with the first order. Kept in the step-up's store, bound to the web session.
 */
import { ownerOf } from '~/utils/step-up.server';
import { keepRecord, newRecordId, readRecord } from '~/utils/session.server';
import { periodOf, tradeUrl } from './trade-url';

/** The ticket's fields as the URL carries them (the lot buttons and "Update estimates" without JavaScript). */
export const TICKET_FIELDS = ['lots', 'leverage', 'entry', 'target_price', 'take_profit', 'stop_loss', 'trail_distance'] as const;
export type TicketValues = Partial<Record<(typeof TICKET_FIELDS)[number], string>>;

/** The ticket's values from the URL, or from a posted ticket (kept for its confirmation). */
export function ticketValuesOf(params: { get(name: string): unknown }): TicketValues {
  const values: TicketValues = {};
  for (const name of TICKET_FIELDS) {
    const raw = params.get(name);
    const value = typeof raw === 'string' ? raw.trim().slice(0, 32) : '';
    if (value) values[name] = value;
  }
  return values;
}

/** Long enough to read the confirmation and come Back to it; a stale confirmation is simply not shown. */
const KEEP_TICKET_MS = 10 * 60 * 1000;

export interface KeptTicket {
  /** Whose: a hash of the web session's id (step-up.server.ts). */
  owner: string;
  code: string;
  side: number;
  /** The ticket's one-time order key, sent by every "Place order" of this confirmation. */
  key: string;
  values: TicketValues;
}

/** Keeps the ticket to be confirmed; answers its id. */
async function keepTicket(request: Request, ticket: Omit<KeptTicket, 'owner'>): Promise<string> {
  const id = newRecordId();
  await keepRecord(id, { ...ticket, owner: await ownerOf(request) } satisfies KeptTicket, KEEP_TICKET_MS);
  return id;
}

/**
 * Keeps the posted ticket to be confirmed with its one-time key, and answers the confirmation page's address (the
 * instrument's ticket when the code is unknown: there is nothing to confirm).
 */
export async function confirmationUrl(
  request: Request,
  formData: FormData,
  { code, side, key }: { code: string | null; side: number; key: string },
): Promise<string> {
  if (!code) return '/trade';
  const id = await keepTicket(request, { code, side, key, values: ticketValuesOf(formData) });
  return tradeUrl(code, periodOf(String(formData.get('period') ?? '')), { confirm: id });
}

/** The kept ticket `?confirm=<id>` of this instrument, if it is this session's and still kept. */
export async function keptTicket(request: Request, id: string | null, code: string): Promise<KeptTicket | null> {
  if (!id) return null;
  const [kept, owner] = await Promise.all([readRecord<KeptTicket>(id), ownerOf(request)]);
  return kept && kept.owner === owner && kept.code === code ? kept : null;
}
