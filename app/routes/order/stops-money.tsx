/**
 * The popup's money at the take profit and stop loss typed: the order's own side and lots, from its entry
 * (its open price, or a pending order's target), one note under each field (the same grid as the fields).
 */
import type { Position } from '#contract/views';
import { lots, roundToUnits } from '#contract/money';
import { StopMoneyNote } from '~/components/stop-money';
import { useLiveQuote } from '~/live/state';
import { moneyAtStop, stopConversionOf } from '~/utils/stop-money';
import type { Conversion } from '~/routes/trade/estimates';

/** The instrument whose live price converts an order's money into dollars; null when its own price (or none) does. */
function viaOtherOf(conversion: Conversion | null, instrumentId: number): number | null {
  return conversion && conversion.kind !== 'usd' && conversion.viaId !== instrumentId ? conversion.viaId : null;
}

/** The instruments whose quotes the orders screen follows: those converting some instrument's money (a few). */
export function conversionInstruments(conversions: Readonly<Record<number, Conversion>>): number[] {
  const ids = new Set<number>();
  for (const [instrumentId, conversion] of Object.entries(conversions)) {
    const via = viaOtherOf(conversion, Number(instrumentId));
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
  order: Position;
  unitsPerLot?: number;
  conversion: Conversion | null;
  takeProfit: string | undefined;
  stopLoss: string | undefined;
}) {
  const precision = order.instrument.digits;
  // A currency converted through another instrument follows that one's live price.
  const viaPrice = useLiveQuote(viaOtherOf(conversion, order.instrumentId))?.price;
  const common = {
    terms: { precision, contractSize: unitsPerLot ?? Number.NaN },
    side: order.side,
    lotsMilli: lots.parse(order.lots),
    reference: order.price > 0 ? roundToUnits(order.price, precision) : null,
    conversion: stopConversionOf(conversion, order.instrumentId, viaPrice),
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
