/**
 * /contract/<code>: an instrument's contract (issue 40): its terms, the margin and fee for one lot at each
 * leverage at the current price (the order ticket's own estimate), the handling-fee rule, the stop distance,
 * and the trading session on London's days with the next open or close. Every figure comes from the product
 * call; a rule the broker's backend does not send has no row. Server-rendered, no JavaScript needed.
 */
import type { LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { useLoaderData } from '@remix-run/react';
import { TradeFeeType } from '#contract/enums';
import { formatUnits, money } from '#contract/money';
import { instrumentTerms } from '#contract/views';
import { PageHeader } from '~/components/page-header';
import { translator } from '~/i18n/i18next.server';
import { useTranslation } from '~/i18n/react';
import { loaderFailure, upstreamApi, upstreamFallback } from '~/upstream/api.server';
import { tradeFeeType } from '~/upstream/account.server';
import { instrumentContract } from '~/upstream/market.server';
import { formatInteger, formatLots, formatMargin, formatPrice } from '~/utils/format';
import { useLocale } from '~/utils/locale';
import { pageTitle } from '~/utils/page-title';
import contractCss from '~/styles/contract.css?inline';
import { conversionFor, estimateOrder, priceUnits } from '../trade/estimates';
import { tradeUrl } from '../trade/trade-url';
import { londonZone, nextChange, weekSchedule } from './sessions';
import { SessionTable } from './session-table';

export const meta: MetaFunction<typeof loader> = (args) => pageTitle(args, args.data?.title);

/** Codes are letters and digits (EURUSD, US30); anything else is no instrument. */
const CODE = /^[A-Z0-9]{1,20}$/;

export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const code = (params.code ?? '').toUpperCase();
  if (!CODE.test(code)) throw new Response('Not found', { status: 404 });
  const api = await upstreamApi(request, context);
  const { t } = await translator(request, 'contract');
  try {
    const [answer, feeType] = await Promise.all([
      instrumentContract(api, code),
      // Without the fee setting the page still shows, with no fee row.
      tradeFeeType(api).catch(upstreamFallback(null, 'the fee setting')),
    ]);
    if (!answer) throw new Response('Not found', { status: 404 });
    const { instrument: i, contract, instruments } = answer;
    const { quote, ...ticketInstrument } = i;
    const conversion = conversionFor(i, instruments);
    const price = priceUnits(quote.price, i.digits);
    // The order ticket's own estimate for 1 lot: the margin and fee the upstream would take now.
    const oneLot = i.leverages.map((leverage) => {
      const e = estimateOrder({ instrument: ticketInstrument, feeType, lots: '1', leverage, price, conversion });
      return {
        leverage,
        margin: e.margin === null ? null : money.toNumber(e.margin),
        fee: e.fee === null ? null : money.toNumber(e.fee),
      };
    });
    const now = Math.floor(Date.now() / 1000);
    return {
      title: t('title', { symbol: i.symbol }),
      code: i.code,
      symbol: i.symbol,
      digits: i.digits,
      contractSize: i.contractSize,
      quoteCurrency: i.quoteCurrency,
      lotStep: i.lotStep,
      minLots: i.minLots,
      maxLots: contract.maxLots,
      price: quote.price,
      marketOpen: quote.marketOpen,
      oneLot,
      fee:
        feeType === TradeFeeType.PerLot
          ? { kind: 'perLot' as const, usd: i.feeRate }
          : feeType === TradeFeeType.OfMargin
            ? // The rate is a share of the margin in millionths: in percent, exactly, as a decimal.
              { kind: 'ofMargin' as const, percent: Number(formatUnits(instrumentTerms(i).feeRateMicro, 4)) }
            : null,
      stops: contract.stopsLevel === null ? null : { points: contract.stopsLevel, distance: contract.stopsLevel / 10 ** i.digits },
      session: contract.sessions
        ? { days: weekSchedule(contract.sessions, now), next: nextChange(contract.sessions, now), zone: londonZone(now) }
        : null,
    };
  } catch (error) {
    return loaderFailure(request, error);
  }
}

