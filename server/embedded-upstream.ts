/**
 * The embedded upstream (UPSTREAM_URL unset) in its own process, started and stopped with the web server.
 * If it dies it is started again on the same port, so the address every web process already holds stays
 * right; after `maxCrashes` deaths within a minute the caller is told to give up (and exits, for a
 * supervisor to see).
 */
import { fork, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

interface EmbeddedUpstream {
  url: string;
  /** Asks the child to close its server and database, and waits for it (killed after `timeoutMs`). */
  stop(timeoutMs?: number): Promise<void>;
}

const RESTART_DELAY_MS = 1000;

/** The child's entry beside this module: the bundle in build/server-bin, or the TypeScript source through tsx. */
function childEntry(): { file: string; execArgv?: string[] } {
  const here = fileURLToPath(import.meta.url);
  const dir = path.dirname(here);
  return here.endsWith('.js')
    ? { file: path.join(dir, 'upstream-process.js') }
    : { file: path.join(dir, 'upstream-process.ts'), execArgv: ['--import', 'tsx'] };
}

export async function startEmbeddedUpstream(options: {
  onGiveUp: (reason: string) => void;
  maxCrashes?: number;
  /** V8 flags for the upstream's process besides this one's (./gc-flags.ts). */
  v8Flags: string[];
}): Promise<EmbeddedUpstream> {
  const entry = childEntry();
  const { file } = entry;
  const execArgv = [...(entry.execArgv ?? process.execArgv), ...options.v8Flags];
  const maxCrashes = options.maxCrashes ?? 5;
  const crashes: number[] = [];
  let port = 0;
  let stopping = false;
  let child: ChildProcess;

  function spawn(): Promise<string> {
    return new Promise((resolve, reject) => {
      let ready = false;
      child = fork(file, [], { execArgv, env: { ...process.env, EMBEDDED_UPSTREAM_PORT: String(port) } });
      child.on('message', (m: { type?: string; url?: string }) => {
        if (m?.type !== 'upstream-ready' || !m.url) return;
        ready = true;
        port = Number(new URL(m.url).port);
        resolve(m.url);
      });
      child.once('exit', (code, signal) => {
        if (!ready) return reject(new Error(`the embedded upstream exited before it was ready (${signal ?? `code ${code}`})`));
        if (stopping) return;
        const now = Date.now();
        crashes.push(now);
        while (crashes[0]! < now - 60_000) crashes.shift();
        if (crashes.length >= maxCrashes) return options.onGiveUp(`the embedded upstream died ${crashes.length} times within a minute`);
        console.error(`[web] the embedded upstream exited (${signal ?? `code ${code}`}); starting it again on port ${port}`);
        setTimeout(() => {
          if (!stopping) spawn().catch((error: Error) => options.onGiveUp(error.message));
        }, RESTART_DELAY_MS);
      });
    });
  }

  const url = await spawn();
  return {
    url,
    stop(timeoutMs = 10_000) {
      stopping = true;
      const current = child;
      if (current.exitCode !== null || current.signalCode !== null) return Promise.resolve();
      return new Promise((resolve) => {
        const kill = setTimeout(() => current.kill('SIGKILL'), timeoutMs);
        current.once('exit', () => {
          clearTimeout(kill);
          resolve();
        });
        if (current.connected) current.send({ type: 'upstream-stop' });
        else current.kill('SIGTERM');
      });
    },
  };
}
