/**
 * The market: current prices, day statistics, open/closed status (trading hours or an admin's forced
 * switch), candles, and the tick listeners (the trading engine and the websocket hub).
 */
import { quoteToUsd, USD_QUOTED, type InstrumentTerms, type QuoteToUsd } from '../../contract/arithmetic';
import { MarketStatus, type ChartPeriod } from '../../contract/enums';
import { mulDiv, pow10 } from '../../contract/money';
import type { Db } from '../db/database';
import { CandleBook, type Candle } from './candles';
import { isWithinTradingHours, londonDayStart, tradingSessions, type WeeklySession } from './time';

/** A market's hours: the real weekly session, or open around the clock unless forced (tests, demos). */
export type MarketHours = 'real' | 'always';

export interface Instrument {
  id: number;
  code: string;
  showCode: string;
  categoryId: number;
  alwaysOpen: boolean;
  precision: number;
  lotStep: number;
  minLots: number;
  contractSize: number;
  feeRate: number;
  marginMode: number;
  leverages: number[];
  quoteCurrency: string;
  seedPrice: number;
  volatility: number;
  logo: string;
  sort: number;
  /** How far (basis points) a market order's fill may be from the price the trader saw. */
  maxDeviationBp: number;
  terms: InstrumentTerms;
  /** How to turn the quote currency into USD: directly, or through another instrument's price. */
  conversion: { kind: 'usd' | 'multiply' | 'divide'; viaId: number };
}

interface LiveState {
  price: number;
  forcedStatus: 0 | 1 | null;
  dayStart: number;
  dayOpen: number;
  dayHigh: number;
  dayLow: number;
  dayVolume: number;
  updatedAt: number;
}

export interface DayQuote {
  open: number;
  high: number;
  low: number;
  close: number;
  /** Percent since the day's open, 2 decimals. */
  change: number;
  volume: number;
}

export interface TickEvent {
  instrument: Instrument;
  price: number;
  time: number;
  candles: { period: ChartPeriod; candle: Candle }[];
}

export type TickListener = (tick: TickEvent) => void;
export type StatusListener = (instrument: Instrument, status: MarketStatus) => void;

export class Market {
  readonly instruments: Instrument[] = [];
  private readonly byId = new Map<number, Instrument>();
  private readonly byCode = new Map<string, Instrument>();
  private readonly live = new Map<number, LiveState>();
  readonly candles: CandleBook;
  private tickListeners: TickListener[] = [];
  private statusListeners: StatusListener[] = [];
  private lastStatus = new Map<number, MarketStatus>();

  constructor(
    private readonly db: Db,
    private readonly clock: () => number,
    /** 'always': every market keeps crypto's hours (the browser tests, which must not fail on a weekend). */
    private readonly hours: MarketHours = 'real',
  ) {
    this.candles = new CandleBook(db);
    this.reload();
  }

