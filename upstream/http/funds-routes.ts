/** Spec §7 "Deposit", "Withdraw" and the image upload, each bound to its contract call. */
import type { FastifyInstance } from 'fastify';
import * as funds from '../../contract/calls/funds';
import * as identity from '../../contract/calls/identity';
import { WithdrawType } from '../../contract/enums';
import { fail } from '../shared/errors';
import type { DepositRow } from '../funds/deposits';
import type { CurrencyRow, MethodRow, WithdrawalRow } from '../funds/withdrawals';
import type { Upstream } from '../upstream';
import { bearer, register, registerProtected } from './route';
import { utc } from '../accounts/accounts';
import { translate } from './i18n';
import { isoTime, moneyNumber } from './views';
import type { Language } from '../../contract/enums';

const depositView = (d: DepositRow) => ({
  id: d.id,
  number: moneyNumber(d.amount),
  type: d.type,
  currency_code: d.currency_code,
  protocol_code: d.protocol_code,
  status: d.status,
  created_at: isoTime(d.created_at),
  remark: d.remark,
});

const currencyView = (c: CurrencyRow) => ({
  id: c.id,
  code: c.code,
  protocol: c.protocol,
  // Fixed fee in USD (fee_type 1) or percent: both kept as micro-units, so both read back the same way.
  draw_rate: moneyNumber(c.draw_rate),
  fee_type: c.fee_type,
  usd_price: moneyNumber(c.usd_price),
  min_number: moneyNumber(c.min_amount),
  max_number: moneyNumber(c.max_amount),
});

function withdrawalView(w: WithdrawalRow, lang: Language) {
  return {
    id: w.id,
    number: moneyNumber(w.amount),
    real_number: moneyNumber(w.amount - w.fee),
    draw_currency: { code: w.currency_code, protocol: w.protocol },
    fee: moneyNumber(w.fee),
    status: w.status,
    status_name: translate(lang, `withdrawStatus.${w.status}`),
    created_at: isoTime(w.created_at),
    type: w.type,
    address: w.address,
    bank_name: w.bank_name,
    payee_name: w.payee_name,
    payee_account: w.payee_account,
    memo: w.memo,
    notes: w.remark,
  };
}

