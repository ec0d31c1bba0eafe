/**
 * The back office the spec leaves out, as a loopback HTTP API for `npm run admin` and for tests. Every
 * call needs the admin key kept in the data folder.
 */
import type { FastifyInstance } from 'fastify';
import { z } from 'zod/v4';
import { MONEY_DECIMALS, parseUnits } from '../../contract/money';
import { safeEqual } from '../accounts/secrets';
import { BusinessError } from '../shared/errors';
import type { Upstream } from '../upstream';

const MarketBody = z.object({ code: z.string().min(1), status: z.enum(['open', 'closed', 'auto']) });
const BalanceBody = z.object({ user: z.string().min(1), amount: z.string().min(1), memo: z.string().min(1) });
const PriceBody = z.object({ code: z.string().min(1), price: z.string().min(1) });
const LeverageBody = z.object({ code: z.string().min(1), values: z.array(z.number().int().positive().max(1000)).max(20) });
const SettingBody = z.object({ key: z.string().min(1), value: z.string() });
/** Lost phone: who checked the owner's identity, and why, are required and kept (admin_actions). */
const FactorsResetBody = z.object({
  user: z.string().min(1),
  operator: z.string().trim().min(2).max(100),
  reason: z.string().trim().min(5).max(500),
});
const ListQuery = z.object({
  user: z.string().optional(),
  pending: z.enum(['1', 'true']).optional(),
  limit: z.coerce.number().int().min(1).max(500).default(50),
});
const ReviewBody = z.object({ id: z.coerce.number().int().positive(), action: z.string(), remark: z.string().max(500).default('') });
const KycBody = z.object({ user: z.string().min(1), action: z.enum(['approve', 'reject']), reason: z.string().max(500).default('') });
const NewsBody = z.object({
  lang: z.string().min(2).max(4).default('en'),
  title: z.string().min(1).max(200),
  summary: z.string().max(500).default(''),
  content: z.string().min(1).max(200_000),
  logo: z.string().max(300).default(''),
  /** Another language of an existing article. */
  id: z.coerce.number().int().positive().optional(),
});
const ChannelBody = z.object({
  id: z.coerce.number().int().positive().optional(),
  kind: z.enum(['coin', 'wire']),
  currency: z.string().min(1).max(10),
  protocol: z.string().max(20).optional(),
  address: z.string().max(200).optional(),
  bank_name: z.string().max(200).optional(),
  bank_address: z.string().max(300).optional(),
  bank_swift: z.string().max(20).optional(),
  payee_name: z.string().max(200).optional(),
  payee_account: z.string().max(100).optional(),
  enabled: z.boolean().default(true),
});
const CurrencyBody = z.object({
  id: z.coerce.number().int().positive().optional(),
  type: z.union([z.literal(1), z.literal(2)]),
  code: z.string().min(1).max(10),
  protocol: z.string().min(1).max(20),
  fee_type: z.union([z.literal(1), z.literal(2)]),
  rate: z.string(),
  usd_price: z.string(),
  min: z.string(),
  max: z.string(),
  enabled: z.boolean().default(true),
});

export function isLoopback(address: string | undefined): boolean {
  if (!address) return false;
  const a = address.startsWith('::ffff:') ? address.slice(7) : address;
  return a === '::1' || /^127\.\d+\.\d+\.\d+$/.test(a);
}

