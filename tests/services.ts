/**
 * Real services for tests that need them (Debian's `redis-server` and `nginx`, which `.ci/run` installs):
 * find the program, find a free port, start it in the foreground, stop it.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';

/** The program's path, looked up in PATH and the sbin folders a non-root PATH may lack; null when absent. */
export function findProgram(name: string): string | null {
  const dirs = [...(process.env.PATH ?? '').split(':'), '/usr/sbin', '/usr/local/sbin', '/sbin'];
  for (const dir of dirs) {
    const file = path.join(dir, name);
    try {
      fs.accessSync(file, fs.constants.X_OK);
      return file;
    } catch {
      // not here
    }
  }
  return null;
}

/** The first port from `from` on that nobody listens on (a range keeps parallel runs on one machine apart). */
export async function freePort(from: number, skip: readonly number[] = []): Promise<number> {
  for (let port = from; port < from + 200; port++) {
    if (skip.includes(port)) continue;
    const free = await new Promise<boolean>((resolve) => {
      const probe = net.createServer();
      probe.once('error', () => resolve(false));
      probe.listen(port, '127.0.0.1', () => probe.close(() => resolve(true)));
    });
    if (free) return port;
  }
  throw new Error(`no free port in ${from}–${from + 199}`);
}

/** A started program: its output so far (for failure messages) and a stop that waits for its exit. */
export interface Service {
  readonly child: ChildProcess;
  output(): string;
  stop(signal?: NodeJS.Signals): Promise<void>;
}

/** Starts `command` and resolves once `ready` matches its output (rejects when it exits or takes too long). */
export function startService(
  command: string,
  args: readonly string[],
  options: { ready: RegExp; env?: NodeJS.ProcessEnv; timeoutMs?: number; name?: string },
): Promise<Service> {
  const child = spawn(command, args, { env: options.env ?? process.env, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const service: Service = {
    child,
    output: () => output,
    async stop(signal = 'SIGTERM') {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      await exited;
    },
  };
  return new Promise((resolve, reject) => {
    const name = options.name ?? path.basename(command);
    const timer = setTimeout(() => {
      void service.stop('SIGKILL');
      reject(new Error(`${name} not ready after ${options.timeoutMs ?? 30_000} ms:\n${output}`));
    }, options.timeoutMs ?? 30_000);
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      if (options.ready.test(output)) {
        clearTimeout(timer);
        resolve(service);
      }
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    child.once('exit', (code, signal) => {
      clearTimeout(timer);
      reject(new Error(`${name} exited (${signal ?? code}) before it was ready:\n${output}`));
    });
  });
}

/** A throwaway redis-server on `port`: no persistence, loopback only. */
export async function startRedis(port: number): Promise<Service & { url: string }> {
  const program = findProgram('redis-server');
  if (!program) throw new Error('redis-server is not installed (apt-get install redis-server)');
  const service = await startService(
    program,
    ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--daemonize', 'no'],
    { ready: /Ready to accept connections/ },
  );
  return Object.assign(service, { url: `redis://127.0.0.1:${port}` });
}
