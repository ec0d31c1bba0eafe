/**
 * `/v1/ws` (upstream.md "Realtime"): text ping/pong; login, logout, sub and unsub; pushes of DAY_MARKET,
 * KLINE.<code>, and for a logged-in socket FOREX_TRADE (once a second), FOREX_CLOSED and ALERT (price alerts).
 */
import type { WebSocket } from 'ws';
import { equityMicro, freeMarginMicro, riskRateBasisPoints } from '../../contract/arithmetic';
import { TOKEN_INVALID, SUCCESS } from '../../contract/envelope';
import type { MarketStatus } from '../../contract/enums';
import {
  ClientMessageSchema,
  PING,
  PONG,
  PRIVATE_TOPICS,
  Topic,
  type DayMarketPush,
  type ForexTradePush,
  type KlinePush,
} from '../../contract/ws';
import { sha256 } from '../accounts/secrets';
import { moneyNumber } from '../http/views';
import { priceNumber, type Instrument, type TickEvent } from '../market/market';
import type { Upstream } from '../upstream';

/** A socket whose send buffer holds more than this skips market pushes until it drains. */
const MAX_BUFFERED_BYTES = 1 << 20;

interface Client {
  socket: WebSocket;
  userId: number | null;
  /** The hash of the token the socket logged in with: a revoked token ends its private feed. */
  tokenHash: string | null;
  topics: Set<string>;
}

export class RealtimeHub {
  private readonly clients = new Set<Client>();
  private readonly subscribers = new Map<string, Set<Client>>();
  private tradeTimer: NodeJS.Timeout | null = null;
  private readonly unsubscribe: (() => void)[] = [];

  constructor(private readonly up: Upstream) {
    this.unsubscribe.push(up.market.onTick((e) => this.onTick(e)));
    this.unsubscribe.push(up.market.onStatus((inst) => this.publishDayMarket(inst)));
    this.unsubscribe.push(
      up.engine.onClosed((e) => {
        // Every close, the user's own included: the same account may be open on another device.
        this.toUser(e.userId, Topic.ForexClosed, JSON.stringify({ type: Topic.ForexClosed, id: e.orderIds }));
      }),
    );
    this.unsubscribe.push(
      up.alertDelivery.onAlert((userId, alert) => this.toUser(userId, Topic.Alert, JSON.stringify({ type: Topic.Alert, alert }))),
    );
    this.unsubscribe.push(up.accounts.onRevoke((hashes) => this.revoked(new Set(hashes))));
    this.tradeTimer = setInterval(() => this.publishTrade(), 1000);
    this.tradeTimer.unref();
  }

  get size(): number {
    return this.clients.size;
  }

  attach(socket: WebSocket): void {
    const client: Client = { socket, userId: null, tokenHash: null, topics: new Set() };
    this.clients.add(client);
    socket.on('message', (data, isBinary) => {
      if (isBinary) return;
      const text = data.toString();
      if (text === PING) return socket.send(PONG);
      this.onMessage(client, text);
    });
    socket.on('close', () => this.detach(client));
    socket.on('error', () => this.detach(client));
  }

  close(): void {
    if (this.tradeTimer) clearInterval(this.tradeTimer);
    for (const u of this.unsubscribe) u();
    for (const c of this.clients) c.socket.terminate();
    this.clients.clear();
    this.subscribers.clear();
  }

  private detach(client: Client) {
    if (!this.clients.delete(client)) return;
    for (const t of client.topics) this.subscribers.get(t)?.delete(client);
  }

