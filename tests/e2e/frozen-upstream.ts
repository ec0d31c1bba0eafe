/**
 * A second web server of the built app whose upstream can be frozen. The real upstream cannot be
 * frozen on cue (it runs inside the first server's process), so its traffic passes through a TCP proxy
 * in the test that can stop moving bytes: connections stay open, nothing is answered, and what was sent
 * meanwhile is delivered when it thaws, as a stopped upstream process would do. That proxy is the only
 * fake; the web server, the upstream and the browser are real.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { buildDirectory } from '../../server/build-directory';

export interface FreezableUpstream {
  url: string;
  freeze(): void;
  thaw(): void;
  close(): Promise<void>;
}

export async function startFreezableProxy(target: string): Promise<FreezableUpstream> {
  const to = new URL(target);
  let frozen = false;
  const pipes = new Set<{ flush: () => void; destroy: () => void }>();
  const server = net.createServer((client) => {
    const upstream = net.connect(Number(to.port), to.hostname);
    const held: [net.Socket, Buffer][] = [];
    const forward = (from: net.Socket, into: net.Socket) =>
      from.on('data', (chunk) => (frozen ? held.push([into, chunk]) : into.write(chunk)));
    forward(client, upstream);
    forward(upstream, client);
    const pipe = {
      flush: () => held.splice(0).forEach(([into, chunk]) => into.write(chunk)),
      destroy: () => {
        client.destroy();
        upstream.destroy();
        pipes.delete(pipe);
      },
    };
    pipes.add(pipe);
    for (const s of [client, upstream]) s.on('error', pipe.destroy).on('close', pipe.destroy);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    freeze: () => void (frozen = true),
    thaw: () => {
      frozen = false;
      for (const p of pipes) p.flush();
    },
    close: async () => {
      for (const p of [...pipes]) p.destroy();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

/** The built app on `port`, its upstream at `upstreamUrl`, with a data folder of its own. */
export async function startWebServer(port: number, upstreamUrl: string): Promise<{ url: string; stop: () => Promise<void> }> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'e2e-web-'));
  const entry = path.join(buildDirectory(process.env.BUILD_DIR), 'server-bin', 'index.js');
  const child: ChildProcess = spawn(process.execPath, ['--enable-source-maps', entry], {
    stdio: 'inherit',
    env: { ...process.env, NODE_ENV: 'production', PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dataDir, UPSTREAM_URL: upstreamUrl },
  });
  const url = `http://localhost:${port}`;
  const deadline = Date.now() + 60_000;
  for (;;) {
    const up = await fetch(`${url}/healthz`).then(
      (r) => r.ok,
      () => false,
    );
    if (up) break;
    if (Date.now() > deadline || child.exitCode !== null) throw new Error('the second web server did not start');
    await new Promise((r) => setTimeout(r, 200));
  }
  return {
    url,
    stop: async () => {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
