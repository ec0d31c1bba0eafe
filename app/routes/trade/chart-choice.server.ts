/**
 * The chart type chosen on the trade screen (issue 40), as the indicators are (indicator-choice.server.ts): the
 * address's `type` wins when it is a known type (a shared link), else the device's cookie, else candles. Only the type
 * bar's links (marked `keep`) set the cookie; the loader answers them with the clean address naming the type.
 */
import { redirect } from '@remix-run/node';
import { z } from 'zod';
import { longLivedCookie } from '~/utils/cookies.server';
import { BEFORE_PARAM, CHART_TYPES, DEFAULT_CHART_TYPE, TYPE_MARKER, TYPE_PARAM, type ChartType } from './chart-type';

/** The type on this device (not secret: one of four words), kept as the app's other remembered choices. */
export const chartTypeCookie = longLivedCookie('chart_type');

const typeField = z.enum(CHART_TYPES);
/** A history window's cursor: a candle time in seconds, after 2000 and before 2200. */
const beforeField = z.coerce.number().int().min(946_684_800).max(7_258_118_400);

/** The type bar's answer, when this request is one of its links: keep the type, land on the address without the mark. */
export async function typeRedirect(url: URL): Promise<Response | null> {
  if (url.searchParams.get(TYPE_MARKER) !== TYPE_PARAM) return null;
  const chosen = typeField.safeParse(url.searchParams.get(TYPE_PARAM));
  const next = new URLSearchParams(url.searchParams);
  next.delete(TYPE_MARKER);
  if (!chosen.success) return redirect(`${url.pathname}?${next}`);
  return redirect(`${url.pathname}?${next}`, { headers: { 'Set-Cookie': await chartTypeCookie.serialize(chosen.data) } });
}

/** The type this page draws: the address's when it names a known one, else the device's, else candles. */
export async function chosenChartType(url: URL, cookieHeader: string | null): Promise<ChartType> {
  const named = typeField.safeParse(url.searchParams.get(TYPE_PARAM));
  if (named.success) return named.data;
  const kept = typeField.safeParse(await chartTypeCookie.parse(cookieHeader));
  return kept.success ? kept.data : DEFAULT_CHART_TYPE;
}

/** The history window the address asks for (`before`), or undefined for the newest candles; nonsense is ignored. */
export function windowCursor(url: URL): number | undefined {
  const parsed = beforeField.safeParse(url.searchParams.get(BEFORE_PARAM) ?? undefined);
  return parsed.success ? parsed.data : undefined;
}
