/**
 * The web server's entry (`npm start` runs its bundle, build/server-bin/index.js). With UPSTREAM_URL unset
 * it starts the bundled upstream in its own process. WEB_CONCURRENCY web processes share PORT (./cluster.ts);
 * with 1, or in development, this one process serves. SIGTERM stops it gracefully: no new connections,
 * streams told to reconnect elsewhere, requests in flight finished, the upstream stopped last, exit 0.
 */
import cluster from 'node:cluster';
import path from 'node:path';
import { giveUp, runPrimary, runWorker, stopOnSignal } from './cluster';
import { readConfig, type Config } from './config';
import { startEmbeddedUpstream } from './embedded-upstream';
import { gcFlags } from './gc-flags';
import { ensureLanCertificate, lanAddresses, lanHttpsPort, lanLines } from './phone-https';
import { sessionSecretIn } from './session-secret';
import { startWeb } from './web';

let config: Config;
try {
  config = readConfig();
} catch (error) {
  console.error((error as Error).message);
  process.exit(1);
}
// One node without a given secret signs with its own, kept in DATA_DIR (REDIS_URL requires a given one: the app says so).
if (!process.env.SESSION_SECRET && !process.env.REDIS_URL) process.env.SESSION_SECRET = sessionSecretIn(path.resolve(config.DATA_DIR));
const processes = config.NODE_ENV === 'development' ? 1 : config.WEB_CONCURRENCY;
// LAN_HTTPS=on: the certificate is made (or renewed) here, once, before any web process reads it.
if (!cluster.isWorker && lanHttpsPort(config) !== null) await ensureLanCertificate(path.resolve(config.DATA_DIR), lanAddresses());

if (cluster.isWorker) await runWorker(config);
else if (processes > 1) await runPrimary(config, processes);
else {
  const upstream = config.UPSTREAM_URL ? null : await startEmbeddedUpstream({ onGiveUp: giveUp, v8Flags: gcFlags(2) }); // this one and the upstream
  const web = await startWeb({ config, embeddedUrl: upstream?.url ?? null });
  const address = web.server.address();
  const port = typeof address === 'object' && address ? address.port : config.PORT;
  console.log(`Web app ready at http://localhost:${port}${upstream ? ` (embedded upstream at ${upstream.url})` : ''}`);
  const lan = web.lanServer?.address();
  if (lan && typeof lan === 'object') for (const line of lanLines(lan.port, lanAddresses())) console.log(line);
  stopOnSignal(async () => {
    await web.shutdown();
    await upstream?.stop();
  });
}
