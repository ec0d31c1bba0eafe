/** Spec §7 "Deposit" and "Withdraw". */
import { z } from 'zod/v4';
import { WithdrawType } from '../enums';
import { codeField, DecimalField, IntField, OptionalText, PageField, PositiveInt, RequiredText } from '../fields';

/** Deposits and withdrawals are in the account currency (USD); a coin's `usd_price` only converts for display. */

/** Page size of the deposit and withdrawal record lists. */
export const FUNDS_PAGE_SIZE = 10;
/** Bound withdrawal methods per user and type. */
export const MAX_METHODS_PER_TYPE = 10;
/** An optional one-time key: the same key again returns the first record instead of a second one. */
const IdempotencyKey = OptionalText.refine((k) => k === undefined || /^[A-Za-z0-9_-]{8,64}$/.test(k), { message: 'bad key' });
import { defineCall } from './define';

const CoinChannelSchema = z.object({
  id: z.number().int(),
  address: z.string(),
  currency_code: z.string(),
  protocol_code: z.string(),
  currency: z.object({ code: z.string() }),
});
const WireChannelSchema = z.object({
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

const CoinDepositSchema = z.object({
  number: DecimalField,
  /** The `url` an image_upload of this user returned. */
  proofImg: RequiredText,
  address: RequiredText,
  charge_id: PositiveInt,
  idempotency_key: IdempotencyKey,
});
export const DepositRecordSchema = z.object({
  id: z.number().int(),
  number: z.number(),
  /** 0 coin, otherwise bank wire. */
  type: z.number().int(),
  currency_code: z.string(),
  /** The coin channel's network (TRC20, ERC20, BTC); null for a wire. */
  protocol_code: z.string().nullable(),
  /** 0 pending review, 1 finished, 2 rejected, 3 invalid (DepositStatus). */
  status: z.number().int(),
  created_at: z.string(),
  /** The back office's remark (the reason of a rejection). */
  remark: z.string(),
});
export type DepositRecord = z.infer<typeof DepositRecordSchema>;
export const depositSubmit = defineCall({
  name: 'quickCharge/submit',
  method: 'POST',
  path: '/api/quickCharge/submit',
  auth: 'required',
  request: CoinDepositSchema,
  response: DepositRecordSchema,
});
const WireDepositSchema = z.object({
  number: DecimalField,
  proofImg: RequiredText,
  wire_id: PositiveInt,
  idempotency_key: IdempotencyKey,
});
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
  /** USD per unit of the currency (1 for USD and USDT). */
  usd_price: z.number(),
  /** Smallest and largest amount of one withdrawal, USD. */
  min_number: z.number(),
  max_number: z.number(),
});
export type WithdrawCurrency = z.infer<typeof WithdrawCurrencySchema>;
export const drawSymbolList = defineCall({
  name: 'draw_symbol_list',
  method: 'GET',
  path: '/api/account/draw_symbol_list',
  auth: 'required',
  request: z.object({ type: codeField([WithdrawType.Crypto, WithdrawType.Bank]) }),
  response: z.array(WithdrawCurrencySchema),
});

const WithdrawSchema = z.object({
  draw_currency_id: PositiveInt,
  number: DecimalField,
  memo: OptionalText,
  draw_method_id: PositiveInt,
  idempotency_key: IdempotencyKey,
  /** A step-up grant for `withdraw` (calls/security.ts). */
  grant: OptionalText,
});
export const WithdrawRecordSchema = z.object({
  id: z.number().int(),
  number: z.number(),
  /** Amount received: number − fee. */
  real_number: z.number(),
  draw_currency: z.object({ code: z.string(), protocol: z.string() }),
  fee: z.number(),
  /** 0 pending, 1 paid, 2 rejected (WithdrawStatus); status_name in the request's language. */
  status: z.number().int(),
  status_name: z.string(),
  created_at: z.string(),
  /** 1 crypto, 2 bank. The method as it was at the request (a snapshot, kept if the method is deleted). */
  type: z.number().int(),
  address: z.string().nullable(),
  bank_name: z.string().nullable(),
  payee_name: z.string().nullable(),
  payee_account: z.string().nullable(),
  /** The trader's memo. */
  memo: z.string(),
  /** The back office's remark (the reason of a rejection). */
  notes: z.string(),
});
export type WithdrawRecord = z.infer<typeof WithdrawRecordSchema>;
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
  branch_name: z.string().nullable(),
  remark: z.string().nullable(),
  /** When a newly bound method may first be used (ms since the epoch; issue 38's hold). A broker's backend omits it. */
  usable_at: z.number().int().nullable().optional(),
});
export type WithdrawMethod = z.infer<typeof WithdrawMethodSchema>;
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
  /** A step-up grant for `bind_method` (calls/security.ts). */
  grant: OptionalText,
});
export type BindMethodInput = z.input<typeof BindMethodSchema>;
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
  /** `grant`: a step-up grant for `delete_method` (calls/security.ts). */
  request: z.object({ id: PositiveInt, grant: OptionalText }),
  response: z.null(),
});
