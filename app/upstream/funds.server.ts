/**
 * Spec §7 "Deposit" and "Withdraw" and the image upload: one function per call, and the upstream's shapes
 * mapped once to views in the trader's words (pages never see `draw_rate` or `payee_account`).
 */
import * as funds from '#contract/calls/funds';
import * as identity from '#contract/calls/identity';
import { DepositStatus, WithdrawStatus, type WithdrawType } from '#contract/enums';
import { MONEY_DECIMALS, parseUnits } from '#contract/money';
import type { Api } from './api.server';

interface CoinChannel {
  id: number;
  currency: string;
  network: string;
  address: string;
}
interface WireChannel {
  id: number;
  currency: string;
  bankName: string;
  bankAddress: string;
  swift: string;
  payeeName: string;
  payeeAccount: string;
}

export type DepositState = 'pending' | 'finished' | 'rejected' | 'invalid';
export interface DepositRecord {
  id: number;
  amount: number;
  rail: 'coin' | 'wire';
  currency: string;
  network: string | null;
  state: DepositState;
  remark: string;
  time: string;
}

export interface WithdrawCurrency {
  id: number;
  code: string;
  network: string;
  /** 1 fixed fee (USD), otherwise a percentage of the amount. */
  feeType: number;
  /** The fee or the percentage, as the upstream states it. */
  feeRate: number;
  /** The same in micro-units, for the contract arithmetic. */
  feeRateMicro: number;
  usdPrice: number;
  min: number;
  max: number;
}

export interface WithdrawMethod {
  id: number;
  type: WithdrawType;
  currency: string | null;
  network: string | null;
  address: string | null;
  bankName: string | null;
  bankAddress: string | null;
  swift: string | null;
  payeeName: string | null;
  payeeAccount: string | null;
  branch: string | null;
  remark: string | null;
  /** While a newly bound method is held (issue 38): when it may first be used (ms since the epoch); else null. */
  usableAt: number | null;
}

export type WithdrawState = 'pending' | 'paid' | 'rejected';
export interface WithdrawRecord {
  id: number;
  amount: number;
  fee: number;
  received: number;
  currency: string;
  network: string;
  state: WithdrawState;
  stateName: string;
  /** Where it goes: the coin address or the bank and account. */
  address: string | null;
  bankName: string | null;
  payeeAccount: string | null;
  memo: string;
  remark: string;
  time: string;
}

const DEPOSIT_STATES: Record<number, DepositState> = {
  [DepositStatus.Unchecked]: 'pending',
  [DepositStatus.Finished]: 'finished',
  [DepositStatus.Rejected]: 'rejected',
  [DepositStatus.Invalid]: 'invalid',
};
const WITHDRAW_STATES: Record<number, WithdrawState> = {
  [WithdrawStatus.Pending]: 'pending',
  [WithdrawStatus.Paid]: 'paid',
  [WithdrawStatus.Rejected]: 'rejected',
};

// ---- deposit ----

export async function depositChannels(api: Api): Promise<{ coin: CoinChannel[]; wire: WireChannel[] }> {
  const { data } = await api.call(funds.depositInfo, {});
  return {
    coin: data.coin.map((c) => ({ id: c.id, currency: c.currency.code || c.currency_code, network: c.protocol_code, address: c.address })),
    wire: data.wire.map((w) => ({
      id: w.id,
      currency: w.currency_code,
      bankName: w.bank_name,
      bankAddress: w.bank_address,
      swift: w.bank_swift,
      payeeName: w.payee_name,
      payeeAccount: w.payee_account,
    })),
  };
}

function depositView(d: funds.DepositRecord): DepositRecord {
  return {
    id: d.id,
    amount: d.number,
    rail: d.type === 0 ? 'coin' : 'wire',
    currency: d.currency_code,
    network: d.protocol_code,
    state: DEPOSIT_STATES[d.status] ?? 'invalid',
    remark: d.remark,
    time: d.created_at,
  };
}

export async function depositRecords(api: Api, page: number): Promise<{ records: DepositRecord[]; total: number }> {
  const { data, extras } = await api.call(funds.depositRecords, { page });
  return { records: data.map(depositView), total: extras.total ?? data.length };
}

export async function submitCoinDeposit(api: Api, input: { amount: string; proofUrl: string; channel: CoinChannel; key: string }) {
  const { data } = await api.call(funds.depositSubmit, {
    number: input.amount,
    proofImg: input.proofUrl,
    address: input.channel.address,
    charge_id: input.channel.id,
    idempotency_key: input.key,
  });
  return depositView(data);
}