  /** Reads the catalogue and the last known prices from the database. */
  reload(): void {
    const rows = this.db
      .prepare(
        `SELECT i.*, c.always_open, m.price, m.forced_status, m.day_start, m.day_open, m.day_high, m.day_low,
                m.day_volume, m.updated_at
         FROM instruments i JOIN categories c ON c.id = i.category_id
         LEFT JOIN market_state m ON m.instrument_id = i.id ORDER BY i.sort, i.id`,
      )
      .all() as Record<string, number | string | null>[];
    this.instruments.length = 0;
    this.byId.clear();
    this.byCode.clear();
    for (const r of rows) {
      const inst: Instrument = {
        id: r.id as number,
        code: r.code as string,
        showCode: r.show_code as string,
        categoryId: r.category_id as number,
        alwaysOpen: r.always_open === 1,
        precision: r.price_precision as number,
        lotStep: r.lot_step as number,
        minLots: r.min_lots as number,
        contractSize: r.contract_size as number,
        feeRate: r.fee_rate as number,
        marginMode: r.margin_mode as number,
        leverages: JSON.parse(r.leverages as string) as number[],
        quoteCurrency: r.quote_currency as string,
        seedPrice: r.seed_price as number,
        volatility: (r.annual_volatility_ppm as number) / 1e6,
        logo: r.logo as string,
        sort: r.sort as number,
        maxDeviationBp: (r.max_deviation_bp as number | null) ?? defaultDeviationBp(r.category_id as number),
        terms: {
          precision: r.price_precision as number,
          contractSize: r.contract_size as number,
          marginMode: r.margin_mode as number,
          feeRateMicro: r.fee_rate as number,
        },
        conversion: { kind: 'usd', viaId: 0 },
      };
      this.instruments.push(inst);
      this.byId.set(inst.id, inst);
      this.byCode.set(inst.code, inst);
      const now = this.nowSeconds();
      this.candles.load(inst.id);
      const price = (r.price as number | null) ?? inst.seedPrice;
      // Before the first flush, today's backfilled candle gives the day's statistics.
      const today = this.candles.history(inst.id, '1day', 1).find((c) => c.time === londonDayStart(now));
      this.live.set(inst.id, {
        price,
        forcedStatus: (r.forced_status as 0 | 1 | null) ?? null,
        dayStart: (r.day_start as number | null) ?? londonDayStart(now),
        dayOpen: (r.day_open as number | null) ?? today?.open ?? price,
        dayHigh: (r.day_high as number | null) ?? Math.max(today?.high ?? price, price),
        dayLow: (r.day_low as number | null) ?? Math.min(today?.low ?? price, price),
        dayVolume: (r.day_volume as number | null) ?? today?.volume ?? 0,
        updatedAt: (r.updated_at as number | null) ?? now,
      });
    }
    for (const inst of this.instruments) {
      if (inst.quoteCurrency === 'USD') continue;
      const direct = this.byCode.get(`${inst.quoteCurrency}USD`);
      const inverse = this.byCode.get(`USD${inst.quoteCurrency}`);
      if (direct) inst.conversion = { kind: 'multiply', viaId: direct.id };
      else if (inverse) inst.conversion = { kind: 'divide', viaId: inverse.id };
      else throw new Error(`${inst.code}: no instrument converts ${inst.quoteCurrency} to USD`);
    }
    for (const inst of this.instruments) this.lastStatus.set(inst.id, this.status(inst.id));
  }

  nowSeconds(): number {
    return Math.floor(this.clock() / 1000);
  }

  get(id: number): Instrument | undefined {
    return this.byId.get(id);
  }

  getByCode(code: string): Instrument | undefined {
    return this.byCode.get(code.toUpperCase());
  }

  price(id: number): number {
    const s = this.live.get(id);
    if (!s) throw new Error(`unknown instrument ${id}`);
    return s.price;
  }

  /** USD per unit of the instrument's quote currency, at the current price. */
  conversion(inst: Instrument): QuoteToUsd {
    if (inst.conversion.kind === 'usd') return USD_QUOTED;
    const via = this.byId.get(inst.conversion.viaId)!;
    return quoteToUsd(inst.conversion.kind, this.price(via.id), via.precision);
  }

  /** Instruments whose USD value moves when this one's price moves (itself excluded). */
  dependents(id: number): Instrument[] {
    return this.instruments.filter((i) => i.conversion.kind !== 'usd' && i.conversion.viaId === id && i.id !== id);
  }

  status(id: number, at = this.nowSeconds()): MarketStatus {
    const inst = this.byId.get(id);
    const s = this.live.get(id);
    if (!inst || !s) return MarketStatus.Closed;
    if (s.forcedStatus !== null) return s.forcedStatus as MarketStatus;
    return isWithinTradingHours(inst.alwaysOpen || this.hours === 'always', at) ? MarketStatus.Open : MarketStatus.Closed;
  }

  /** The weekly session its status follows (a forced switch aside): what the product call tells traders. */
  sessions(inst: Instrument): readonly WeeklySession[] {
    return tradingSessions(inst.alwaysOpen || this.hours === 'always');
  }

  isOpen(id: number): boolean {
    return this.status(id) === MarketStatus.Open;
  }

  /** Forces a market open (1) or closed (0), or hands it back to its trading hours (null). */
  forceStatus(id: number, status: 0 | 1 | null): void {
    const s = this.live.get(id);
    if (!s) throw new Error(`unknown instrument ${id}`);
    s.forcedStatus = status;
    this.persist(id);
    this.checkStatusChanges();
  }

