/**
 * The web server: static files, security headers with a CSP nonce per request, a cross-site refusal for
 * every state-changing request, the Remix handler, the live stream and `/healthz`. Starts the bundled
 * upstream in-process when UPSTREAM_URL is unset.
 */
import { createRequestHandler } from '@remix-run/express';
import type { ServerBuild } from '@remix-run/node';
import compression from 'compression';
import express from 'express';
import path from 'node:path';
import { start as startUpstream } from '../upstream/index';
import { buildDirectory } from './build-directory';
import { createRelay } from './relay/hub';
import { readConfig, upstreamForHost } from './config';
import { desktopSiteUrl, refuseCrossSite, refuseMalformed, securityHeaders } from './security';

const config = readConfig();
const dev = config.NODE_ENV === 'development';

const embedded = config.UPSTREAM_URL ? null : await startUpstream({ dataDir: config.DATA_DIR, port: 0 });
/** The upstream this request's page host uses (refused earlier when UPSTREAM_URL=auto and the host is not allowed). */
const upstreamUrl = (req: express.Request): string =>
  embedded
    ? embedded.url
    : config.UPSTREAM_URL === 'auto'
      ? upstreamForHost(req.get('host') ?? '', `${req.protocol}:`, config.ALLOWED_HOSTS ?? [])!
      : config.UPSTREAM_URL!;

const viteDevServer = dev ? await import('vite').then((vite) => vite.createServer({ server: { middlewareMode: true } })) : undefined;

const app = express();
app.disable('x-powered-by');
// A reverse proxy on this host may name the user's address; nobody else may.
app.set('trust proxy', 'loopback');
app.use(securityHeaders(dev));
app.use(refuseMalformed());
if (config.UPSTREAM_URL === 'auto') {
  // Only the broker's own page hosts: any other Host would choose where users' tokens are sent.
  app.use((req, res, next) => {
    if (upstreamForHost(req.get('host') ?? '', `${req.protocol}:`, config.ALLOWED_HOSTS ?? [])) return next();
    res.status(421).type('text/plain').send('This site is not served here.\n');
  });
}

// One relay per upstream: the configured or embedded one, or with UPSTREAM_URL=auto one per allowed host's
// api.<domain>, made when its first stream opens.
const relays = new Map<string, ReturnType<typeof createRelay>>();
function relayFor(upstream: string) {
  let relay = relays.get(upstream);
  if (!relay) relays.set(upstream, (relay = createRelay({ upstreamUrl: upstream })));
  return relay;
}
if (config.UPSTREAM_URL !== 'auto') relayFor(embedded?.url ?? config.UPSTREAM_URL!);

app.get('/healthz', (_req, res) => {
  const all = [...relays.values()].map((r) => r.stats());
  res.json({
    ok: true,
    upstream: embedded ? 'embedded' : 'remote',
    feed: all.length === 1 ? all[0]!.upstream : all.map((s) => s.upstream),
    subscribers: all.reduce((n, s) => n + s.clients, 0),
    users: all.reduce((n, s) => n + s.users, 0),
  });
});

if (config.DESKTOP_SITE === 'on') {
  app.use((req, res, next) => {
    const target = req.method === 'GET' ? desktopSiteUrl(req.get('user-agent'), req.get('host'), req.originalUrl, req.protocol) : null;
    if (target) res.redirect(302, target);
    else next();
  });
}

// The stream must never be compressed: a compressor buffers the events it should flush.
app.use(compression({ filter: (req, res) => req.path !== '/stream' && compression.filter(req, res) }));

if (viteDevServer) {
  app.use(viteDevServer.middlewares);
} else {
  const client = path.resolve(buildDirectory(config.BUILD_DIR), 'client');
  // Hashed assets never change under their name: cache them for a year.
  app.use('/assets', express.static(path.join(client, 'assets'), { immutable: true, maxAge: '1y' }));
  app.use(express.static(client, { maxAge: '1h' }));
}

const build = viteDevServer
  ? () => viteDevServer.ssrLoadModule('virtual:remix/server-build') as Promise<ServerBuild>
  : ((await import(path.resolve(buildDirectory(config.BUILD_DIR), 'server/index.js'))) as ServerBuild);

type StreamSession = (request: Request) => Promise<{ userId: number; token: string } | null>;
/** Who is asking for the stream: the app owns the sessions, so the app's entry module answers. */
async function streamUser(req: express.Request) {
  const current = typeof build === 'function' ? await build() : build;
  const lookup = (current.entry.module as { streamSession?: StreamSession }).streamSession;
  if (!lookup) return null;
  return lookup(
    new Request(`http://${req.get('host') ?? 'localhost'}${req.originalUrl}`, { headers: { cookie: req.get('cookie') ?? '' } }),
  );
}

// Served here, not by a Remix route: `res.on('close')` reliably ends each subscription.
app.get('/stream', (req, res, next) => {
  const relay = relayFor(upstreamUrl(req));
  streamUser(req).then((who) => relay.handleStream(req, res, who, req.query), next);
});

app.use(refuseCrossSite);
app.use((_req, res, next) => {
  // Pages carry account data: no shared or stored copies unless a route says otherwise.
  res.setHeader('Cache-Control', 'private, no-store');
  next();
});
app.all(
  '*',
  createRequestHandler({
    build,
    mode: dev ? 'development' : 'production',
    getLoadContext: (req, res) => ({
      upstream: { baseUrl: upstreamUrl(req) },
      cspNonce: res.locals.cspNonce as string,
      clientIp: req.ip,
      onLogout: (userId: number) => relayFor(upstreamUrl(req)).logout(userId),
      // The relay's quotes for server rendering; absent until this upstream's relay exists.
      market: relays.get(upstreamUrl(req))?.warmMarket,
    }),
  }),
);

const server = app.listen(config.PORT, config.HOST, () => {
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : config.PORT;
  console.log(`Web app ready at http://localhost:${port}${embedded ? ` (embedded upstream at ${embedded.url})` : ''}`);
});

function shutdown() {
  for (const relay of relays.values()) relay.close();
  server.close();
  if (embedded) void embedded.close().finally(() => process.exit(0));
  else process.exit(0);
}
process.once('SIGINT', shutdown);
process.once('SIGTERM', shutdown);
