/** First-start data: settings, area codes, the catalogue and its candle history. Safe to run every start. */
import { TradeFeeType, VerifyRegType, ShowMobile } from '../../contract/enums';
import { LOT_DECIMALS, MONEY_DECIMALS, parseUnits } from '../../contract/money';
import { backfill } from '../market/candles';
import { NEWS, seedLeaders } from '../content/catalogue';
import { COIN_CHANNELS, WIRE_CHANNELS, WITHDRAW_CURRENCIES } from '../funds/catalogue';
import { AREA_CODES, CATEGORIES, INSTRUMENTS, SERVICE_PROVIDERS } from '../market/catalogue';
import type { Db } from './database';

export const DEFAULT_SETTINGS: Record<string, string> = {
  verify_reg_type: String(VerifyRegType.Code),
  trade_fee_type: String(TradeFeeType.PerLot),
  is_show_mobile: String(ShowMobile.Hidden),
  service_link: 'https://support.example.com/chat',
  service_link_type: '1',
  contact_email: 'support@example.com',
  company_status: '1',
  demo_balance: '100000',
  /** The anti-loss check: a non-zero status sends browsers to loss_url. */
  loss_status: '0',
  loss_url: '',
};

/** The instrument badges the first seed gave the three providers (see SERVICE_PROVIDERS' marks). */
const FIRST_PROVIDER_LOGOS: Record<number, string> = {
  1: '/static/logos/xauusd.svg',
  2: '/static/logos/eurusd.svg',
  3: '/static/logos/btcusd.svg',
};

function units(text: string, decimals: number): number {
  const u = parseUnits(text, decimals);
  if (u === null) throw new Error(`bad seed number ${text}`);
  return u;
}

