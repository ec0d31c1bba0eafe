/**
 * The embedded upstream's own process (forked by ./embedded-upstream.ts): a login's password hash or a burst
 * of orders runs on this event loop, never on the web's. It reports its address over IPC and stops when
 * told to, or when its parent goes away (no orphan holding the database).
 */
import { start } from '../upstream/index';

const port = Number(process.env.EMBEDDED_UPSTREAM_PORT ?? 0);
const running = await start({ port });
process.send?.({ type: 'upstream-ready', url: running.url });

let stopping = false;
function stop() {
  if (stopping) return;
  stopping = true;
  void running.close().finally(() => process.exit(0));
}
process.on('message', (m: { type?: string }) => m?.type === 'upstream-stop' && stop());
process.on('disconnect', stop);
// A terminal's Ctrl-C or a service manager signals the whole process group: the parent stops this process
// last, after the web processes have finished their requests.
process.on('SIGINT', () => {});
process.on('SIGTERM', () => {});
