import { parseWithZod } from '@conform-to/zod/v3';
import { describe, expect, test } from 'vitest';
import { MarginMode } from '#contract/enums';
import type { Instrument } from '#contract/views';
import { currencyPair as fx } from '~/utils/instrument.test-support';
import { canStepDown, conversionFor, estimateOrder, lotRulesOf, stepLots } from './estimates';
import { orderRulesOf } from './order-rules';
import { orderFormSchema, orderSchemaFor } from './schema';

const EURUSD = fx(1, 'EURUSD', 1.1);
const USDJPY = fx(5, 'USDJPY', 150, 3);
const EURJPY = fx(9, 'EURJPY', 165, 3);
const XAGUSD: Instrument = { ...fx(8, 'XAGUSD', 31.25, 3), contractSize: 50, feeRate: 6, marginMode: MarginMode.Fixed };
const LIST = [EURUSD, USDJPY, EURJPY, XAGUSD];

describe('estimates', () => {
  test('0.01 lot of EUR/USD at 1.10000 with 1:100: 11 USD margin and 0.05 USD fee per lot', () => {
    const estimate = estimateOrder({
      instrument: EURUSD,
      feeType: 1,
      lots: '0.01',
      leverage: '100',
      price: 110000,
      conversion: conversionFor(EURUSD, LIST),
    });
    expect(estimate).toEqual({ margin: 11_000_000, fee: 50_000 });
  });

  test('a fee of the margin (trade_fee_type 2) takes the fee rate as a share of it', () => {
    const tenthOfAPercent = { ...EURUSD, feeRate: 0.001 };
    const estimate = estimateOrder({
      instrument: tenthOfAPercent,
      feeType: 2,
      lots: '1',
      leverage: '100',
      price: 110000,
      conversion: conversionFor(EURUSD, LIST),
    });
    expect(estimate).toEqual({ margin: 1_100_000_000, fee: 1_100_000 });
  });

  test('a yen-quoted product converts through USD/JPY: divided by its own price, or by the live one', () => {
    const conversion = conversionFor(USDJPY, LIST);
    expect(conversion).toMatchObject({ kind: 'divide', viaId: USDJPY.id });
    expect(estimateOrder({ instrument: USDJPY, feeType: 1, lots: '0.01', leverage: '10', price: 150000, conversion }).margin).toBe(
      100_000_000,
    );
    const cross = conversionFor(EURJPY, LIST);
    expect(cross).toMatchObject({ kind: 'divide', viaId: USDJPY.id });
    // 0.01 × 100,000 × 165 ÷ 10 = 16,500 JPY; at 165 yen a dollar that is 100 USD.
    expect(
      estimateOrder({
        instrument: EURJPY,
        feeType: 1,
        lots: '0.01',
        leverage: '10',
        price: 165000,
        conversion: cross,
        conversionPrice: 165,
      }).margin,
    ).toBe(100_000_000);
  });

  test('fixed margin ignores price and leverage', () => {
    const estimate = estimateOrder({
      instrument: XAGUSD,
      feeType: 1,
      lots: '0.05',
      leverage: '20',
      price: 31250,
      conversion: conversionFor(XAGUSD, LIST),
    });
    expect(estimate).toEqual({ margin: 2_500_000, fee: 300_000 });
  });

  test('no estimate for missing or unusable values', () => {
    const conversion = conversionFor(EURUSD, LIST);
    expect(estimateOrder({ instrument: EURUSD, feeType: 1, lots: '', leverage: '100', price: 110000, conversion }).margin).toBeNull();
    expect(estimateOrder({ instrument: EURUSD, feeType: 1, lots: '0.01', leverage: '', price: 110000, conversion }).margin).toBeNull();
    expect(estimateOrder({ instrument: EURUSD, feeType: 1, lots: '0.01', leverage: '100', price: null, conversion }).margin).toBeNull();
    expect(estimateOrder({ instrument: EURUSD, feeType: null, lots: '0.01', leverage: '100', price: 110000, conversion })).toEqual({
      margin: 11_000_000,
      fee: null,
    });
    expect(conversionFor({ ...EURUSD, quoteCurrency: 'XYZ' }, LIST)).toBeNull();
  });
});

describe('lot buttons', () => {
  const rules = lotRulesOf({ lotStep: 0.01, minLots: 0.01 });
  test('step to the next whole step, never below the smallest allowed', () => {
    expect(stepLots('0.01', rules, 'up')).toBe('0.02');
    expect(stepLots('0.02', rules, 'down')).toBe('0.01');
    expect(stepLots('0.01', rules, 'down')).toBe('0.01');
    expect(stepLots('0.015', rules, 'up')).toBe('0.02');
    expect(stepLots('0.015', rules, 'down')).toBe('0.01');
    expect(stepLots('nonsense', rules, 'up')).toBe('0.01');
    expect(canStepDown('0.01', rules)).toBe(false);
    expect(canStepDown('0.02', rules)).toBe(true);
  });

  test('a minimum that is not a whole step rounds up to one', () => {
    expect(lotRulesOf({ lotStep: 0.1, minLots: 0.05 }).smallestMilli).toBe(100);
    expect(stepLots('', lotRulesOf({ lotStep: 0.1, minLots: 0.05 }), 'up')).toBe('0.1');
  });
});

