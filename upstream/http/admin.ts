/**
 * The back office the spec leaves out, as a loopback HTTP API for `npm run admin` and for tests. Every
 * call needs the admin key kept in the data folder.
 */
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { MONEY_DECIMALS, parseUnits } from '../../contract/money';
import { safeEqual } from '../accounts/secrets';
import type { Upstream } from '../upstream';

const MarketBody = z.object({ code: z.string().min(1), status: z.enum(['open', 'closed', 'auto']) });
const BalanceBody = z.object({ user: z.string().min(1), amount: z.string().min(1), memo: z.string().min(1) });
const PriceBody = z.object({ code: z.string().min(1), price: z.string().min(1) });
const LeverageBody = z.object({ code: z.string().min(1), values: z.array(z.number().int().positive().max(1000)).max(20) });
const SettingBody = z.object({ key: z.string().min(1), value: z.string() });

export function registerAdmin(app: FastifyInstance, up: Upstream, adminKey: string): void {
  app.register(async (admin) => {
    admin.addHook('onRequest', async (req, reply) => {
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
      const targets = body.data.code.toLowerCase() === 'all' ? up.market.instruments : [up.market.getByCode(body.data.code)].filter((i) => i !== undefined);
      if (targets.length === 0) return reply.code(404).send({ error: `no instrument ${body.data.code}` });
      for (const inst of targets) up.market.forceStatus(inst.id, status);
      return { changed: targets.map((i) => ({ code: i.code, status: up.market.status(i.id) })) };
    });

    admin.post('/admin/balance', async (req, reply) => {
      const body = BalanceBody.safeParse(req.body);
      if (!body.success) return reply.code(400).send({ error: body.error.message });
      const amount = parseUnits(body.data.amount.replace(/^\+/, ''), MONEY_DECIMALS);
      if (amount === null || amount === 0) return reply.code(400).send({ error: 'amount must be a non-zero decimal' });
      const user = up.db.prepare('SELECT id FROM users WHERE uid = ? OR email = ? COLLATE NOCASE OR CAST(id AS TEXT) = ?').get(body.data.user, body.data.user, body.data.user) as
        | { id: number }
        | undefined;
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