export function registerAdmin(app: FastifyInstance, up: Upstream, adminKey: string): void {
  app.register(async (admin) => {
    admin.addHook('onRequest', async (req, reply) => {
      // The back office lives on this machine: whatever interface the API listens on, /admin answers
      // loopback only (the socket's own peer, never a forwarded address).
      if (!isLoopback(req.socket.remoteAddress)) return reply.code(404).send({ error: 'not found' });
      const key = req.headers['x-admin-key'];
      if (typeof key !== 'string' || !safeEqual(key, adminKey)) return reply.code(403).send({ error: 'admin key required' });
    });

    admin.get('/admin/outbox', async (req) => {
      const q = z.object({ to: z.string().optional(), limit: z.coerce.number().int().min(1).max(500).default(20) }).parse(req.query);
      const rows = q.to
        ? up.db.prepare('SELECT * FROM outbox WHERE recipient = ? COLLATE NOCASE ORDER BY id DESC LIMIT ?').all(q.to, q.limit)
        : up.db.prepare('SELECT * FROM outbox ORDER BY id DESC LIMIT ?').all(q.limit);
      return { outbox: rows };
    });

    admin.post('/admin/market', async (req, reply) => {
      const body = MarketBody.safeParse(req.body);
      if (!body.success) return reply.code(400).send({ error: body.error.message });
      const status = body.data.status === 'open' ? 1 : body.data.status === 'closed' ? 0 : null;
      const targets =
        body.data.code.toLowerCase() === 'all'
          ? up.market.instruments
          : [up.market.getByCode(body.data.code)].filter((i) => i !== undefined);
      if (targets.length === 0) return reply.code(404).send({ error: `no instrument ${body.data.code}` });
      for (const inst of targets) up.market.forceStatus(inst.id, status);
      return { changed: targets.map((i) => ({ code: i.code, status: up.market.status(i.id) })) };
    });

    admin.post('/admin/balance', async (req, reply) => {
      const body = BalanceBody.safeParse(req.body);
      if (!body.success) return reply.code(400).send({ error: body.error.message });
      const amount = parseUnits(body.data.amount.replace(/^\+/, ''), MONEY_DECIMALS);
      if (amount === null || amount === 0) return reply.code(400).send({ error: 'amount must be a non-zero decimal' });
      const user = up.db
        .prepare('SELECT id FROM users WHERE uid = ? OR email = ? COLLATE NOCASE OR CAST(id AS TEXT) = ?')
        .get(body.data.user, body.data.user, body.data.user) as { id: number } | undefined;
      if (!user) return reply.code(404).send({ error: `no user ${body.data.user}` });
      try {
        up.engine.adjustBalance(user.id, amount, body.data.memo);
      } catch (err) {
        return reply.code(409).send({ error: String(err) });
      }
      return { balance: up.engine.figures(user.id).balance / 10 ** MONEY_DECIMALS };
    });

    admin.post('/admin/leverage', async (req, reply) => {
      const body = LeverageBody.safeParse(req.body);
      if (!body.success) return reply.code(400).send({ error: body.error.message });
      const inst = up.market.getByCode(body.data.code);
      if (!inst) return reply.code(404).send({ error: `no instrument ${body.data.code}` });
      up.market.setLeverages(inst.id, body.data.values);
      return { code: inst.code, leverages: inst.leverages };
    });

    admin.post('/admin/setting', async (req, reply) => {
      const body = SettingBody.safeParse(req.body);
      if (!body.success) return reply.code(400).send({ error: body.error.message });
      up.setSetting(body.data.key, body.data.value);
      return { key: body.data.key, value: up.setting(body.data.key) };
    });

    const userFilter = (text: string | undefined) => {
      if (!text) return null;
      const row = up.db
        .prepare('SELECT id FROM users WHERE uid = ? OR email = ? COLLATE NOCASE OR CAST(id AS TEXT) = ?')
        .get(text, text, text) as { id: number } | undefined;
      return row?.id ?? -1;
    };
    const reviewed = <T>(reply: { code(n: number): { send(b: unknown): unknown } }, fn: () => T) => {
      try {
        return fn();
      } catch (err) {
        if (err instanceof BusinessError)
          return reply.code(err.errorName === 'NotFound' ? 404 : 409).send({ error: err.detail ?? err.errorName });
        throw err;
      }
    };

    admin.get('/admin/deposits', async (req) => {
      const q = ListQuery.parse(req.query);
      const user = userFilter(q.user);
      const rows = up.db
        .prepare(
          `SELECT d.*, u.email, u.uid FROM deposits d JOIN users u ON u.id = d.user_id
           WHERE (? IS NULL OR d.user_id = ?) AND (? = 0 OR d.status = 0) ORDER BY d.id DESC LIMIT ?`,
        )
        .all(user, user, q.pending ? 1 : 0, q.limit) as (Record<string, unknown> & { amount: number })[];
      return { deposits: rows.map((r) => ({ ...r, number: r.amount / 10 ** MONEY_DECIMALS })) };
    });
    admin.post('/admin/deposit', async (req, reply) => {
      const body = ReviewBody.safeParse(req.body);
      if (!body.success || !['approve', 'reject', 'invalid'].includes(body.data.action))
        return reply.code(400).send({ error: 'id and action approve|reject|invalid' });
      return reviewed(reply, () => ({ deposit: up.deposits.review(body.data.id, body.data.action as 'approve', body.data.remark) }));
    });

    admin.get('/admin/withdrawals', async (req) => {
      const q = ListQuery.parse(req.query);
      const user = userFilter(q.user);
      const rows = up.db
        .prepare(
          `SELECT w.*, u.email, u.uid FROM withdrawals w JOIN users u ON u.id = w.user_id
           WHERE (? IS NULL OR w.user_id = ?) AND (? = 0 OR w.status = 0) ORDER BY w.id DESC LIMIT ?`,
        )
        .all(user, user, q.pending ? 1 : 0, q.limit) as (Record<string, unknown> & { amount: number; fee: number })[];
      const usd = (n: number) => n / 10 ** MONEY_DECIMALS;
      return { withdrawals: rows.map((r) => ({ ...r, number: usd(r.amount), fee: usd(r.fee), real_number: usd(r.amount - r.fee) })) };
    });
    admin.post('/admin/withdrawal', async (req, reply) => {
      const body = ReviewBody.safeParse(req.body);
      if (!body.success || !['approve', 'reject'].includes(body.data.action))
        return reply.code(400).send({ error: 'id and action approve|reject' });
      return reviewed(reply, () => ({ withdrawal: up.withdrawals.review(body.data.id, body.data.action as 'approve', body.data.remark) }));
    });

    /** The back office reads any upload (a deposit's proof) by its name. */
    admin.get('/admin/image/:name', async (req, reply) => {
      const bytes = up.uploads.read((req.params as { name: string }).name, null);
      if (!bytes) return reply.code(404).send({ error: 'no such image' });
      return reply.header('content-type', 'image/jpeg').send(bytes);
    });

    admin.get('/admin/channels', async () => ({
      channels: up.deposits.channels(undefined, true),
      currencies: up.withdrawals.currencies(undefined, true).map((c) => ({
        ...c,
        draw_rate: c.draw_rate / 10 ** MONEY_DECIMALS,
        usd_price: c.usd_price / 10 ** MONEY_DECIMALS,
        min_amount: c.min_amount / 10 ** MONEY_DECIMALS,
        max_amount: c.max_amount / 10 ** MONEY_DECIMALS,
      })),
    }));
    admin.post('/admin/channel', async (req, reply) => {
      const body = ChannelBody.safeParse(req.body);
      if (!body.success) return reply.code(400).send({ error: body.error.message });
      const c = body.data;
      if (c.kind === 'coin' && (!c.protocol || !c.address))
        return reply.code(400).send({ error: 'a coin channel needs a protocol and an address' });
      if (c.kind === 'wire' && (!c.bank_name || !c.payee_account))
        return reply.code(400).send({ error: 'a wire channel needs a bank name and an account' });
      const row = {
        id: c.id ?? null,
        kind: c.kind,
        currency_code: c.currency.toUpperCase(),
        protocol_code: c.kind === 'coin' ? c.protocol!.toUpperCase() : null,
        address: c.kind === 'coin' ? c.address! : null,
        bank_name: c.bank_name ?? null,
        bank_address: c.bank_address ?? null,
        bank_swift: c.bank_swift ?? null,
        payee_name: c.payee_name ?? null,
        payee_account: c.payee_account ?? null,
        enabled: c.enabled ? 1 : 0,
      };
      const id = up.db
        .prepare(
          `INSERT INTO deposit_channels (id, kind, currency_code, protocol_code, address, bank_name, bank_address, bank_swift, payee_name, payee_account, enabled, sort)
           VALUES (@id, @kind, @currency_code, @protocol_code, @address, @bank_name, @bank_address, @bank_swift, @payee_name, @payee_account, @enabled, COALESCE(@id, 1000))
           ON CONFLICT (id) DO UPDATE SET kind = excluded.kind, currency_code = excluded.currency_code, protocol_code = excluded.protocol_code,
             address = excluded.address, bank_name = excluded.bank_name, bank_address = excluded.bank_address, bank_swift = excluded.bank_swift,
             payee_name = excluded.payee_name, payee_account = excluded.payee_account, enabled = excluded.enabled`,
        )
        .run(row).lastInsertRowid;
      return { channel: up.deposits.channels(undefined, true).find((x) => x.id === (c.id ?? Number(id))) };
    });
    admin.post('/admin/currency', async (req, reply) => {
      const body = CurrencyBody.safeParse(req.body);
      if (!body.success) return reply.code(400).send({ error: body.error.message });
      const c = body.data;
      const m = (t: string) => parseUnits(t, MONEY_DECIMALS);
      const [rate, price, min, max] = [m(c.rate), m(c.usd_price), m(c.min), m(c.max)];
      if (rate === null || rate < 0 || !price || !min || min <= 0 || max === null || max < min)
        return reply.code(400).send({ error: 'rate ≥ 0, price > 0, 0 < min ≤ max' });
      const id = up.db
        .prepare(
          `INSERT INTO withdraw_currencies (id, type, code, protocol, fee_type, draw_rate, usd_price, min_amount, max_amount, enabled, sort)
           VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, COALESCE(?, 1000))
           ON CONFLICT (id) DO UPDATE SET type = excluded.type, code = excluded.code, protocol = excluded.protocol, fee_type = excluded.fee_type,
             draw_rate = excluded.draw_rate, usd_price = excluded.usd_price, min_amount = excluded.min_amount, max_amount = excluded.max_amount,
             enabled = excluded.enabled`,
        )
        .run(
          c.id ?? null,
          c.type,
          c.code.toUpperCase(),
          c.protocol.toUpperCase(),
          c.fee_type,
          rate,
          price,
          min,
          max,
          c.enabled ? 1 : 0,
          c.id ?? null,
        ).lastInsertRowid;
      return { currency: up.withdrawals.currencies(undefined, true).find((x) => x.id === (c.id ?? Number(id))) };
    });

    admin.post('/admin/factors/reset', async (req, reply) => {
      const body = FactorsResetBody.safeParse(req.body);
      if (!body.success) return reply.code(400).send({ error: body.error.message });
      const id = userFilter(body.data.user);
      if (id === null || id < 0) return reply.code(404).send({ error: `no user ${body.data.user}` });
      return reviewed(reply, () => up.security.removeFactors(id, body.data.operator, body.data.reason));
    });

    admin.get('/admin/kyc', async () => ({ kyc: up.identity.waiting() }));
    admin.post('/admin/kyc', async (req, reply) => {
      const body = KycBody.safeParse(req.body);
      if (!body.success) return reply.code(400).send({ error: 'user and action approve|reject' });
      const userId = userFilter(body.data.user)!;
      return reviewed(reply, () => ({ kyc: up.identity.review(userId, body.data.action, body.data.reason) }));
    });

    admin.get('/admin/news', async () => ({
      news: up.db
        .prepare(
          `SELECT n.id, n.created_at, n.removed_at, group_concat(t.lang) AS langs, (SELECT title FROM news_texts WHERE news_id = n.id ORDER BY lang = 'en' DESC LIMIT 1) AS title
           FROM news n LEFT JOIN news_texts t ON t.news_id = n.id GROUP BY n.id ORDER BY n.id DESC`,
        )
        .all(),
    }));
    admin.post('/admin/news', async (req, reply) => {
      const body = NewsBody.safeParse(req.body);
      if (!body.success) return reply.code(400).send({ error: body.error.message });
      const n = body.data;
      const id = up.db
        .transaction(() => {
          let newsId = n.id;
          if (newsId === undefined)
            newsId = Number(
              up.db.prepare('INSERT INTO news (category_id, logo, created_at) VALUES (1, ?, ?)').run(n.logo, Date.now()).lastInsertRowid,
            );
          else if (!up.db.prepare('SELECT 1 FROM news WHERE id = ?').get(newsId)) return null;
          up.db
            .prepare(
              `INSERT INTO news_texts (news_id, lang, title, summary, content) VALUES (?, ?, ?, ?, ?)
               ON CONFLICT (news_id, lang) DO UPDATE SET title = excluded.title, summary = excluded.summary, content = excluded.content`,
            )
            .run(newsId, n.lang, n.title, n.summary, n.content);
          return newsId;
        })
        .immediate();
      if (id === null) return reply.code(404).send({ error: `no article ${n.id}` });
      return { id };
    });
    admin.post('/admin/news/remove', async (req, reply) => {
      const id = z.object({ id: z.coerce.number().int().positive() }).safeParse(req.body);
      if (!id.success) return reply.code(400).send({ error: 'id' });
      const changed = up.db
        .prepare('UPDATE news SET removed_at = ? WHERE id = ? AND removed_at IS NULL')
        .run(Date.now(), id.data.id).changes;
      if (changed !== 1) return reply.code(404).send({ error: `no article ${id.data.id}` });
      return { removed: id.data.id };
    });

    admin.get('/admin/captcha/:id', async (req, reply) => {
      if (!up.options.allowPriceInjection) return reply.code(403).send({ error: 'test hooks are off' });
      return { answer: up.captcha.peek((req.params as { id: string }).id) ?? null };
    });

    /** Test and demo hook: move a price now (off unless the upstream was started with it). */
    admin.post('/admin/price', async (req, reply) => {
      if (!up.options.allowPriceInjection) return reply.code(403).send({ error: 'price injection is off' });
      const body = PriceBody.safeParse(req.body);
      if (!body.success) return reply.code(400).send({ error: body.error.message });
      const inst = up.market.getByCode(body.data.code);
      if (!inst) return reply.code(404).send({ error: `no instrument ${body.data.code}` });
      const price = parseUnits(body.data.price, inst.precision);
      if (price === null || price <= 0) return reply.code(400).send({ error: 'bad price' });
      up.market.applyTick(inst.id, price);
      return { code: inst.code, price: price / 10 ** inst.precision };
    });
  });
}