describe('order form', () => {
  const schema = orderFormSchema((id) => (id === EURUSD.id ? orderRulesOf(EURUSD) : undefined));
  const parse = (fields: Record<string, string>) => {
    const form = new FormData();
    for (const [k, v] of Object.entries({ forex_id: '1', lots: '0.01', leverage: '100', entry: '1', side: '1', ...fields })) form.set(k, v);
    return parseWithZod(form, { schema });
  };
  const errors = (fields: Record<string, string>) => {
    const submission = parse(fields);
    return submission.status === 'error' ? submission.error : {};
  };

  test('a valid market order', () => {
    expect(parse({}).status).toBe('success');
  });

  test('lots: above 0, at least the minimum, whole steps', () => {
    expect(errors({ lots: '0' })).toEqual({ lots: ['trade:validation.lotsPositive'] });
    expect(errors({ lots: '0.015' })).toEqual({ lots: ['trade:validation.lotsStep'] });
    expect(errors({ lots: '0.0001' })).toEqual({ lots: ['trade:validation.lotsInvalid'] });
    expect(errors({ lots: '' })).toEqual({ lots: ['trade:validation.lotsRequired'] });
  });

  test('take profit and stop loss: empty or a non-negative price at the product precision', () => {
    expect(parse({ take_profit: '', stop_loss: '0' }).status).toBe('success');
    expect(errors({ take_profit: '-1' })).toEqual({ take_profit: ['trade:validation.priceNegative'] });
    expect(errors({ stop_loss: '1.123456' })).toEqual({ stop_loss: ['trade:validation.priceDecimals'] });
  });

  test('a pending order needs a target price; a market order ignores it', () => {
    expect(errors({ entry: '0' })).toEqual({ target_price: ['trade:validation.targetRequired'] });
    expect(parse({ entry: '0', target_price: '1.05' }).status).toBe('success');
    expect(parse({ entry: '1', target_price: 'x' }).status).toBe('success');
  });

  test('leverage must be one offered', () => {
    expect(errors({ leverage: '30' })).toEqual({ leverage: ['trade:validation.leverage'] });
  });

  test("one schema per instrument and rules, checking that instrument's rules; unknown ones share the rule-less schema", () => {
    const rules = orderRulesOf(EURUSD);
    const schema = orderSchemaFor(EURUSD.id, rules);
    expect(orderSchemaFor(EURUSD.id, { ...rules })).toBe(schema);
    const fewer = orderSchemaFor(EURUSD.id, { ...rules, leverages: [50] });
    expect(fewer).not.toBe(schema);
    const form = (leverage: string) => {
      const data = new FormData();
      for (const [k, v] of Object.entries({ forex_id: String(EURUSD.id), lots: '0.01', leverage, entry: '1', side: '1' })) data.set(k, v);
      return data;
    };
    expect(parseWithZod(form('100'), { schema }).status).toBe('success');
    expect(parseWithZod(form('100'), { schema: fewer }).status).toBe('error');
    // Posted ids of no listed instrument make no schema of their own; the upstream checks their rules.
    expect(orderSchemaFor(987654, undefined)).toBe(orderSchemaFor(Number.NaN, undefined));
    expect(parseWithZod(form('30'), { schema: orderSchemaFor(987654, undefined) }).status).toBe('success');
  });
});

describe('estimates never throw (issue 9 #4)', () => {
  test('any lots, price and leverage give figures or nothing, and lots past the maximum are a field error', async () => {
    const fc = (await import('fast-check')).default;
    const conversion = conversionFor(EURUSD, LIST)!;
    fc.assert(
      fc.property(
        fc.oneof(
          fc.string(),
          fc.double().map(String),
          fc.bigInt({ min: 0n, max: 10n ** 30n }).map(String),
          fc.constantFrom('999999', '9999999', '1e308', '0.001'),
        ),
        fc.oneof(fc.integer(), fc.constantFrom(Number.MAX_SAFE_INTEGER, 2 ** 60, 0, -1)),
        fc.oneof(fc.string(), fc.integer().map(String), fc.constantFrom('1', '1000', '0')),
        (lots, price, leverage) => {
          for (const instrument of LIST) {
            const e = estimateOrder({ instrument, feeType: 1, lots, leverage, price, conversion });
            for (const v of [e.margin, e.fee]) expect(v === null || Number.isSafeInteger(v)).toBe(true);
          }
        },
      ),
      { numRuns: 500 },
    );
    const schema = orderFormSchema((id) => (id === EURUSD.id ? orderRulesOf(EURUSD) : undefined));
    const form = new FormData();
    for (const [k, v] of Object.entries({ forex_id: '1', lots: '9999999', leverage: '100', entry: '1' })) form.set(k, v);
    const submission = parseWithZod(form, { schema });
    expect(submission.status).toBe('error');
    expect(submission.status === 'error' ? submission.error?.lots : null).toEqual(['trade:validation.lotsTooLarge']);
  });
});