export async function submitWireDeposit(api: Api, input: { amount: string; proofUrl: string; wireId: number; key: string }) {
  const { data } = await api.call(funds.wireSubmit, {
    number: input.amount,
    proofImg: input.proofUrl,
    wire_id: input.wireId,
    idempotency_key: input.key,
  });
  return depositView(data);
}

/** Stores one image at the upstream; answers the reference a deposit or an identity check names. */
export async function uploadImage(api: Api, blob: Blob, filename: string): Promise<string> {
  const { data } = await api.upload(identity.imageUpload, { field: identity.IMAGE_UPLOAD_FIELD, blob, filename });
  return data.url;
}

/** An upload reference as the upstream gives it, or null for anything else a form might carry. */
export function uploadRef(value: unknown): string | null {
  if (typeof value !== 'string' || !value.startsWith(identity.IMAGE_READ_PREFIX)) return null;
  return /^[0-9a-f]{32}\.jpg$/.test(value.slice(identity.IMAGE_READ_PREFIX.length)) ? value : null;
}

/** The web server's own address of an upload (the browser never sees the upstream's). */
export function uploadPreviewPath(ref: string): string {
  return `/uploads/${ref.slice(identity.IMAGE_READ_PREFIX.length)}`;
}

// ---- withdraw ----

function currencyView(c: funds.WithdrawCurrency): WithdrawCurrency {
  return {
    id: c.id,
    code: c.code,
    network: c.protocol,
    feeType: c.fee_type,
    feeRate: c.draw_rate,
    feeRateMicro: parseUnits(String(c.draw_rate), MONEY_DECIMALS) ?? 0,
    usdPrice: c.usd_price,
    min: c.min_number,
    max: c.max_number,
  };
}

export async function withdrawCurrencies(api: Api, type: WithdrawType): Promise<WithdrawCurrency[]> {
  const { data } = await api.call(funds.drawSymbolList, { type });
  return data.map(currencyView);
}

function methodView(m: funds.WithdrawMethod): WithdrawMethod {
  return {
    id: m.id,
    type: m.type as WithdrawType,
    currency: m.draw_currency?.code ?? null,
    network: m.draw_currency?.protocol ?? null,
    address: m.dc_address,
    bankName: m.bank_name,
    bankAddress: m.bank_address,
    swift: m.bank_swift,
    payeeName: m.payee_name,
    payeeAccount: m.payee_account,
    branch: m.branch_name,
    remark: m.remark,
    usableAt: m.usable_at ?? null,
  };
}

export async function withdrawMethods(api: Api, type: WithdrawType): Promise<WithdrawMethod[]> {
  const { data } = await api.call(funds.getDrawMethod, { draw_type: type });
  return data.map(methodView);
}

export async function bindMethod(api: Api, input: funds.BindMethodInput): Promise<WithdrawMethod> {
  const { data } = await api.call(funds.bindDrawMethod, input);
  return methodView(data);
}

/** `grant`: a step-up grant for deleting a method (decision 0039), when one was given. */
export async function deleteMethod(api: Api, id: number, grant?: string): Promise<void> {
  await api.call(funds.delDrawMethod, { id, grant });
}

function withdrawView(w: funds.WithdrawRecord): WithdrawRecord {
  return {
    id: w.id,
    amount: w.number,
    fee: w.fee,
    received: w.real_number,
    currency: w.draw_currency.code,
    network: w.draw_currency.protocol,
    state: WITHDRAW_STATES[w.status] ?? 'pending',
    stateName: w.status_name,
    address: w.address,
    bankName: w.bank_name,
    payeeAccount: w.payee_account,
    memo: w.memo,
    remark: w.notes,
    time: w.created_at,
  };
}

export async function withdrawRecords(api: Api, page: number): Promise<{ records: WithdrawRecord[]; total: number }> {
  const { data, extras } = await api.call(funds.drawList, { page });
  return { records: data.map(withdrawView), total: extras.total ?? data.length };
}

export async function requestWithdrawal(
  api: Api,
  input: { currencyId: number; amount: string; methodId: number; memo?: string; key: string; grant?: string },
) {
  const { data } = await api.call(funds.draw, {
    draw_currency_id: input.currencyId,
    number: input.amount,
    draw_method_id: input.methodId,
    memo: input.memo,
    idempotency_key: input.key,
    grant: input.grant,
  });
  return withdrawView(data);
}
