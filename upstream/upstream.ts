/** The upstream's parts wired together: database, market, simulator, engine, accounts. No I/O of its own. */
import os from 'node:os';
import path from 'node:path';
import { CaptchaStore } from './accounts/captcha';
import { Accounts } from './accounts/accounts';
import { Passkeys } from './accounts/passkeys';
import { Security } from './accounts/security';
import { AlertDelivery } from './alerts/delivery';
import { openDatabase, type Db } from './db/database';
import { seed } from './db/seed';
import { Identity } from './content/identity';
import type { SendMail } from './content/mailer';
import { Deposits } from './funds/deposits';
import { translateWith } from './http/i18n';
import { Uploads } from './funds/uploads';
import { Withdrawals } from './funds/withdrawals';
import { Market, type MarketHours } from './market/market';
import { Simulator } from './market/simulator';
import { TradingEngine } from './trading/engine';
import { DEFAULT_PUSH_SERVICE_HOSTS, WebPush } from './push/web-push';

export interface UpstreamOptions {
  /** SQLite file; ':memory:' for a throwaway. */
  dbFile: string;
  /** Simulator seed: the same seed gives the same ticks and the same backfilled history. */
  seed: number;
  /** Run the market simulator (tests that inject prices turn it off). */
  simulate: boolean;
  tickIntervalMs: number;
  /** Backfill candle history on a fresh database. */
  backfill: boolean;
  /** Allow the admin API to set prices (tests and demos only). */
  allowPriceInjection: boolean;
  /** Check every response against the contract before sending it (tests). */
  validateResponses: boolean;
  clock: () => number;
  /** 'always': forex, metals, indices and energy trade around the clock too (unless forced closed). */
  marketHours?: MarketHours;
  log: (line: string) => void;
  /** Where uploaded images are kept (default: `uploads/` beside the database). */
  uploadsDir?: string;
  /** Sends e-mails (verification codes, price alerts) besides the outbox. */
  mail?: SendMail;
  /** Push services a phone's subscription may name (default: the browsers' own services). */
  pushServiceHosts?: readonly string[];
  /** The contact push services see (a mailto: or https: URL). */
  pushSubject?: string;
  /** How long a newly bound withdrawal method waits before a withdrawal may use it (default 24 hours). */
  withdrawMethodHoldMs?: number;
}

export class Upstream {
  readonly db: Db;
  readonly market: Market;
  readonly simulator: Simulator;
  readonly engine: TradingEngine;
  readonly captcha: CaptchaStore;
  readonly accounts: Accounts;
  readonly security: Security;
  readonly passkeys: Passkeys;
  readonly uploads: Uploads;
  readonly deposits: Deposits;
  readonly withdrawals: Withdrawals;
  readonly identity: Identity;
  readonly push: WebPush;
  /** Price alerts that fire: to the user's sockets, mailbox and phones (see deliverAlert). */
  readonly alertDelivery: AlertDelivery;
  private flushTimer: NodeJS.Timeout | null = null;

  constructor(readonly options: UpstreamOptions) {
    this.db = openDatabase(options.dbFile);
    this.settingQuery = this.db.prepare('SELECT value FROM settings WHERE key = ?');
    seed(this.db, { now: Math.floor(options.clock() / 1000), seed: options.seed, backfill: options.backfill });
    this.market = new Market(this.db, options.clock, options.marketHours);
    this.simulator = new Simulator(this.market, { seed: options.seed, intervalMs: options.tickIntervalMs, tickChance: 0.75 });
    this.engine = new TradingEngine(this.db, this.market, {
      tradeFeeType: () => Number(this.setting('trade_fee_type')),
      clock: options.clock,
    });
    this.captcha = new CaptchaStore(options.clock);
    this.accounts = new Accounts(this.db, this.engine.ledger, this.captcha, {
      clock: options.clock,
      setting: (k) => this.setting(k),
      log: options.log,
      text: translateWith,
      mail: options.mail,
    });
    this.security = new Security(this.db, this.accounts, { clock: options.clock, log: options.log, text: translateWith });
    this.passkeys = new Passkeys(this.db, this.accounts, this.security, options.clock);
    const uploadsDir =
      options.uploadsDir ??
      (options.dbFile === ':memory:' ? path.join(os.tmpdir(), 'upstream-uploads') : path.join(path.dirname(options.dbFile), 'uploads'));
    this.uploads = new Uploads(this.db, uploadsDir, options.clock);
    this.deposits = new Deposits(this.db, this.engine, this.uploads, options.clock);
    this.withdrawals = new Withdrawals(this.db, this.engine, options.clock, options.withdrawMethodHoldMs ?? 24 * 3600 * 1000);
    this.identity = new Identity(this.db, this.uploads, options.clock);
    this.push = new WebPush(this.db, {
      // The VAPID key pair lives beside the database, made at first start.
      keyFile:
        options.dbFile === ':memory:'
          ? path.join(os.tmpdir(), 'upstream-vapid.json')
          : path.join(path.dirname(options.dbFile), 'vapid.json'),
      serviceHosts: options.pushServiceHosts ?? DEFAULT_PUSH_SERVICE_HOSTS,
      subject: options.pushSubject ?? 'mailto:no-reply@localhost',
      clock: options.clock,
      log: options.log,
    });
    this.alertDelivery = new AlertDelivery(this.db, this.market, {
      clock: options.clock,
      log: options.log,
      mail: options.mail,
      text: translateWith,
      push: (userId, payload) => this.push.send(userId, payload),
    });
    this.engine.onAlert((alert) => this.alertDelivery.deliverAlert(alert.user_id, alert));
  }

  start(): void {
    if (this.options.simulate) this.simulator.start();
    this.flushTimer = setInterval(() => this.market.flush(), 10_000);
    this.flushTimer.unref();
  }

  stop(): void {
    this.simulator.stop();
    if (this.flushTimer) clearInterval(this.flushTimer);
    this.market.flush();
    // Orders waiting for their group commit are written (and answered) before the database closes.
    this.engine.flushOrders();
    this.db.close();
  }

  private readonly settingQuery;

  setting(key: string): string {
    const row = this.settingQuery.get(key) as { value: string } | undefined;
    return row?.value ?? '';
  }

  setSetting(key: string, value: string): void {
    this.db
      .prepare('INSERT INTO settings (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value')
      .run(key, value);
  }
}
