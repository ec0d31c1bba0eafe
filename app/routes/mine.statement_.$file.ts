/**
 * GET /mine/statement/orders.csv and /mine/statement/account.csv?from=&to=: the closed orders or the account's
 * movements of a range of London days as a CSV download (RFC 4180, UTF-8 with a BOM), headers in the trader's
 * language, money as exact decimals from the contract's integer units. Signed-in only; never cached.
 */
import type { LoaderFunctionArgs } from '@remix-run/node';
import { OrderStatus, Side } from '#contract/enums';
import { formatUnits, LOT_DECIMALS, lots, money } from '#contract/money';
import type { Position } from '#contract/views';
import { translator } from '~/i18n/i18next.server';
import { loaderFailure, upstreamApi } from '~/upstream/api.server';
import { historyInRange, ledgerInRange } from '~/upstream/statement.server';
import type { LedgerEntry } from '~/upstream/trade.server';
import { toCsv } from '~/utils/csv';
import { requireSignedIn } from '~/utils/session.server';
import { csvMoney, londonDateTime, statementRange } from '~/utils/statement';

const FILES = { 'orders.csv': 'orders', 'account.csv': 'account' } as const;

/** ISO text → London time as a spreadsheet sorts it (the header says London). */
const londonTime = (iso: string) => (iso ? londonDateTime(Date.parse(iso)) : '');

const cash = (usd: number) => csvMoney(money.fromNumber(usd));
const CLOSE_REASONS: Record<number, string> = { 1: 'user', 2: 'stopOut', 3: 'takeProfit', 4: 'stopLoss', 5: 'admin' };

export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const kind = FILES[params.file as keyof typeof FILES];
  if (!kind) throw new Response('Not found', { status: 404 });
  await requireSignedIn(request);
  const range = statementRange(new URL(request.url).searchParams, Date.now());
  const api = await upstreamApi(request, context);
  const { t } = await translator(request, 'statements');
  const orders = (await translator(request, 'orders')).t;
  let rows: string[][];
  try {
    if (kind === 'account') {
      const { rows: entries } = await ledgerInRange(api, range);
      rows = [
        ['time', 'type', 'details', 'amount', 'balanceAfter', 'order'].map((c) => t(`columns.${c}`)),
        // Oldest first, as a statement reads.
        ...[...entries].reverse().map((e: LedgerEntry) => [
          londonTime(e.time),
          e.typeName,
          // The back office's memo of an adjustment; other movements are said by their type.
          e.label === e.typeName ? '' : e.label,
          cash(e.amount),
          cash(e.balanceAfter),
          e.orderId ? String(e.orderId) : '',
        ]),
      ];
    } else {
      const { rows: positions } = await historyInRange(api, range);
      rows = [
        [
          'order',
          'instrument',
          'side',
          'lots',
          'leverage',
          'openPrice',
          'closePrice',
          'openedAt',
          'closedAt',
          'status',
          'closedBy',
          'margin',
          'fee',
          'profit',
        ].map((c) => t(`columns.${c}`)),
        ...[...positions]
          .reverse()
          .map((p: Position) => [
            String(p.id),
            p.instrument.symbol,
            orders(p.side === Side.Buy ? 'side.buy' : 'side.sell'),
            formatUnits(lots.parse(p.lots) ?? 0, LOT_DECIMALS, 2),
            String(p.leverage),
            p.price.toFixed(p.instrument.digits),
            p.status === OrderStatus.Cancelled ? '' : p.mark.toFixed(p.instrument.digits),
            londonTime(p.openedAt),
            londonTime(p.closedAt),
            orders(p.status === OrderStatus.Cancelled ? 'status.cancelled' : 'status.closed'),
            p.closeReason ? orders(`closeReason.${CLOSE_REASONS[p.closeReason] ?? 'admin'}`) : '',
            cash(p.margin),
            cash(p.fee),
            cash(p.profit),
          ]),
      ];
    }
  } catch (error) {
    return loaderFailure(request, error);
  }
  const filename = `lotfx-${kind}-${range.fromDate}-${range.toDate}.csv`;
  return new Response(toCsv(rows), {
    headers: {
      'Content-Type': 'text/csv; charset=utf-8',
      'Content-Disposition': `attachment; filename="${filename}"`,
      'Cache-Control': 'private, no-store',
    },
  });
}