export function seed(db: Db, options: { now: number; seed: number; backfill: boolean }): void {
  db.transaction(() => {
    const setting = db.prepare('INSERT OR IGNORE INTO settings (key, value) VALUES (?, ?)');
    for (const [k, v] of Object.entries(DEFAULT_SETTINGS)) setting.run(k, v);

    const area = db.prepare('INSERT OR IGNORE INTO area_codes (id, code, global_code, sort) VALUES (?, ?, ?, ?)');
    AREA_CODES.forEach((a, i) => area.run(i + 1, a.code, a.global, i));

    const company = db.prepare(
      `INSERT OR IGNORE INTO companies (id, name, logo, url, subject, registered_address, location, email, sort)
       VALUES (@id, @name, @logo, @url, @subject, @registered_address, @location, @email, @id)`,
    );
    // Providers were first seeded with instruments' badges as their logos: each gets its own mark.
    const ownMark = db.prepare('UPDATE companies SET logo = ? WHERE id = ? AND logo = ?');
    // Only the logo path is stored; the upstream draws the mark at /static/logos.
    for (const { mark: _mark, ...c } of SERVICE_PROVIDERS) {
      company.run(c);
      const was = FIRST_PROVIDER_LOGOS[c.id];
      if (was) ownMark.run(c.logo, c.id, was);
    }

    const category = db.prepare('INSERT OR IGNORE INTO categories (id, code, always_open, sort) VALUES (?, ?, ?, ?)');
    for (const c of CATEGORIES) category.run(c.id, c.code, c.alwaysOpen ? 1 : 0, c.id);

    const instrument = db.prepare(
      `INSERT OR IGNORE INTO instruments (id, code, show_code, category_id, price_precision, lot_step, min_lots,
         contract_size, fee_rate, margin_mode, leverages, quote_currency, seed_price, annual_volatility_ppm, logo, sort)
       VALUES (@id, @code, @show_code, @category_id, @precision, @lot_step, @min_lots, @contract_size, @fee_rate,
         @margin_mode, @leverages, @quote, @seed_price, @volatility, @logo, @sort)`,
    );
    INSTRUMENTS.forEach((s, i) => {
      instrument.run({
        id: i + 1,
        code: s.code,
        show_code: s.showCode,
        category_id: CATEGORIES.find((c) => c.code === s.category)!.id,
        precision: s.precision,
        lot_step: units(s.lotStep, LOT_DECIMALS),
        min_lots: units(s.minLots, LOT_DECIMALS),
        contract_size: s.contractSize,
        // ForexFeeRate × 1e6: micro-USD per lot, or parts per million of the margin.
        fee_rate: units(s.feeRate, MONEY_DECIMALS),
        margin_mode: s.marginMode,
        leverages: JSON.stringify(s.leverages),
        quote: s.quote,
        seed_price: units(s.price, s.precision),
        volatility: Math.round(s.volatility * 1e6),
        logo: `/static/logos/${s.code.toLowerCase()}.svg`,
        sort: i + 1,
      });
    });

    const channel = db.prepare(
      `INSERT OR IGNORE INTO deposit_channels (id, kind, currency_code, protocol_code, address, bank_name, bank_address,
         bank_swift, payee_name, payee_account, sort)
       VALUES (@id, @kind, @currency, @protocol, @address, @bankName, @bankAddress, @swift, @payeeName, @payeeAccount, @id)`,
    );
    const none = { protocol: null, address: null, bankName: null, bankAddress: null, swift: null, payeeName: null, payeeAccount: null };
    for (const c of COIN_CHANNELS) channel.run({ ...none, ...c, kind: 'coin' });
    for (const c of WIRE_CHANNELS) channel.run({ ...none, ...c, kind: 'wire' });

    const currency = db.prepare(
      `INSERT OR IGNORE INTO withdraw_currencies (id, type, code, protocol, fee_type, draw_rate, usd_price, min_amount, max_amount, sort)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    );
    for (const c of WITHDRAW_CURRENCIES) {
      const m = (t: string) => units(t, MONEY_DECIMALS);
      currency.run(c.id, c.type, c.code, c.protocol, c.feeType, m(c.rate), m(c.usdPrice), m(c.min), m(c.max), c.id);
    }

    // Content is seeded once: the back office may remove or add articles after that.
    if (!db.prepare('SELECT 1 FROM news LIMIT 1').get()) {
      const news = db.prepare('INSERT INTO news (id, category_id, logo, created_at) VALUES (?, 1, ?, ?)');
      const text = db.prepare('INSERT INTO news_texts (news_id, lang, title, summary, content) VALUES (?, ?, ?, ?, ?)');
      for (const n of NEWS) {
        news.run(n.id, n.logo, (options.now - n.daysAgo * 86400 - n.id * 3600) * 1000);
        for (const [lang, t] of Object.entries(n.texts)) text.run(n.id, lang, t!.title, t!.summary, t!.content);
      }
    }
    const leader = db.prepare(
      `INSERT OR IGNORE INTO leaders (id, name, code, multiple, three_week_rate, three_week_win, three_week_profit, total_rate,
         total_trade_num, followers, sort) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    );
    seedLeaders(options.seed).forEach((l, i) =>
      leader.run(
        l.id,
        l.name,
        l.code,
        l.multiple,
        l.threeWeekRate,
        l.threeWeekWin,
        l.threeWeekProfit,
        l.totalRate,
        l.totalTrades,
        l.followers,
        i + 1,
      ),
    );
  })();

  if (!options.backfill) return;
  const rows = db
    .prepare(
      `SELECT i.id, i.seed_price, i.annual_volatility_ppm, c.always_open, m.price FROM instruments i
       JOIN categories c ON c.id = i.category_id LEFT JOIN market_state m ON m.instrument_id = i.id`,
    )
    .all() as { id: number; seed_price: number; annual_volatility_ppm: number; always_open: number; price: number | null }[];
  const hasCandles = db.prepare('SELECT 1 FROM candles WHERE instrument_id = ? LIMIT 1');
  for (const r of rows) {
    if (hasCandles.get(r.id)) continue;
    backfill(db, {
      instrumentId: r.id,
      price: r.price ?? r.seed_price,
      volatility: r.annual_volatility_ppm / 1e6,
      alwaysOpen: r.always_open === 1,
      now: options.now,
      seed: options.seed * 1000 + r.id,
    });
  }
}
