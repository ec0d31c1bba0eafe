/**
 * The popup's money at the take profit and stop loss typed: the order's own side and lots, from its entry
 * (its open price, or a pending order's target), one note under each field (the same grid as the fields).
 */
import type { Order } from '#contract/calls/trade';
import { Side } from '#contract/enums';
import { lots, roundToUnits } from '#contract/money';
import { StopMoneyNote } from '~/components/stop-money';
import { useLiveQuote } from '~/live/state';
import { moneyAtStop, stopConversionOf } from '~/utils/stop-money';
import type { Conversion } from '~/routes/trade/estimates';

/** The instrument whose live price converts an order's money into dollars; null when its own price (or none) does. */
function viaOtherOf(conversion: Conversion | null, forexId: number): number | null {
  return conversion && conversion.kind !== 'usd' && conversion.viaId !== forexId ? conversion.viaId : null;
}

/** The instruments whose quotes the orders screen follows: those converting some instrument's money (a few). */
export function conversionInstruments(conversions: Readonly<Record<number, Conversion>>): number[] {
  const ids = new Set<number>();
  for (const [forexId, conversion] of Object.entries(conversions)) {
    const via = viaOtherOf(conversion, Number(forexId));
    if (via !== null) ids.add(via);
  }
  return [...ids].sort((a, b) => a - b);
}

export function StopsMoney({
  ids,
  order,
  unitsPerLot,
  conversion,
  takeProfit,
  stopLoss,
}: {
  ids: { takeProfit: string; stopLoss: string };
  order: Order;
  unitsPerLot?: number;
  conversion: Conversion | null;
  takeProfit: string | undefined;
  stopLoss: string | undefined;
}) {
  const precision = order.ForexTradeLists.PricePrecision;
  // A currency converted through another instrument follows that one's live price.
  const viaPrice = useLiveQuote(viaOtherOf(conversion, order.ForexId))?.close;
  const common = {
    terms: { precision, contractSize: unitsPerLot ?? Number.NaN },
    side: order.OrderType === Side.Sell ? Side.Sell : Side.Buy,
    lotsMilli: lots.parse(order.Quantity),
    reference: order.Price > 0 ? roundToUnits(order.Price, precision) : null,
    conversion: stopConversionOf(conversion, order.ForexId, viaPrice),
  };
  return (
    <div className="stops-fields stops-money">
      <StopMoneyNote
        id={ids.takeProfit}
        kind="takeProfit"
        figure={moneyAtStop({ ...common, kind: 'takeProfit', stopText: takeProfit })}
        precision={precision}
      />
      <StopMoneyNote
        id={ids.stopLoss}
        kind="stopLoss"
        figure={moneyAtStop({ ...common, kind: 'stopLoss', stopText: stopLoss })}
        precision={precision}
      />
    </div>
  );
}
