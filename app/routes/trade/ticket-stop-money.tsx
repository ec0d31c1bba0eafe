/**
 * The ticket's money at its take profit and stop loss: one note under each field, from the fields as typed,
 * the price the order would open at and the lots. Before buy or sell is pressed the side is the one each stop
 * belongs to (a take profit above the price is a buy's); the confirmation passes the side pressed.
 */
import type { Side } from '#contract/enums';
import { StopMoneyNote } from '~/components/stop-money';
import { moneyAtStop, stopConversionOf, type StopMoney } from '~/utils/stop-money';
import { instrumentTerms } from '#contract/views';
import { lotsMilliOf, type Conversion, type TicketInstrument } from './estimates';

export interface TicketStopsInput {
  instrument: TicketInstrument;
  lots: string | undefined;
  /** The price the order would open at (integer units), or null. */
  reference: number | null;
  conversion: Conversion | null;
  conversionPrice: number | undefined;
  takeProfit: string | undefined;
  stopLoss: string | undefined;
  side?: Side | null;
}

export function ticketStopMoney(input: TicketStopsInput): { takeProfit: StopMoney | null; stopLoss: StopMoney | null } {
  const common = {
    terms: instrumentTerms(input.instrument),
    side: input.side ?? null,
    lotsMilli: lotsMilliOf(input.lots),
    reference: input.reference,
    conversion: stopConversionOf(input.conversion, input.instrument.id, input.conversionPrice),
  };
  return {
    takeProfit: moneyAtStop({ ...common, kind: 'takeProfit', stopText: input.takeProfit }),
    stopLoss: moneyAtStop({ ...common, kind: 'stopLoss', stopText: input.stopLoss }),
  };
}

/** The two notes, one under each field of the ticket's take-profit / stop-loss pair (the same grid). */
export function TicketStopMoney({ ids, ...input }: TicketStopsInput & { ids: { takeProfit: string; stopLoss: string } }) {
  const figures = ticketStopMoney(input);
  const precision = input.instrument.digits;
  return (
    <div className="field-pair ticket-stop-money">
      <StopMoneyNote id={ids.takeProfit} kind="takeProfit" figure={figures.takeProfit} precision={precision} showSide />
      <StopMoneyNote id={ids.stopLoss} kind="stopLoss" figure={figures.stopLoss} precision={precision} showSide />
    </div>
  );
}
