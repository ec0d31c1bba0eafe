import os from 'node:os';

/**
 * V8 flags for the Node processes this server starts: its web workers and the embedded upstream
 * (docs/decisions/0032). When there are at least as many of them as cores (the default: a web worker per core,
 * plus the upstream), each core already has a busy process, and V8's garbage-collection helper threads have no
 * idle core to run on. A pause then waits for helpers the scheduler put behind another process: on this 2-core
 * machine, 20–60 ms stalls of one worker at 200 orders/s. One thread per collection is as fast there, and its
 * pauses do not stretch.
 */
export function gcFlags(processes: number, cores = os.availableParallelism()): string[] {
  return processes >= cores ? ['--single-threaded-gc'] : [];
}