  private onMessage(client: Client, text: string) {
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      return;
    }
    const parsed = ClientMessageSchema.safeParse(json);
    if (!parsed.success) return;
    const msg = parsed.data;
    switch (msg.type) {
      case 'login': {
        const user = this.up.accounts.authenticate(msg.params);
        client.userId = user?.id ?? null;
        client.tokenHash = user ? sha256(msg.params) : null;
        if (!user) this.dropPrivate(client);
        return this.send(client, { type: 'login_result', code: user ? SUCCESS : TOKEN_INVALID });
      }
      case 'logout':
        client.userId = null;
        client.tokenHash = null;
        this.dropPrivate(client);
        return;
      case 'sub': {
        const refused = msg.params.filter((t) => PRIVATE_TOPICS.includes(t) && client.userId === null);
        const accepted = msg.params.filter((t) => !refused.includes(t));
        for (const t of accepted) {
          client.topics.add(t);
          let set = this.subscribers.get(t);
          if (!set) this.subscribers.set(t, (set = new Set()));
          set.add(client);
        }
        this.send(client, { type: 'sub_result', code: refused.length ? TOKEN_INVALID : SUCCESS, topics: accepted });
        // A new subscriber gets the current day market at once instead of waiting for the next tick.
        if (accepted.includes(Topic.DayMarket))
          for (const inst of this.up.market.instruments) this.sendRaw(client, JSON.stringify(this.dayMarket(inst)));
        return;
      }
      case 'unsub':
        for (const t of msg.params) {
          client.topics.delete(t);
          this.subscribers.get(t)?.delete(client);
        }
        return this.send(client, { type: 'unsub_result', code: SUCCESS, topics: msg.params });
    }
  }

  /**
   * Tokens just revoked (logout elsewhere, "sign out" of a device, a password change, the authenticator turned on):
   * their sockets lose the private topics at once and are told as a refused login (`login_result` 999), which the
   * web's relay reads as its user socket's token no longer working.
   */
  private revoked(hashes: Set<string>) {
    for (const c of this.clients) {
      if (c.tokenHash === null || !hashes.has(c.tokenHash)) continue;
      c.userId = null;
      c.tokenHash = null;
      this.dropPrivate(c);
      this.send(c, { type: 'login_result', code: TOKEN_INVALID });
    }
  }

  private dropPrivate(client: Client) {
    for (const t of PRIVATE_TOPICS) {
      client.topics.delete(t);
      this.subscribers.get(t)?.delete(client);
    }
  }

  private onTick(e: TickEvent) {
    this.publishDayMarket(e.instrument);
    const subs = this.subscribers.get(Topic.kline(e.instrument.code));
    if (!subs || subs.size === 0) return;
    for (const { period, candle } of e.candles) {
      const p = (v: number) => priceNumber(e.instrument, v);
      const push: KlinePush = {
        type: 'KLINE',
        symbol: e.instrument.code,
        forex_id: e.instrument.id,
        kline: {
          Time: candle.time,
          Open: p(candle.open),
          High: p(candle.high),
          Low: p(candle.low),
          Close: p(candle.close),
          Volume: candle.volume,
          Period: period,
        },
      };
      const text = JSON.stringify(push);
      for (const c of subs) this.sendRaw(c, text);
    }
  }

  private dayMarket(inst: Instrument): DayMarketPush {
    const q = this.up.market.dayQuote(inst.id);
    const p = (v: number) => priceNumber(inst, v);
    return {
      type: 'DAY_MARKET',
      symbol: inst.code,
      forex_id: inst.id,
      market_status: this.up.market.status(inst.id) as MarketStatus,
      quotation: { close: p(q.close), change: q.change, high: p(q.high), low: p(q.low), open: p(q.open), volume: q.volume },
    };
  }

  private publishDayMarket(inst: Instrument) {
    const subs = this.subscribers.get(Topic.DayMarket);
    if (!subs || subs.size === 0) return;
    const text = JSON.stringify(this.dayMarket(inst));
    for (const c of subs) this.sendRaw(c, text);
  }

  private publishTrade() {
    const subs = this.subscribers.get(Topic.ForexTrade);
    if (!subs || subs.size === 0) return;
    const byUser = new Map<number, string>();
    for (const c of subs) {
      if (c.userId === null) continue;
      let text = byUser.get(c.userId);
      if (!text) {
        text = JSON.stringify(this.tradePush(c.userId));
        byUser.set(c.userId, text);
      }
      this.sendRaw(c, text);
    }
  }

  private tradePush(userId: number): ForexTradePush {
    const f = this.up.engine.figures(userId);
    const risk = riskRateBasisPoints(f);
    return {
      type: 'FOREX_TRADE',
      HazardRate: risk === null ? null : risk / 100,
      CautionMoneyAll: moneyNumber(f.lockBalance),
      ProfitsTotal: moneyNumber(f.floatingProfit),
      OriginCautionMoneyTotal: moneyNumber(equityMicro(f)),
      Balance: moneyNumber(f.balance),
      FreeMargin: moneyNumber(freeMarginMicro(f)),
      TransOrder: this.up.engine
        .holdingOf(userId)
        .map((o) => ({ Id: o.id, FactProfits: moneyNumber(o.profit), UpdatePrice: priceNumber(o.instrument, o.mark) })),
    };
  }

  private toUser(userId: number, topic: string, text: string) {
    for (const c of this.subscribers.get(topic) ?? []) if (c.userId === userId) this.sendRaw(c, text, true);
  }

  private send(client: Client, msg: object) {
    this.sendRaw(client, JSON.stringify(msg), true);
  }

  private sendRaw(client: Client, text: string, mustDeliver = false) {
    if (client.socket.readyState !== client.socket.OPEN) return;
    if (!mustDeliver && client.socket.bufferedAmount > MAX_BUFFERED_BYTES) return;
    client.socket.send(text);
  }
}