  /** Sets the leverage values an instrument offers (an empty list: orders cannot be placed). */
  setLeverages(id: number, leverages: number[]): void {
    const inst = this.byId.get(id);
    if (!inst) throw new Error(`unknown instrument ${id}`);
    this.db.prepare('UPDATE instruments SET leverages = ? WHERE id = ?').run(JSON.stringify(leverages), id);
    inst.leverages = [...leverages];
  }

  /** Emits status changes (hours passing or a forced switch) to listeners. */
  checkStatusChanges(): void {
    for (const inst of this.instruments) {
      const now = this.status(inst.id);
      if (this.lastStatus.get(inst.id) !== now) {
        this.lastStatus.set(inst.id, now);
        for (const l of this.statusListeners) l(inst, now);
      }
    }
  }

  dayQuote(id: number): DayQuote {
    const s = this.live.get(id)!;
    this.rollDay(s, this.nowSeconds());
    return {
      open: s.dayOpen,
      high: s.dayHigh,
      low: s.dayLow,
      close: s.price,
      change: s.dayOpen > 0 ? mulDiv([s.price - s.dayOpen, 10000], [s.dayOpen]) / 100 : 0,
      volume: s.dayVolume,
    };
  }

  /** Applies one price tick: day statistics, candles, then the listeners. */
  applyTick(id: number, price: number, volume = 1): void {
    const inst = this.byId.get(id);
    const s = this.live.get(id);
    if (!inst || !s) throw new Error(`unknown instrument ${id}`);
    if (!Number.isSafeInteger(price) || price <= 0) throw new RangeError(`bad price ${price}`);
    const t = this.nowSeconds();
    this.rollDay(s, t);
    s.price = price;
    if (price > s.dayHigh) s.dayHigh = price;
    if (price < s.dayLow) s.dayLow = price;
    s.dayVolume += volume;
    s.updatedAt = t;
    const candles = this.candles.tick(id, price, volume, t);
    const event: TickEvent = { instrument: inst, price, time: t, candles };
    for (const l of this.tickListeners) {
      try {
        l(event);
      } catch (err) {
        // One listener's failure must not stop the market or the other listeners.
        console.error(`tick listener failed on ${inst.code}:`, err);
      }
    }
  }

  onTick(listener: TickListener): () => void {
    this.tickListeners.push(listener);
    return () => (this.tickListeners = this.tickListeners.filter((l) => l !== listener));
  }

  onStatus(listener: StatusListener): () => void {
    this.statusListeners.push(listener);
    return () => (this.statusListeners = this.statusListeners.filter((l) => l !== listener));
  }

  /** Writes prices, day statistics and current candles, so a restart resumes where it stopped. */
  flush(): void {
    this.db.transaction(() => {
      for (const inst of this.instruments) this.persist(inst.id);
    })();
    this.candles.flush();
  }

  private rollDay(s: LiveState, t: number) {
    const dayStart = londonDayStart(t);
    if (dayStart !== s.dayStart) {
      s.dayStart = dayStart;
      s.dayOpen = s.price;
      s.dayHigh = s.price;
      s.dayLow = s.price;
      s.dayVolume = 0;
    }
  }

  private persist(id: number) {
    const s = this.live.get(id)!;
    this.db
      .prepare(
        `INSERT INTO market_state (instrument_id, price, forced_status, day_start, day_open, day_high, day_low, day_volume, updated_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
         ON CONFLICT (instrument_id) DO UPDATE SET price = excluded.price, forced_status = excluded.forced_status,
           day_start = excluded.day_start, day_open = excluded.day_open, day_high = excluded.day_high,
           day_low = excluded.day_low, day_volume = excluded.day_volume, updated_at = excluded.updated_at`,
      )
      .run(id, s.price, s.forcedStatus, s.dayStart, s.dayOpen, s.dayHigh, s.dayLow, s.dayVolume, s.updatedAt);
  }
}

/** A scaled integer price → its JSON number. */
export function priceNumber(inst: Pick<Instrument, 'precision'>, price: number): number {
  return price / pow10(inst.precision);
}

/** Forex moves in small steps, so a smaller tolerance (0.2 %); metals, crypto, indices and energy 1 %. */
function defaultDeviationBp(categoryId: number): number {
  return categoryId === 1 ? 20 : 100;
}
