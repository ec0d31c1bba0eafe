/**
 * `npm run bench`: prints the benchmark figures. Benchmarks, not tests: nothing here passes or fails.
 * `npm run bench -- --only=phone` (or any of engine,web,stream,fanout,orders,phone, comma-separated) runs only those parts.
 * The phone part (lighthouse.ts) takes BENCH_LIGHTHOUSE_RUNS (runs per page and phone, 5), BENCH_TAP_RUNS (page loads
 * per page whose taps are timed, 5) and BENCH_PHONE_ONLY (pages, or inp: the taps only, tick: a round of prices' cost
 * on /trade with and without indicators, link, steady).
 */
import os from 'node:os';
import { engineBenchmarks } from './engine';
import { fanoutBenchmarks } from './fanout';
import { phoneBenchmarks } from './lighthouse';
import { ordersBenchmarks } from './orders';
import { streamBenchmarks } from './stream';
import { webBenchmarks } from './web';

const parts = {
  engine: engineBenchmarks,
  web: webBenchmarks,
  stream: streamBenchmarks,
  fanout: () => fanoutBenchmarks(),
  orders: () => ordersBenchmarks(),
  phone: phoneBenchmarks,
};
const only = process.argv
  .find((a) => a.startsWith('--only='))
  ?.slice('--only='.length)
  .split(',');
const unknown = only?.filter((p) => !(p in parts));
if (unknown?.length) throw new Error(`unknown bench part ${unknown.join(', ')}: use ${Object.keys(parts).join(', ')}`);

console.log(`bench on ${os.cpus().length} × ${os.cpus()[0]?.model ?? 'cpu'}, node ${process.version}`);
for (const [name, run] of Object.entries(parts)) {
  if (only && !only.includes(name)) continue;
  for (const line of await run()) console.log(line);
}