export default function ContractPage() {
  const d = useLoaderData<typeof loader>();
  const { t } = useTranslation('contract');
  const locale = useLocale();
  const usd = (value: number | null) => (value === null ? t('margin.unknown') : `${formatMargin(value, locale)} USD`);
  return (
    <main className="page contract-page">
      {/* The screen's stylesheet comes with its markup (decision 0020). */}
      <style dangerouslySetInnerHTML={{ __html: contractCss }} />
      <PageHeader title={d.title} back={tradeUrl(d.code, undefined)} />
      <section aria-labelledby="contract-terms">
        <h2 id="contract-terms">{t('terms.heading')}</h2>
        <dl className="details contract-terms">
          <dt>{t('terms.symbol')}</dt>
          <dd data-testid="contract-symbol">{d.code}</dd>
          <dt>{t('terms.name')}</dt>
          <dd>{d.symbol}</dd>
          <dt>{t('terms.digits')}</dt>
          <dd data-testid="contract-digits">{formatInteger(d.digits, locale)}</dd>
          <dt>{t('terms.contractSize')}</dt>
          <dd data-testid="contract-size">{t('terms.perLot', { size: formatInteger(d.contractSize, locale) })}</dd>
          <dt>{t('terms.quoteCurrency')}</dt>
          <dd>{d.quoteCurrency}</dd>
          <dt>{t('terms.minLots')}</dt>
          <dd data-testid="contract-min-lots">{formatLots(d.minLots, locale)}</dd>
          <dt>{t('terms.lotStep')}</dt>
          <dd data-testid="contract-lot-step">{formatLots(d.lotStep, locale)}</dd>
          {d.maxLots === null ? null : (
            <>
              <dt>{t('terms.maxLots')}</dt>
              <dd data-testid="contract-max-lots">{formatLots(d.maxLots, locale)}</dd>
            </>
          )}
          <dt>{t('terms.leverages')}</dt>
          <dd data-testid="contract-leverages">{d.oneLot.map((l) => t('margin.ratio', { leverage: l.leverage })).join(', ')}</dd>
          {d.fee === null ? null : (
            <>
              <dt>{t('fee.heading')}</dt>
              <dd data-testid="contract-fee-rule">
                {d.fee.kind === 'perLot'
                  ? t('fee.perLot', { amount: formatMargin(d.fee.usd, locale) })
                  : t('fee.ofMargin', { rate: formatMargin(d.fee.percent, locale) })}
              </dd>
            </>
          )}
          {d.stops === null ? null : (
            <>
              <dt>{t('stops.heading')}</dt>
              <dd data-testid="contract-stops">
                {d.stops.points === 0
                  ? t('stops.any')
                  : t('stops.atLeast', {
                      points: formatInteger(d.stops.points, locale),
                      distance: formatPrice(d.stops.distance, d.digits, locale),
                    })}
              </dd>
            </>
          )}
        </dl>
      </section>
      <section aria-labelledby="contract-margin">
        <h2 id="contract-margin">{t('margin.heading')}</h2>
        <p className="muted" data-testid="contract-price">
          {t('margin.note', { price: formatPrice(d.price, d.digits, locale) })}
        </p>
        <table className="contract-table" data-testid="contract-margins">
          <thead>
            <tr>
              <th scope="col">{t('margin.leverage')}</th>
              <th scope="col" className="num">
                {t('margin.margin')}
              </th>
              {d.fee === null ? null : (
                <th scope="col" className="num">
                  {t('margin.fee')}
                </th>
              )}
            </tr>
          </thead>
          <tbody>
            {d.oneLot.map((l) => (
              <tr key={l.leverage}>
                <th scope="row">{t('margin.ratio', { leverage: l.leverage })}</th>
                <td className="num">{usd(l.margin)}</td>
                {d.fee === null ? null : <td className="num">{usd(l.fee)}</td>}
              </tr>
            ))}
          </tbody>
        </table>
      </section>
      {d.session ? <SessionTable session={d.session} marketOpen={d.marketOpen} /> : null}
    </main>
  );
}
