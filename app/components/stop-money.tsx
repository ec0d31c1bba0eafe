/**
 * The money at a take profit or stop loss, under its field (the order ticket and the order popup): the
 * signed amount in USD and the distance in pips, and on the ticket the side the stop belongs to. Rendered
 * by the server for the values in the URL and live with JavaScript; always there (maybe empty), so the
 * field's `aria-describedby` can name it.
 */
import { useTranslation } from '~/i18n/react';
import { pipDecimals } from '#contract/arithmetic';
import { Side } from '#contract/enums';
import { money } from '#contract/money';
import { formatPrice, formatProfit, trendOf } from '~/utils/format';
import { useLocale } from '~/utils/locale';
import type { StopKind, StopMoney } from '~/utils/stop-money';

export function StopMoneyNote({
  id,
  kind,
  figure,
  precision,
  showSide = false,
}: {
  id: string;
  kind: StopKind;
  figure: StopMoney | null;
  /** The instrument's price decimals (how many a pip count has). */
  precision: number;
  /** Say which side the figure is for (the ticket, before buy or sell is pressed). */
  showSide?: boolean;
}) {
  const { t } = useTranslation('trade');
  const locale = useLocale();
  const testId = kind === 'takeProfit' ? 'take-profit-money' : 'stop-loss-money';
  if (!figure) return <p id={id} className="stop-money" data-testid={testId} />;
  const amount = money.toNumber(figure.micro);
  const pips = formatPrice(Number(figure.pips), pipDecimals(precision), locale);
  return (
    <p id={id} className="stop-money" data-testid={testId}>
      <span className="stop-money-label">{t(kind === 'takeProfit' ? 'stopMoney.atTakeProfit' : 'stopMoney.atStopLoss')}</span>{' '}
      <strong className={`stop-money-amount ${trendOf(amount)}`}>
        <bdi>{formatProfit(amount, locale)}</bdi> USD
      </strong>{' '}
      <span className="stop-money-pips">{t('stopMoney.pips', { pips })}</span>
      {showSide && figure.side !== null ? (
        <>
          {' '}
          <span className="stop-money-side">{t(figure.side === Side.Buy ? 'stopMoney.ifBuyUp' : 'stopMoney.ifBuyLow')}</span>
        </>
      ) : null}
    </p>
  );
}
