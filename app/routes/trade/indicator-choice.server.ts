/**
 * The chart's indicators chosen on the trade screen (issue 40, decision 0044): read from the address when it names
 * them (a shared link wins), else from the device's cookie; the "Indicators" sheet (a GET form) sets the cookie and
 * answers with a clean address naming the choice, so the address bar can be shared.
 */
import { redirect } from '@remix-run/node';
import { z } from 'zod';
import {
  BOLL,
  type DrawnIndicator,
  type Indicator,
  indicatorToken,
  KDJ,
  MACD_DEFAULT,
  MAX_AVERAGES,
  RSI_DEFAULT,
} from '~/components/candle-chart/indicator-kinds';
import { indicatorLabel } from '~/components/candle-chart/indicator-label';
import { drawnIndicator } from '~/components/candle-chart/indicators';
import type { Candle } from '~/components/candle-chart/candles';
import { SHOWN_CANDLES } from '~/components/candle-chart/svg-candles';
import { longLivedCookie } from '~/utils/cookies.server';
import { formatInteger } from '~/utils/format';
import { AVERAGE_PERIODS, INDICATOR_PARAM, SHEET_MARKER } from './indicator-fields';

/** The choice on this device (not secret: a list of indicator names), kept as the app's other remembered choices. */
export const indicatorCookie = longLivedCookie('chart_indicators');

const FIXED = { boll: BOLL, macd: MACD_DEFAULT, rsi: RSI_DEFAULT, kdj: KDJ } as const;
const ORDER = ['ma', 'ema', 'boll', 'macd', 'rsi', 'kdj'] as const;

const token = z.union([
  z.enum(['boll', 'macd', 'rsi', 'kdj']).transform((kind): Indicator => FIXED[kind]),
  z
    .string()
    .regex(/^e?ma\d{1,3}$/)
    .transform((s) => ({ kind: s.startsWith('ema') ? 'ema' : 'ma', period: Number(s.replace(/\D+/, '')) }))
    .pipe(
      z.object({
        kind: z.enum(['ma', 'ema']),
        period: z.number().int().min(AVERAGE_PERIODS.min).max(AVERAGE_PERIODS.max),
      }),
    ),
]);

/**
 * The indicators named by these tokens (`ma20`, `boll`…), in the chart's order (MA and EMA in the order given):
 * unknown names and periods are left out, a repeat counts once, and MA and EMA keep their first three lines.
 */
export function parseIndicators(tokens: readonly string[]): Indicator[] {
  const seen = new Set<string>();
  const chosen: Indicator[] = [];
  for (const raw of tokens.flatMap((t) => t.split(/[-,\s]+/))) {
    const parsed = token.safeParse(raw.trim().toLowerCase());
    if (!parsed.success) continue;
    const indicator = parsed.data;
    const key = indicatorToken(indicator);
    if (seen.has(key)) continue;
    if ((indicator.kind === 'ma' || indicator.kind === 'ema') && chosen.filter((c) => c.kind === indicator.kind).length >= MAX_AVERAGES)
      continue;
    seen.add(key);
    chosen.push(indicator);
  }
  return chosen.sort((a, b) => ORDER.indexOf(a.kind) - ORDER.indexOf(b.kind));
}

export const indicatorsParam = (chosen: readonly Indicator[]) => chosen.map(indicatorToken).join('-');

/**
 * The sheet's answer, when this request is its submission: the choice goes in the cookie, and the trader lands on
 * the same screen at an address naming it (without the form's fields), so a reload or a shared link shows it.
 */
export async function sheetRedirect(url: URL): Promise<Response | null> {
  const params = url.searchParams;
  if (params.get(SHEET_MARKER) !== 'set') return null;
  // The sheet sends MA and EMA periods as numbers (`ma=20`) and the others as `ind=boll`.
  const chosen = parseIndicators([
    ...params.getAll(INDICATOR_PARAM),
    ...params.getAll('ma').map((p) => (p.trim() ? `ma${p.trim()}` : '')),
    ...params.getAll('ema').map((p) => (p.trim() ? `ema${p.trim()}` : '')),
  ]);
  const next = new URLSearchParams(params);
  for (const field of [SHEET_MARKER, INDICATOR_PARAM, 'ma', 'ema']) next.delete(field);
  const value = indicatorsParam(chosen);
  if (value) next.set(INDICATOR_PARAM, value);
  return redirect(`${url.pathname}?${next}`, { headers: { 'Set-Cookie': await indicatorCookie.serialize(value) } });
}

/** The choice this page shows: the address's when it names one (even none: `ind=`), else the device's. */
export async function chosenIndicators(url: URL, cookieHeader: string | null): Promise<Indicator[]> {
  const named = url.searchParams.get(INDICATOR_PARAM);
  if (named !== null) return parseIndicators([named]);
  const kept: unknown = await indicatorCookie.parse(cookieHeader);
  return typeof kept === 'string' ? parseIndicators([kept]) : [];
}

/** What the server's SVG draws and the legend shows first, over every candle the upstream gave. */
export function drawnIndicators(
  chosen: readonly Indicator[],
  candles: readonly Candle[],
  precision: number,
  locale: string,
): DrawnIndicator[] {
  return chosen.map((indicator) =>
    drawnIndicator(indicator, candles, {
      label: indicatorLabel(indicator, (n) => formatInteger(n, locale)),
      count: SHOWN_CANDLES,
      precision,
    }),
  );
}
