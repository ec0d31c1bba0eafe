/**
 * /mine/statement?from=&to=: the account's statement for a range of London days (issue 40): the opening balance
 * from the ledger, each movement grouped by its type with the group's total, and the closing balance, which is
 * the opening plus every line to the micro-dollar. A GET form picks the days (no JavaScript needed); the page
 * prints without the app's chrome and links to the CSV files of the same range.
 */
import type { LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { Form, useLoaderData } from '@remix-run/react';
import { useTranslation } from '~/i18n/react';
import { PageHeader } from '~/components/page-header';
import { translator } from '~/i18n/i18next.server';
import { loaderFailure, upstreamApi } from '~/upstream/api.server';
import { balanceAt, ledgerInRange } from '~/upstream/statement.server';
import { formatMargin, formatProfit, trendOf } from '~/utils/format';
import { formatDate, formatDateTime } from '~/utils/format-date';
import { useLocale } from '~/utils/locale';
import { requireSignedIn } from '~/utils/session.server';
import { buildStatement, statementRange, unitsNumber } from '~/utils/statement';
import { pageTitle } from '~/utils/page-title';
import statementCss from './statement.css?inline';

export const meta: MetaFunction<typeof loader> = (args) => pageTitle(args, args.data?.title);

export async function loader({ request, context }: LoaderFunctionArgs) {
  await requireSignedIn(request);
  const range = statementRange(new URL(request.url).searchParams, Date.now());
  const api = await upstreamApi(request, context);
  const { t } = await translator(request, 'statements');
  try {
    const [opening, ledger] = await Promise.all([balanceAt(api, range.from), ledgerInRange(api, range)]);
    const statement = buildStatement(opening, ledger.rows);
    return {
      title: t('title'),
      fromDate: range.fromDate,
      toDate: range.toDate,
      cut: ledger.cut,
      opening: unitsNumber(statement.openingUnits),
      closing: unitsNumber(statement.closingUnits),
      groups: statement.groups.map((g) => ({
        type: g.type,
        name: g.lines[0]!.entry.typeName,
        total: unitsNumber(g.totalUnits),
        lines: g.lines.map(({ entry }) => ({
          id: entry.id,
          time: entry.time,
          // Under its type's heading a line needs only what sets it apart: the back office's memo, the order.
          details: [entry.label === entry.typeName ? '' : entry.label, entry.orderId ? t('order', { id: entry.orderId }) : '']
            .filter(Boolean)
            .join(' · '),
          amount: entry.amount,
          balanceAfter: entry.balanceAfter,
        })),
      })),
    };
  } catch (error) {
    return loaderFailure(request, error);
  }
}

export default function StatementPage() {
  const data = useLoaderData<typeof loader>();
  const { t } = useTranslation('statements');
  const locale = useLocale();
  const query = new URLSearchParams({ from: data.fromDate, to: data.toDate }).toString();
  return (
    <main className="page statement-page">
      {/* The screen's stylesheet comes with its markup (decision 0020). */}
      <style dangerouslySetInnerHTML={{ __html: statementCss }} />
      <PageHeader title={data.title} back="/mine/history" />
      <Form method="get" className="statement-range" aria-label={t('range.legend')}>
        <label>
          {t('range.from')}
          <input type="date" name="from" defaultValue={data.fromDate} required />
        </label>
        <label>
          {t('range.to')}
          <input type="date" name="to" defaultValue={data.toDate} required />
        </label>
        <button type="submit" className="button">
          {t('range.show')}
        </button>
      </Form>
      <ul className="statement-downloads" aria-label={t('download.heading')}>
        <li>
          <a href={`/mine/statement/orders.csv?${query}`} download>
            {t('download.orders')}
          </a>
        </li>
        <li>
          <a href={`/mine/statement/account.csv?${query}`} download>
            {t('download.account')}
          </a>
        </li>
      </ul>
      <p className="muted statement-print-note">{t('printHint')}</p>
      <p className="statement-period">
        {t('period', { from: formatDate(`${data.fromDate}T12:00:00Z`, locale), to: formatDate(`${data.toDate}T12:00:00Z`, locale) })}
      </p>
      {data.cut ? <p className="empty">{t('cut')}</p> : null}
      <table className="statement-table">
        <caption className="visually-hidden">{t('title')}</caption>
        <thead>
          <tr>
            {/* Each line's time under its details: four columns do not fit a 360 px phone in most languages. */}
            <th scope="col">
              {t('columns.details')}
              <span className="statement-time">{t('columns.time')}</span>
            </th>
            <th scope="col" className="num">
              {t('columns.amount')}
            </th>
            <th scope="col" className="num">
              {t('columns.balanceAfter')}
            </th>
          </tr>
        </thead>
        <tbody>
          <tr className="balance">
            <th scope="row" colSpan={2}>
              {t('opening')}
            </th>
            <td className="num">{formatMargin(data.opening, locale)}</td>
          </tr>
        </tbody>
        {data.groups.map((g) => (
          <tbody key={g.type} data-type={g.type}>
            <tr className="group">
              <th scope="rowgroup" colSpan={3}>
                {g.name}
              </th>
            </tr>
            {g.lines.map((l) => (
              <tr key={l.id} className="line">
                <td>
                  <bdi>{l.details}</bdi>
                  <time className="statement-time" dateTime={l.time}>
                    {formatDateTime(l.time, locale)}
                  </time>
                </td>
                <td className={`num amount ${trendOf(l.amount)}`}>{formatProfit(l.amount, locale)}</td>
                <td className="num">{formatMargin(l.balanceAfter, locale)}</td>
              </tr>
            ))}
            <tr className="subtotal">
              <td>{t('subtotal', { name: g.name })}</td>
              <td className="num">{formatProfit(g.total, locale)}</td>
              <td />
            </tr>
          </tbody>
        ))}
        <tbody>
          {data.groups.length === 0 ? (
            <tr>
              <td colSpan={3}>{t('none')}</td>
            </tr>
          ) : null}
          <tr className="balance">
            <th scope="row" colSpan={2}>
              {t('closing')}
            </th>
            <td className="num">{formatMargin(data.closing, locale)}</td>
          </tr>
        </tbody>
      </table>
    </main>
  );
}
