/** `npm run upstream`: the reference upstream alone on UPSTREAM_PORT (default 4000). */
import { readUpstreamConfig, type UpstreamConfig } from './config';
import { start } from './index';

let config: UpstreamConfig;
try {
  config = readUpstreamConfig();
} catch (error) {
  console.error((error as Error).message);
  process.exit(1);
}

const running = await start({ port: config.UPSTREAM_PORT, host: config.UPSTREAM_HOST });
console.log(`Upstream listening on ${running.url} (websocket ${running.url.replace('http', 'ws')}/v1/ws)`);
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    void running.close().then(() => process.exit(0));
  });
}
