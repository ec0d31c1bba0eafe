/**
 * An instrument's rules for its order ticket, and the ticket's HTML constraints (required, maxlength, min, step),
 * without zod: the ticket's first-load script has no schema library (decision 0028). The schema's part of the
 * constraints is what conform derives from schema.ts (`getZodConstraint`), written out; order-rules.test.ts fails
 * if the two differ.
 */
import { formatLots, lotRulesOf, type LotRules, type TicketInstrument } from './estimates';

export interface OrderRules extends LotRules {
  precision: number;
  leverages: number[];
}

export function orderRulesOf(instrument: Pick<TicketInstrument, 'lotStep' | 'minLots' | 'digits' | 'leverages'>): OrderRules {
  return { ...lotRulesOf(instrument), precision: instrument.digits, leverages: instrument.leverages };
}

/** `getZodConstraint` of the order schema (schema.ts). */
export const ORDER_SCHEMA_CONSTRAINT = {
  forex_id: { required: true, min: 0 },
  code: { required: false, maxLength: 32 },
  side: { required: false },
  lots: { required: true, maxLength: 32 },
  leverage: { required: true },
  entry: { required: false },
  target_price: { required: false, maxLength: 32 },
  take_profit: { required: false, maxLength: 32 },
  stop_loss: { required: false, maxLength: 32 },
  trail_distance: { required: false, maxLength: 32 },
  seen_price: { required: false, maxLength: 32 },
  idempotency_key: { required: false, maxLength: 64 },
};

/** The ticket's constraints: the schema's, with the instrument's lot minimum and step and the prices' lower bound. */
export function orderConstraint(rules: LotRules) {
  return {
    ...ORDER_SCHEMA_CONSTRAINT,
    lots: { required: true, min: formatLots(rules.smallestMilli), step: formatLots(rules.stepMilli) },
    target_price: { min: 0, step: 'any' },
    take_profit: { min: 0, step: 'any' },
    stop_loss: { min: 0, step: 'any' },
    trail_distance: { min: 0, step: 'any' },
  };
}
