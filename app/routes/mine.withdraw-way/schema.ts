/** Binding a withdrawal method (spec §2, §5): one schema for the browser and the action; messages are keys. */
import { z } from 'zod';
import { addressMatchesNetwork, swiftValid } from '#contract/addresses';
import { WithdrawType } from '#contract/enums';

const optional = (max: number) => z.string().trim().max(max).optional();
const required = (max: number) =>
  z.string({ required_error: 'withdraw:validation.required' }).trim().min(1, 'withdraw:validation.required').max(max);

const common = {
  type: z.number().int(),
  currency: z
    .number({ required_error: 'withdraw:validation.currency', invalid_type_error: 'withdraw:validation.currency' })
    .int()
    .positive('withdraw:validation.currency'),
  remark: optional(200),
  from: z.string().max(200).optional(),
};

/**
 * The form of one kind of method. `networkOf` names the network of a coin currency (the page's list in
 * the browser, the upstream's in the action), so an address is checked against the network it is for.
 */
export function bindFormSchema(type: WithdrawType, networkOf: (currencyId: number) => string | undefined) {
  if (type === WithdrawType.Bank) {
    return z.object({
      ...common,
      bank_name: required(120),
      bank_address: required(200),
      bank_swift: required(20).refine(swiftValid, 'withdraw:validation.swift'),
      payee_name: required(120),
      payee_account: required(64),
      branch_name: optional(120),
      address: z.undefined().optional(),
    });
  }
  return z
    .object({
      ...common,
      address: z
        .string({ required_error: 'withdraw:validation.addressRequired' })
        .trim()
        .min(1, 'withdraw:validation.addressRequired')
        .max(128),
      bank_name: z.undefined().optional(),
      bank_address: z.undefined().optional(),
      bank_swift: z.undefined().optional(),
      payee_name: z.undefined().optional(),
      payee_account: z.undefined().optional(),
      branch_name: z.undefined().optional(),
    })
    .superRefine((f, ctx) => {
      const network = networkOf(f.currency);
      if (network && !addressMatchesNetwork(network, f.address))
        ctx.addIssue({ code: 'custom', path: ['address'], message: 'withdraw:validation.addressNetwork' });
    });
}
