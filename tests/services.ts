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
  readonly name: string;
  readonly child: ChildProcess;
  output(): string;
  stop(signal?: NodeJS.Signals): Promise<void>;
}

/** Starts `command` and resolves once `ready` matches its output or its port answers (rejects when it exits or takes too long). */
export function startService(
  command: string,
  args: readonly string[],
  options: { ready: RegExp | { port: number }; env?: NodeJS.ProcessEnv; timeoutMs?: number; name?: string },
): Promise<Service> {
  const child = spawn(command, args, { env: options.env ?? process.env, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const name = options.name ?? path.basename(command);
  const service: Service = {
    name,
    child,
    output: () => output,
    async stop(signal = 'SIGTERM') {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      await exited;
    },
  };
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      void service.stop('SIGKILL');
      reject(new Error(`${name} not ready after ${options.timeoutMs ?? 30_000} ms:\n${output}`));
    }, options.timeoutMs ?? 30_000);
    const ready = options.ready;
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      if (ready instanceof RegExp && ready.test(output)) {
        clearTimeout(timer);
        resolve(service);
      }
    };
    if (!(ready instanceof RegExp))
      void (async () => {
        const running = () => child.exitCode === null && child.signalCode === null;
        while (running() && !(await answers(ready.port))) await sleep(50);
        if (!running()) return; // 'exit' has rejected
        clearTimeout(timer);
        resolve(service);
      })();
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    child.once('exit', (code, signal) => {
      clearTimeout(timer);
      reject(new Error(`${name} exited (${signal ?? code}) before it was ready:\n${output}`));
    });
  });
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function answers(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    const done = (ok: boolean) => {
      socket.destroy();
      resolve(ok);
    };
    socket.once('connect', () => done(true));
    socket.once('error', () => done(false));
    socket.setTimeout(500, () => done(false));
  });
}

/**
 * A redis-server on `port`, loopback only: throwaway (no persistence), or with `dir` as the README runs it (its default
 * snapshots, written in `dir` when it stops and read back when it starts again there).
 */
export async function startRedis(port: number, options: { dir?: string } = {}): Promise<Service & { url: string }> {
  const program = findProgram('redis-server');
  if (!program) throw new Error('redis-server is not installed (apt-get install redis-server)');
  const kept = options.dir ? ['--dir', options.dir] : ['--save', '', '--appendonly', 'no'];
  const service = await startService(program, ['--port', String(port), '--bind', '127.0.0.1', ...kept, '--daemonize', 'no'], {
    ready: /Ready to accept connections/,
    name: 'redis',
  });
  return Object.assign(service, { url: `redis://127.0.0.1:${port}` });
}

/**
 * A foreground nginx on `port` running `site` (an http-level file such as deploy/nginx.conf) with its
 * pid, logs, temporary files and cache in `prefix`.
 */
export async function startNginx(prefix: string, site: string, port: number, options: { connections?: number } = {}): Promise<Service> {
  const program = findProgram('nginx');
  if (!program) throw new Error('nginx is not installed (apt-get install nginx)');
  // Run as root, nginx's workers become `nobody`: they must reach the temporary folders under the prefix.
  fs.chmodSync(prefix, 0o755);
  fs.writeFileSync(path.join(prefix, 'site.conf'), site);
  const temp = ['client_body', 'proxy', 'fastcgi', 'uwsgi', 'scgi'].map((t) => `  ${t}_temp_path ${path.join(prefix, t)};`).join('\n');
  const main = `daemon off;
worker_processes 1;
pid ${path.join(prefix, 'nginx.pid')};
error_log stderr warn;
events { worker_connections ${options.connections ?? 512}; }
http {
  access_log ${path.join(prefix, 'access.log')};
${temp}
  include ${path.join(prefix, 'site.conf')};
}
`;
  fs.writeFileSync(path.join(prefix, 'nginx.conf'), main);
  return startService(program, ['-p', prefix, '-c', path.join(prefix, 'nginx.conf'), '-e', 'stderr'], { ready: { port }, name: 'nginx' });
}

/**
 * deploy/nginx.conf itself, with these node ports in its upstream block, listening on `port` on loopback, and its
 * cache folders under `prefix`: what the many-nodes test and the web bench run.
 */
export function nginxSite(nodePorts: readonly number[], port: number, prefix: string): string {
  return fs
    .readFileSync('deploy/nginx.conf', 'utf8')
    .replace(/^(\s*)server \S+:3000 ([^;\n]*);\n(\s*server \S+:3000 [^;\n]*;\n)*/m, (_all, indent: string, params: string) =>
      nodePorts.map((p) => `${indent}server 127.0.0.1:${p} ${params};\n`).join(''),
    )
    .replace(/^(\s*)listen 80;$/m, `$1listen 127.0.0.1:${port};`)
    .replace(/^\s*listen \[::\]:80;\n/m, '')
    .replaceAll('/var/cache/nginx/lotfx', path.join(prefix, 'cache'));
}