export function registerFundsRoutes(app: FastifyInstance, up: Upstream): void {
  const methodView = (m: MethodRow) => {
    const c = up.withdrawals.currencies(undefined, true).find((x) => x.id === m.currency_id);
    return {
      id: m.id,
      type: m.type,
      dc_address: m.dc_address,
      draw_currency: c ? { code: c.code, protocol: c.protocol } : null,
      bank_name: m.bank_name,
      bank_address: m.bank_address,
      bank_swift: m.bank_swift,
      payee_account: m.payee_account,
      payee_name: m.payee_name,
      branch_name: m.branch_name,
      remark: m.remark,
      usable_at: m.usable_at,
    };
  };
  /** A method in a notice: the network and the address, or the bank and the account's last digits. */
  const methodWords = (
    m: { type: number; dc_address: string | null; bank_name: string | null; payee_account: string | null },
    code = '',
  ) =>
    m.type === WithdrawType.Crypto
      ? `${code} ${m.dc_address ?? ''}`.trim()
      : `${m.bank_name ?? ''} ***${(m.payee_account ?? '').slice(-4)}`;

  // ---- deposit ----
  register(app, up, funds.depositInfo, () => ({
    coin: up.deposits.channels('coin').map((c) => ({
      id: c.id,
      address: c.address!,
      currency_code: c.currency_code,
      protocol_code: c.protocol_code!,
      currency: { code: c.currency_code },
    })),
    wire: up.deposits.channels('wire').map((c) => ({
      id: c.id,
      currency_code: c.currency_code,
      bank_name: c.bank_name!,
      bank_address: c.bank_address ?? '',
      bank_swift: c.bank_swift ?? '',
      payee_name: c.payee_name ?? '',
      payee_account: c.payee_account!,
    })),
  }));
  register(app, up, funds.depositSubmit, ({ input, user }) =>
    depositView(
      up.deposits.submit(user, {
        kind: 'coin',
        amount: input.number,
        proofUrl: input.proofImg,
        channelId: input.charge_id,
        address: input.address,
        idempotencyKey: input.idempotency_key,
      }),
    ),
  );
  register(app, up, funds.wireSubmit, ({ input, user }) =>
    depositView(
      up.deposits.submit(user, {
        kind: 'wire',
        amount: input.number,
        proofUrl: input.proofImg,
        channelId: input.wire_id,
        idempotencyKey: input.idempotency_key,
      }),
    ),
  );
  register(app, up, funds.depositRecords, ({ input, user }) => {
    const { rows, total } = up.deposits.list(user.id, input.type, input.page, funds.FUNDS_PAGE_SIZE);
    return { data: rows.map(depositView), extras: { total } };
  });

  // ---- withdraw ----
  register(app, up, funds.drawSymbolList, ({ input }) => up.withdrawals.currencies(input.type).map(currencyView));
  registerProtected(
    app,
    up,
    funds.draw,
    'withdraw',
    ({ input, user, lang }) => {
      const w = up.withdrawals.request(user, {
        currencyId: input.draw_currency_id,
        amount: input.number,
        methodId: input.draw_method_id,
        memo: input.memo,
        idempotencyKey: input.idempotency_key,
      });
      // Every withdrawal request is news to the owner (a thief's too).
      up.accounts.notify(user, 'withdrawal', {
        amount: moneyNumber(w.amount).toFixed(2),
        method: methodWords({ ...w, dc_address: w.address }, `${w.currency_code} ${w.protocol}`),
        time: utc(w.created_at),
      });
      return withdrawalView(w, lang);
    },
    {
      // A repeated key answers the withdrawal it already made: nothing moves, so no grant is asked for or spent.
      replay: ({ input, user, lang }) => {
        const first = up.withdrawals.byKey(user.id, input.idempotency_key);
        return first ? withdrawalView(first, lang) : undefined;
      },
    },
  );
  register(app, up, funds.drawList, ({ input, user, lang }) => {
    const { rows, total } = up.withdrawals.list(user.id, input.type, input.page, funds.FUNDS_PAGE_SIZE);
    return { data: rows.map((w) => withdrawalView(w, lang)), extras: { total } };
  });
  register(app, up, funds.getDrawMethod, ({ input, user }) =>
    up.withdrawals.methods(user.id, input.draw_type, input.draw_id).map(methodView),
  );
  registerProtected(app, up, funds.bindDrawMethod, 'bind_method', ({ input, user }) => {
    const before = up.withdrawals.methods(user.id, input.type).length;
    const m = up.withdrawals.bind(user, {
      type: input.type,
      currencyId: input.draw_id,
      address: input.type === WithdrawType.Crypto ? input.dc_address : undefined,
      bankName: input.bank_name,
      bankAddress: input.bank_address,
      swift: input.bank_swift,
      payeeName: input.payee_name,
      payeeAccount: input.payee_account,
      branchName: input.branch_name,
      remark: input.remark,
    });
    // A new binding (not the same address bound again) is news to the owner, with the hold's end.
    if (up.withdrawals.methods(user.id, input.type).length > before) {
      const c = up.withdrawals.currencies(undefined, true).find((x) => x.id === m.currency_id);
      up.accounts.notify(user, 'methodBound', {
        method: methodWords(m, c ? `${c.code} ${c.protocol}` : ''),
        time: utc(m.created_at),
        usable: utc(m.usable_at ?? m.created_at),
      });
    }
    return methodView(m);
  });
  registerProtected(app, up, funds.delDrawMethod, 'delete_method', ({ input, user }) => {
    up.withdrawals.unbind(user.id, input.id);
    return null;
  });

  // ---- uploads ----
  register(app, up, identity.imageUpload, async ({ user, request }) => {
    if (!request.isMultipart()) fail('UploadRequired');
    let file;
    try {
      file = await request.file();
    } catch (err) {
      if ((err as { code?: string }).code === 'FST_FILES_LIMIT' || (err as { code?: string }).code === 'FST_PARTS_LIMIT')
        fail('UploadRequired', 'one file');
      throw err;
    }
    if (!file || file.fieldname !== identity.IMAGE_UPLOAD_FIELD) fail('UploadRequired');
    let bytes: Buffer;
    try {
      bytes = await file.toBuffer();
    } catch (err) {
      if ((err as { code?: string }).code === 'FST_REQ_FILE_TOO_LARGE') fail('UploadTooLarge');
      throw err;
    }
    return up.uploads.store(user.id, bytes);
  });
  // The owner reads an upload back with their token; everyone else gets 404 (not 403: nothing to learn).
  app.get(`${identity.IMAGE_READ_PREFIX}:name`, async (req, reply) => {
    const user = up.accounts.authenticate(bearer(req));
    const bytes = user ? up.uploads.read((req.params as { name: string }).name, user.id) : null;
    if (!bytes) return reply.code(404).send();
    return reply
      .header('content-type', 'image/jpeg')
      .header('cache-control', 'private, max-age=3600')
      .header('x-content-type-options', 'nosniff')
      .send(bytes);
  });
}
