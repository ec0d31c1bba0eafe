/**
 * A micro-measure, not a test: the time of one tick of the last candle through every indicator's tracker (issue
 * 40 asks ≤ 1 ms of main thread at the low-tier phone's rate, about 8–15× slower than this box).
 * Run: npx tsx bench/indicator-tick.ts
 */
import type { Candle } from '../app/components/candle-chart/candles';
import { BOLL, type Indicator, KDJ, MACD_DEFAULT, RSI_DEFAULT } from '../app/components/candle-chart/indicator-kinds';
import { trackIndicator } from '../app/components/candle-chart/indicators';

const HISTORY = 1000;
const TICKS = 200_000;

function candles(): Candle[] {
  let price = 1.1;
  return Array.from({ length: HISTORY }, (_, i) => {
    const open = price;
    price += Math.sin(i * 0.37) * 0.001;
    return { time: i * 60, open, high: Math.max(open, price) + 0.0004, low: Math.min(open, price) - 0.0004, close: price };
  });
}

function measure(name: string, chosen: readonly Indicator[]): void {
  const history = candles();
  const trackers = chosen.map(trackIndicator);
  for (const c of history) for (const t of trackers) t.push(c);
  const last = history[history.length - 1]!;
  const run = (count: number) => {
    const start = performance.now();
    for (let i = 0; i < count; i++) {
      const close = last.close + (i % 17) * 0.00001;
      const tick = { ...last, close, high: Math.max(last.high, close) };
      for (const t of trackers) t.push(tick);
    }
    return (performance.now() - start) / count;
  };
  run(TICKS / 10); // warm up the JIT
  const rounds = Array.from({ length: 5 }, () => run(TICKS / 5)).sort((a, b) => a - b);
  const median = rounds[2]! * 1000;
  console.log(`${name}: ${median.toFixed(2)} µs per tick (×15 for a low-tier phone: ${((median * 15) / 1000).toFixed(3)} ms)`);
}

const six: Indicator[] = [{ kind: 'ma', period: 20 }, { kind: 'ema', period: 20 }, BOLL, MACD_DEFAULT, RSI_DEFAULT, KDJ];
const averages = [5, 10, 20].flatMap((period): Indicator[] => [
  { kind: 'ma', period },
  { kind: 'ema', period },
]);
measure('all six (one MA, one EMA)', six);
measure('all six with three MA and three EMA lines', [...averages, BOLL, MACD_DEFAULT, RSI_DEFAULT, KDJ]);
