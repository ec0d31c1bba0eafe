/** `npm run bench`: prints the benchmark figures. Benchmarks, not tests: nothing here passes or fails. */
import os from 'node:os';
import { engineBenchmarks } from './engine';
import { streamBenchmarks } from './stream';
import { webBenchmarks } from './web';

console.log(`bench on ${os.cpus().length} × ${os.cpus()[0]?.model ?? 'cpu'}, node ${process.version}`);
for (const line of await engineBenchmarks()) console.log(line);
for (const line of await webBenchmarks()) console.log(line);
for (const line of await streamBenchmarks()) console.log(line);
