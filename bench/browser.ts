/**
 * Debian's Chromium for the phone benchmarks, started by hand (not by Playwright) with a debugging port that
 * Lighthouse, Playwright (connectOverCDP, for the sign-in) and a bare CDP client all share, so one cookie jar
 * serves them all. Playwright is disconnected before anything is measured: while it is attached every page
 * counts as shown (its focus emulation keeps pages visible), which would hide what a background tab does.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import WebSocket from 'ws';
import { CHROMIUM, CHROMIUM_FLAGS } from '../tests/chromium';

export async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

export async function launchChromium() {
  const port = await freePort();
  const profile = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-chromium-'));
  const child = spawn(
    CHROMIUM,
    [`--remote-debugging-port=${port}`, `--user-data-dir=${profile}`, ...CHROMIUM_FLAGS, '--headless=new', 'about:blank'],
    { stdio: ['ignore', 'ignore', 'pipe'] },
  );
  await new Promise<void>((resolve, reject) => {
    child.stderr!.on('data', (b: Buffer) => b.toString().includes('DevTools listening') && resolve());
    child.once('exit', (code) => reject(new Error(`chromium exited ${code}`)));
    // Not installed: say so instead of waiting forever for a port that never opens.
    child.once('error', (error) => reject(new Error(`chromium (${CHROMIUM}) did not start: ${error.message}`)));
  });
  return {
    port,
    async stop() {
      child.kill('SIGTERM');
      await new Promise((r) => child.once('exit', r));
      // Chromium's helper processes may still be writing its profile: retry, and never lose the figures over it.
      try {
        fs.rmSync(profile, { recursive: true, force: true, maxRetries: 5, retryDelay: 200 });
      } catch (error) {
        console.error(`chromium profile ${profile} not removed: ${(error as Error).message}`);
      }
    },
  };
}

type Params = Record<string, unknown>;
interface Message {
  id?: number;
  method?: string;
  params?: Params;
  sessionId?: string;
  result?: Params;
  error?: { message: string };
}

/** A bare Chrome DevTools Protocol client on the browser's endpoint; page commands take a flat session id. */
export async function connectCdp(port: number) {
  const { webSocketDebuggerUrl } = (await (await fetch(`http://127.0.0.1:${port}/json/version`)).json()) as {
    webSocketDebuggerUrl: string;
  };
  const ws = new WebSocket(webSocketDebuggerUrl, { perMessageDeflate: false, maxPayload: 1 << 30 });
  await new Promise((resolve, reject) => ws.once('open', resolve).once('error', reject));
  let lastId = 0;
  const waiting = new Map<number, { resolve: (r: Params) => void; reject: (e: Error) => void; method: string }>();
  const listeners = new Set<(m: Message) => void>();
  ws.on('message', (data: Buffer) => {
    const m = JSON.parse(data.toString()) as Message;
    const w = m.id === undefined ? undefined : waiting.get(m.id);
    if (w) {
      waiting.delete(m.id!);
      if (m.error) w.reject(new Error(`${w.method}: ${m.error.message}`));
      else w.resolve(m.result ?? {});
    } else if (m.method) for (const l of listeners) l(m);
  });
  return {
    // eslint-disable-next-line @typescript-eslint/no-explicit-any -- protocol results are read by the caller
    send(method: string, params: Params = {}, sessionId?: string): Promise<any> {
      const id = ++lastId;
      ws.send(JSON.stringify({ id, method, params, sessionId }));
      return new Promise((resolve, reject) => waiting.set(id, { resolve, reject, method }));
    },
    /** Calls back on every event of this name (of this session, if given) until the returned function is called. */
    on(method: string, callback: (params: Params) => void, sessionId?: string) {
      const l = (m: Message) => m.method === method && (sessionId === undefined || m.sessionId === sessionId) && callback(m.params ?? {});
      listeners.add(l);
      return () => listeners.delete(l);
    },
    close() {
      ws.close();
    },
  };
}
export type Cdp = Awaited<ReturnType<typeof connectCdp>>;
