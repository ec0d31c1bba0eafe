/** The handlers of spec §7 served by this upstream, each bound to its contract call. */
import type { FastifyInstance } from 'fastify';
import type { z } from 'zod/v4';
import * as account from '../../contract/calls/account';
import * as content from '../../contract/calls/content';
import * as market from '../../contract/calls/market';
import * as trade from '../../contract/calls/trade';
import { OrderStatus, OrderTab, ShowMobile } from '../../contract/enums';
import { ErrorCode } from '../../contract/errors';
import { fail } from '../shared/errors';
import type { Upstream } from '../upstream';
import { translate } from './i18n';
import { register, registerProtected } from './route';
import { accountDetailView, instrumentView, isoTime, moneyNumber, orderView, userView } from './views';

export function registerRoutes(app: FastifyInstance, up: Upstream): void {
  const session = (s: { token: string; user: Parameters<typeof userView>[0] }) => ({ token: s.token, user: userView(s.user) });

  // ---- account and session ----
  register(app, up, account.loginForU, async ({ input, device, lang }) => {
    const answer = await up.security.login(input, device, lang);
    return 'ticket' in answer ? answer : session(answer);
  });
  register(app, up, account.createAccountDemoForU, ({ input, device }) => session(up.accounts.demo(input.demo_id, device)));
  register(app, up, account.info, ({ user }) => userView(user));
  register(app, up, account.logout, ({ token }) => {
    up.accounts.revokeToken(token!);
    return null;
  });
  register(app, up, account.register, ({ input, device, lang }) => session(up.accounts.register(input, device, lang)));
  register(app, up, account.sendEmail, ({ input, ip, user, lang }) => up.accounts.sendCode('email', input, ip, user, lang));
  register(app, up, account.sendSms, ({ input, ip, user, lang }) => up.accounts.sendCode('sms', input, ip, user, lang));
  register(app, up, account.captcha, ({ ip }) => {
    if (!up.accounts.captchasPerIp.take(ip)) fail('RateLimited');
    const { id, b64s } = up.captcha.create();
    return { id, b64s };
  });
  register(app, up, account.forgetPassword, ({ input }) => {
    up.accounts.forgetPassword(input);
    return null;
  });
  registerProtected(
    app,
    up,
    account.amendPassword,
    'change_password',
    ({ input, user, token }) => {
      up.accounts.changePassword(user, token!, input.new_password);
      return null;
    },
    { before: ({ input, user }) => up.accounts.checkPasswordChange(user, input) },
  );
  register(
    app,
    up,
    account.areaList,
    () =>
      up.db.prepare('SELECT id, code, global_code FROM area_codes ORDER BY sort, id').all() as {
        id: number;
        code: string;
        global_code: string;
      }[],
  );
  register(app, up, account.setting, ({ input }) => ({ key: input.key, value: Number(up.setting(input.key)) || ShowMobile.Hidden }));
  register(app, up, account.getBasicInfo, () => ({
    service_link: up.setting('service_link'),
    service_link_type: Number(up.setting('service_link_type')),
    verify_reg_type: Number(up.setting('verify_reg_type')) === 2 ? (2 as const) : (1 as const),
    trade_fee_type: Number(up.setting('trade_fee_type')),
    contact_email: up.setting('contact_email'),
  }));

  // ---- markets ----
  register(app, up, market.tradeList, ({ input }) => {
    const search = input.searchCurrency?.toUpperCase().replace(/[^A-Z0-9]/g, '');
    return up.market.instruments
      .filter((i) => input.category_id === undefined || i.categoryId === input.category_id)
      .filter(
        (i) =>
          !search ||
          i.code.includes(search) ||
          i.showCode
            .toUpperCase()
            .replace(/[^A-Z0-9]/g, '')
            .includes(search),
      )
      .map((i) => instrumentView(up.market, i));
  });
  register(app, up, market.getCategories, ({ lang }) =>
    (up.db.prepare('SELECT id, code FROM categories ORDER BY sort').all() as { id: number; code: string }[]).map((c) => ({
      Id: c.id,
      Code: c.code,
      NameShowTrans: translate(lang, `categories.${c.code}`),
    })),
  );
  register(app, up, market.kline, ({ input }) => {
    const inst = up.market.get(input.forex_id) ?? fail('InstrumentNotFound');
    const scale = 10 ** inst.precision;
    return up.market.candles.history(inst.id, input.period, input.limit, input.before).map((c) => ({
      Time: c.time,
      Open: c.open / scale,
      High: c.high / scale,
      Low: c.low / scale,
      Close: c.close / scale,
      Volume: c.volume,
    }));
  });
  register(app, up, market.abbreviatedCacheKline, ({ input }) => {
    const list = input.forex_id === undefined ? up.market.instruments : [up.market.get(input.forex_id) ?? fail('InstrumentNotFound')];
    return list.map((inst) => ({
      forex_id: inst.id,
      points: up.market.candles.sparkline(inst.id, input.period).map((p) => p / 10 ** inst.precision),
    }));
  });

  // ---- trading ----
  const view = (row: Parameters<typeof orderView>[2]) => orderView(up.market, up.engine, row);
  // Group commit: answered once the order's shared transaction is on disk (decision 0042).
  register(app, up, trade.submit, async ({ input, user }) =>
    view(
      await up.engine.submitGrouped(user.id, {
        side: input.type,
        lots: input.cont,
        instrumentId: input.forex_id,
        entryMode: input.status,
        targetPrice: input.target_price,
        stopLoss: input.stop_loss_price,
        takeProfit: input.target_profit_price,
        trailDistance: input.trail_distance,
        leverage: input.multiple,
        seenPrice: input.price,
        idempotencyKey: input.idempotency_key,
      }),
    ),
  );
  register(app, up, trade.myDeal, ({ input, user }) => {
    const history = input.status === OrderTab.History;
    const statuses = history ? [OrderStatus.Closed, OrderStatus.Cancelled] : [input.status];
    // A closed order belongs to the day it closed (a statement's realised profit), an open one to when it was placed.
    const range = rangeWhere(history ? 'COALESCE(completed_at, created_at)' : 'created_at', input);
    const where = `user_id = ? AND status IN (${statuses.map(() => '?').join(',')})${range.sql}`;
    const params = [user.id, ...statuses, ...range.params];
    const rows = up.db
      .prepare(`SELECT * FROM orders WHERE ${where} ORDER BY id DESC LIMIT ? OFFSET ?`)
      .all(...params, trade.MY_DEAL_PAGE_SIZE, (input.page - 1) * trade.MY_DEAL_PAGE_SIZE) as Parameters<typeof view>[0][];
    const total = (up.db.prepare(`SELECT COUNT(*) AS n FROM orders WHERE ${where}`).get(...params) as { n: number }).n;
    const figures = up.engine.figures(user.id);
    const allProfits =
      input.status === OrderTab.Holding
        ? figures.floatingProfit
        : input.status === OrderTab.History
          ? (up.db.prepare(`SELECT COALESCE(SUM(profit), 0) AS s FROM orders WHERE ${where}`).get(...params) as { s: number }).s
          : 0;
    return { data: rows.map(view), extras: { total, all_fact_profits: moneyNumber(allProfits), balance: moneyNumber(figures.balance) } };
  });
  register(app, up, trade.close, ({ input, user }) => view(up.engine.close(user.id, input.id, input.cont, input.idempotency_key)));
  register(app, up, trade.closeAll, ({ input, user, lang }) => {
    // A repeated key answers what the first request closed, not a second sweep (a double tap, a resent page).
    const key = input.idempotency_key;
    const kept = key
      ? (up.db.prepare('SELECT answer FROM close_all_answers WHERE user_id = ? AND idempotency_key = ?').get(user.id, key) as
          { answer: string } | undefined)
      : undefined;
    if (kept) return JSON.parse(kept.answer) as z.infer<typeof trade.CloseAllResultSchema>;
    const outcome = up.engine.closeAll(
      user.id,
      (profit, instrumentId) =>
        trade.inCloseScope(input.scope, profit) && (input.forex_id === undefined || input.forex_id === instrumentId),
    );
    const answer = {
      closed: outcome.closed.map((c) => ({ id: c.id, profit: moneyNumber(c.profit) })),
      failed: outcome.failed.map((f) => ({ id: f.id, code: ErrorCode[f.error], msg: translate(lang, `errors.${f.error}`) })),
      profit: moneyNumber(outcome.closed.reduce((sum, c) => sum + c.profit, 0)),
    };
    if (key) {
      up.db
        .prepare('INSERT INTO close_all_answers (user_id, idempotency_key, answer, created_at) VALUES (?, ?, ?, ?)')
        .run(user.id, key, JSON.stringify(answer), up.options.clock());
    }
    return answer;
  });
  register(app, up, trade.cancelTrade, ({ input, user }) => view(up.engine.cancel(user.id, input.id)));
  register(app, up, trade.setStopPrice, ({ input, user }) =>
    view(up.engine.setStops(user.id, input.id, input.target_profit_price, input.stop_loss_price, input.trail_distance)),
  );
  register(app, up, trade.getBalance, ({ user }) => ({ balance: moneyNumber(up.engine.figures(user.id).balance) }));
  register(app, up, trade.forexDetail, ({ user }) =>
    accountDetailView(up.engine.figures(user.id), {
      withdrawals: up.withdrawals.pendingTotal(user.id),
      deposits: up.deposits.pendingTotal(user.id),
    }),
  );
  register(app, up, trade.forexChange, ({ input, user, lang }) => {
    const range = rangeWhere('created_at', input);
    const where = `user_id = ?${range.sql}`;
    const rows = up.db
      .prepare(`SELECT * FROM account_log WHERE ${where} ORDER BY id DESC LIMIT ? OFFSET ?`)
      .all(user.id, ...range.params, trade.ACCOUNT_LOG_PAGE_SIZE, (input.page - 1) * trade.ACCOUNT_LOG_PAGE_SIZE) as {
      id: number;
      value: number;
      type: number;
      memo: string;
      balance_after: number;
      order_id: number | null;
      created_at: number;
    }[];
    const total = (up.db.prepare(`SELECT COUNT(*) AS n FROM account_log WHERE ${where}`).get(user.id, ...range.params) as { n: number }).n;
    return {
      data: rows.map((r) => ({
        Id: r.id,
        Value: moneyNumber(r.value),
        Type: r.type,
        Memo: r.memo,
        MemoTran: translate(lang, `ledger.${r.type}`),
        Balance: moneyNumber(r.balance_after),
        OrderId: r.order_id,
        CreatedAtTran: isoTime(r.created_at),
      })),
      extras: { total },
    };
  });
  register(app, up, trade.resetForexDemoAccount, ({ user }) => {
    if (user.is_demo !== 1) fail('NotDemoAccount');
    up.engine.resetDemo(user.id, up.accounts.demoBalance());
    return { balance: moneyNumber(up.engine.figures(user.id).balance) };
  });

  // ---- content that the first screens need ----
  register(app, up, content.getCompany, ({ input }) => {
    const rows = up.db
      .prepare('SELECT id, name, logo, url, subject, registered_address, location, email FROM companies ORDER BY sort, id')
      .all() as z.infer<typeof content.ProviderSchema>[];
    const needle = input.name?.toLowerCase();
    return needle ? rows.filter((c) => c.name.toLowerCase().includes(needle)) : rows;
  });
  register(app, up, content.getCompanyStatus, () => ({ status: Number(up.setting('company_status')) === 1 ? 1 : 0 }));
  register(app, up, content.contactEmail, () => ({ email: up.setting('contact_email') }));
}

/** The SQL of a list call's optional range (`from` inclusive, `to` exclusive, ms) over `column`. */
function rangeWhere(column: string, range: { from?: number; to?: number }): { sql: string; params: number[] } {
  const parts: string[] = [];
  const params: number[] = [];
  if (range.from !== undefined) {
    parts.push(` AND ${column} >= ?`);
    params.push(range.from);
  }
  if (range.to !== undefined) {
    parts.push(` AND ${column} < ?`);
    params.push(range.to);
  }
  return { sql: parts.join(''), params };
}
