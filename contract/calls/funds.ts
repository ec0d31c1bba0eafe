/** Spec §7 "Deposit" and "Withdraw". */
import { z } from 'zod';
import { WithdrawType } from '../enums';
import { codeField, DecimalField, IntField, OptionalText, PageField, PositiveInt, RequiredText } from '../fields';
import { defineCall } from './define';

export const CoinChannelSchema = z.object({
  id: z.number().int(),
  address: z.string(),
  currency_code: z.string(),
  protocol_code: z.string(),
  currency: z.object({ code: z.string() }),
});
export const WireChannelSchema = z.object({
  id: z.number().int(),
  currency_code: z.string(),
  bank_name: z.string(),
  bank_address: z.string(),
  bank_swift: z.string(),
  payee_name: z.string(),
  payee_account: z.string(),
});
export const depositInfo = defineCall({
  name: 'quickCharge/info',
  method: 'GET',
  path: '/api/quickCharge/info',
  auth: 'required',
  request: z.object({}),
  response: z.object({ coin: z.array(CoinChannelSchema), wire: z.array(WireChannelSchema) }),
});

export const CoinDepositSchema = z.object({
  number: DecimalField,
  proofImg: RequiredText,
  address: RequiredText,
  charge_id: PositiveInt,
});
export const DepositRecordSchema = z.object({
  id: z.number().int(),
  number: z.number(),
  /** 0 coin, otherwise bank wire. */
  type: z.number().int(),
  currency_code: z.string(),
  status: z.number().int(),
  created_at: z.string(),
  remark: z.string(),
});
export const depositSubmit = defineCall({
  name: 'quickCharge/submit',
  method: 'POST',
  path: '/api/quickCharge/submit',
  auth: 'required',
  request: CoinDepositSchema,
  response: DepositRecordSchema,
});
export const WireDepositSchema = z.object({ number: DecimalField, proofImg: RequiredText, wire_id: PositiveInt });
export const wireSubmit = defineCall({
  name: 'quickCharge/wire_submit',
  method: 'POST',
  path: '/api/quickCharge/wire_submit',
  auth: 'required',
  request: WireDepositSchema,
  response: DepositRecordSchema,
});
export const depositRecords = defineCall({
  name: 'quickCharge/quick_ist',
  method: 'GET',
  path: '/api/quickCharge/quick_ist',
  auth: 'required',
  request: z.object({ type: IntField.optional(), page: PageField }),
  response: z.array(DepositRecordSchema),
  extras: { total: z.number().int() },
});

export const WithdrawCurrencySchema = z.object({
  id: z.number().int(),
  code: z.string(),
  protocol: z.string(),
  draw_rate: z.number(),
  /** 1 fixed fee, otherwise percent of the amount. */
  fee_type: z.number().int(),
  usd_price: z.number(),
});
export const drawSymbolList = defineCall({
  name: 'draw_symbol_list',
  method: 'GET',
  path: '/api/account/draw_symbol_list',
  auth: 'required',
  request: z.object({ type: codeField([WithdrawType.Crypto, WithdrawType.Bank]) }),
  response: z.array(WithdrawCurrencySchema),
});

export const WithdrawSchema = z.object({
  draw_currency_id: PositiveInt,
  number: DecimalField,
  memo: OptionalText,
  draw_method_id: PositiveInt,
});
export const WithdrawRecordSchema = z.object({
  id: z.number().int(),
  number: z.number(),
  /** Amount received: number − fee. */
  real_number: z.number(),
  draw_currency: z.object({ code: z.string() }),
  fee: z.number(),
  status: z.number().int(),
  status_name: z.string(),
  created_at: z.string(),
  /** 1 crypto, 2 bank. */
  type: z.number().int(),
  address: z.string().nullable(),
  payee_account: z.string().nullable(),
  notes: z.string(),
});
export const draw = defineCall({
  name: 'draw',
  method: 'POST',
  path: '/api/account/draw',
  auth: 'required',
  request: WithdrawSchema,
  response: WithdrawRecordSchema,
});
export const drawList = defineCall({
  name: 'draw_list',
  method: 'GET',
  path: '/api/account/draw_list',
  auth: 'required',
  request: z.object({ type: IntField.optional(), page: PageField }),
  response: z.array(WithdrawRecordSchema),
  extras: { total: z.number().int() },
});

export const WithdrawMethodSchema = z.object({
  id: z.number().int(),
  type: z.number().int(),
  dc_address: z.string().nullable(),
  draw_currency: z.object({ code: z.string(), protocol: z.string() }).nullable(),
  bank_name: z.string().nullable(),
  bank_address: z.string().nullable(),
  bank_swift: z.string().nullable(),
  payee_account: z.string().nullable(),
  payee_name: z.string().nullable(),
});
export const getDrawMethod = defineCall({
  name: 'get_draw_method',
  method: 'GET',
  path: '/api/wallet/get_draw_method',
  auth: 'required',
  request: z.object({ draw_type: codeField([WithdrawType.Crypto, WithdrawType.Bank]), draw_id: IntField.optional() }),
  response: z.array(WithdrawMethodSchema),
});

export const BindMethodSchema = z.object({
  type: codeField([WithdrawType.Crypto, WithdrawType.Bank]),
  /** The withdraw currency's id. */
  draw_id: PositiveInt,
  dc_address: OptionalText,
  bank_name: OptionalText,
  bank_address: OptionalText,
  bank_swift: OptionalText,
  payee_name: OptionalText,
  payee_account: OptionalText,
  branch_name: OptionalText,
  remark: OptionalText,
});
export const bindDrawMethod = defineCall({
  name: 'bind_draw_method',
  method: 'POST',
  path: '/api/wallet/bind_draw_method',
  auth: 'required',
  request: BindMethodSchema,
  response: WithdrawMethodSchema,
});
export const delDrawMethod = defineCall({
  name: 'del_draw_method',
  method: 'POST',
  path: '/api/wallet/del_draw_method',
  auth: 'required',
  request: z.object({ id: PositiveInt }),
  response: z.null(),
});
