import { getZodConstraint } from '@conform-to/zod/v3';
import { describe, expect, it } from 'vitest';
import { lotRulesOf } from './estimates';
import { ORDER_SCHEMA_CONSTRAINT, orderConstraint, orderRulesOf } from './order-rules';
import { orderSchemaFor } from './schema';

const instrument = { lotStep: 0.01, minLots: 0.05, digits: 5, leverages: [100, 200] };

describe('the order ticket’s constraints without zod', () => {
  it('are what conform derives from the order schema', () => {
    expect(ORDER_SCHEMA_CONSTRAINT).toEqual(getZodConstraint(orderSchemaFor(1, orderRulesOf(instrument))));
    // An instrument whose rules are unknown gets the same fields.
    expect(ORDER_SCHEMA_CONSTRAINT).toEqual(getZodConstraint(orderSchemaFor(1, undefined)));
  });

  it('take the lot minimum and step from the instrument, and prices from zero', () => {
    const constraint = orderConstraint(lotRulesOf(instrument));
    expect(constraint.lots).toEqual({ required: true, min: '0.05', step: '0.01' });
    expect(constraint.take_profit).toEqual({ min: 0, step: 'any' });
    expect(constraint.leverage).toEqual({ required: true });
  });
});
