/**
 * The web server's entry (`npm start` runs its bundle, build/server-bin/index.js). With UPSTREAM_URL unset
 * it starts the bundled upstream in its own process. WEB_CONCURRENCY web processes share PORT (./cluster.ts);
 * with 1, or in development, this one process serves. SIGTERM stops it gracefully: no new connections,
 * streams told to reconnect elsewhere, requests in flight finished, the upstream stopped last, exit 0.
 */
import cluster from 'node:cluster';
import { giveUp, runPrimary, runWorker, stopOnSignal } from './cluster';
import { readConfig, type Config } from './config';
import { startEmbeddedUpstream } from './embedded-upstream';
import { gcFlags } from './gc-flags';
import { startWeb } from './web';

let config: Config;
try {
  config = readConfig();
} catch (error) {
  console.error((error as Error).message);
  process.exit(1);
}
const processes = config.NODE_ENV === 'development' ? 1 : config.WEB_CONCURRENCY;

if (cluster.isWorker) await runWorker(config);
else if (processes > 1) await runPrimary(config, processes);
else {
  const upstream = config.UPSTREAM_URL ? null : await startEmbeddedUpstream({ onGiveUp: giveUp, v8Flags: gcFlags(2) }); // this one and the upstream
  const web = await startWeb({ config, embeddedUrl: upstream?.url ?? null });
  const address = web.server.address();
  const port = typeof address === 'object' && address ? address.port : config.PORT;
  console.log(`Web app ready at http://localhost:${port}${upstream ? ` (embedded upstream at ${upstream.url})` : ''}`);
  stopOnSignal(async () => {
    await web.shutdown();
    await upstream?.stop();
  });
}
