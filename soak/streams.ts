/** The soak's side of the stream clients (soak/stream-clients.ts in a child process): start, churn, ask, stop. */
import { spawn } from 'node:child_process';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export interface StreamReport {
  /** Open streams of the steady clients (slow readers apart). */
  held: number;
  slowHeld: number;
  /** Of the held, those that read a quote since the time asked about. */
  quotedSince: number;
  /** Steady streams the server ended since that time, and for each of them open again, ms from its loss to its reopening. */
  lostSince: number;
  backSince: number[];
  opened: number;
  endedByServer: number;
  churned: number;
  errors: number;
}

export function startStreamClients(port: number, held: number, slow: number) {
  const script = path.join(path.dirname(fileURLToPath(import.meta.url)), 'stream-clients.ts');
  const child = spawn(process.execPath, ['--import', 'tsx', script, String(port), String(held), String(slow)], {
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  // The load generator shares the machine: it takes the CPU the system under test leaves.
  if (child.pid) os.setPriority(child.pid, 10);
  let asked = 0;
  return {
    pid: child.pid!,
    churn: (n: number) => child.send({ type: 'churn', n }),
    report(since = 0): Promise<StreamReport> {
      // Each question has its number: two asked at once (a minute's check, a fault's watch) get their own answers.
      const id = ++asked;
      return new Promise((resolve, reject) => {
        const onMessage = (m: StreamReport & { type: string; id?: number }) => {
          if (m.type !== 'report' || m.id !== id) return;
          clearTimeout(timer);
          child.off('message', onMessage);
          resolve(m);
        };
        const timer = setTimeout(() => {
          child.off('message', onMessage);
          reject(new Error('stream clients did not report'));
        }, 10_000);
        child.on('message', onMessage);
        child.send({ type: 'report', since, id });
      });
    },
    async stop() {
      if (child.exitCode !== null) return;
      const exited = new Promise((r) => child.once('exit', r));
      child.send({ type: 'stop' });
      await exited;
    },
  };
}
export type StreamClients = ReturnType<typeof startStreamClients>;
