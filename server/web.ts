/**
 * One web process, its request path in order: metrics, security headers, refusals of malformed requests and
 * unread bodies, `/healthz` and `/metrics`, the host check, the desktop redirect, static files, the cross-site
 * refusal of state-changing requests, then the app (./pages.ts: Remix, caching rules, CSP, compression, shared
 * pages). The live stream is served before all of it. Run alone or as one of several cluster workers
 * (./index.ts); `shutdown()` ends it gracefully.
 */
import { createRequestHandler, type ServerBuild } from '@remix-run/node';
import express from 'express';
import expressStaticGzip from 'express-static-gzip';
import fs from 'node:fs';
import http from 'node:http';
import https from 'node:https';
import net from 'node:net';
import path from 'node:path';
import type { Registry } from 'prom-client';
import { buildDirectory } from './build-directory';
import { upstreamForHost, type Config } from './config';
import { createMetrics, metricsAllowed, routeLabeller } from './metrics';
import { carriesCookie, remixPages, type SharedPageRules } from './pages';
import { lanHttpsPort, readLanCertificate } from './phone-https';
import { createRelay, lastEventIdOf } from './relay/hub';
import { desktopSiteUrl, refuseCrossSite, refuseMalformed, securityHeaders, unreadBodyCloses, validHost } from './security';

export interface WebOptions {
  config: Config;
  /** The embedded upstream's address (UPSTREAM_URL unset), else null. */
  embeddedUrl: string | null;
  /** `/metrics`' text: this process's registry alone, or (a cluster worker) every worker's, summed by the primary. */
  metricsText?: (local: () => Promise<string>) => Promise<string>;
  /** A cluster worker: asks the other processes to replay after a Last-Event-ID that one of them issued. */
  replayElsewhere?: (userId: number, lastEventId: string) => Promise<string | null>;
}

export interface Web {
  server: http.Server;
  /** The HTTPS listener for a phone on this network (LAN_HTTPS=on), else null. */
  lanServer: https.Server | null;
  /** This process's metrics (a cluster primary collects them from every worker). */
  registry: Registry;
  /** Another process's question: this user's private events after an id this process issued (null: not ours). */
  replayFor(userId: number, lastEventId: string): string | null;
  /** Stops accepting, sends streams elsewhere, lets requests in flight finish (until `deadlineMs`), closes the relays. */
  shutdown(deadlineMs?: number): Promise<void>;
}

export async function startWeb({ config, embeddedUrl, metricsText, replayElsewhere }: WebOptions): Promise<Web> {
  const dev = config.NODE_ENV === 'development';
  /** The upstream this request's page host uses (refused earlier when UPSTREAM_URL=auto and the host is not allowed). */
  const upstreamUrl = (req: express.Request): string =>
    embeddedUrl ??
    (config.UPSTREAM_URL === 'auto'
      ? upstreamForHost(req.get('host') ?? '', `${req.protocol}:`, config.ALLOWED_HOSTS ?? [])!
      : config.UPSTREAM_URL!);

  const viteDevServer = dev ? await import('vite').then((vite) => vite.createServer({ server: { middlewareMode: true } })) : undefined;
  const build = viteDevServer
    ? () => viteDevServer.ssrLoadModule('virtual:remix/server-build') as Promise<ServerBuild>
    : ((await import(path.resolve(buildDirectory(config.BUILD_DIR), 'server/index.js'))) as ServerBuild);

  // One relay per upstream: the configured or embedded one, or with UPSTREAM_URL=auto one per allowed host's
  // api.<domain>, made when its first stream opens.
  const relays = new Map<string, ReturnType<typeof createRelay>>();
  function relayFor(upstream: string) {
    let relay = relays.get(upstream);
    if (!relay) relays.set(upstream, (relay = createRelay({ upstreamUrl: upstream })));
    return relay;
  }
  /** The one upstream of every request, unless UPSTREAM_URL=auto picks one per page host. */
  const fixedUpstream = embeddedUrl ?? (config.UPSTREAM_URL !== 'auto' ? config.UPSTREAM_URL! : null);
  if (fixedUpstream) relayFor(fixedUpstream);

  const metrics = createMetrics({
    relays: () => [...relays.values()].map((r) => r.stats()),
    route: routeLabeller(typeof build === 'function' ? null : build.routes, (p) => p.startsWith('/assets/') || path.extname(p) !== ''),
  });

  let shuttingDown = false;
  let lanServer: https.Server | null = null;
  /** The port lanServer listens on, once it does. */
  let lanListening: number | null = null;
  const app = express();
  app.disable('x-powered-by');
  // Only the proxies named by TRUST_PROXY (default: one on this host) may name the user's address and scheme.
  app.set('trust proxy', config.TRUST_PROXY);
  app.use(metrics.middleware);
  app.use((_req, res, next) => {
    // While stopping, every answer closes its connection: the client's next request opens a new one elsewhere.
    if (shuttingDown) res.setHeader('Connection', 'close');
    next();
  });
  const lanPort = lanHttpsPort(config);
  // No HSTS from the phone's HTTPS port: its certificate is not trusted, and for a host name HSTS would also send
  // the plain port to HTTPS.
  app.use(securityHeaders(dev, (req) => req.secure && req.socket.localPort !== lanListening));
  app.use(refuseMalformed());
  app.use(unreadBodyCloses());

  app.get('/healthz', (_req, res) => {
    const all = [...relays.values()].map((r) => r.stats());
    res.json({
      ok: true,
      upstream: embeddedUrl ? 'embedded' : 'remote',
      feed: all.length === 1 ? all[0]!.upstream : all.map((s) => s.upstream),
      subscribers: all.reduce((n, s) => n + s.clients, 0),
      users: all.reduce((n, s) => n + s.users, 0),
    });
  });

  app.get('/metrics', (req, res, next) => {
    // Not found rather than forbidden: nothing tells a stranger that it exists.
    if (!metricsAllowed(req, config.METRICS_TOKEN)) return next();
    const local = () => metrics.registry.metrics();
    (metricsText ? metricsText(local) : local()).then(
      (text) => res.type(metrics.registry.contentType).setHeader('Cache-Control', 'no-store').send(text),
      (error: unknown) => {
        // The processes did not all answer in time: the scraper tries again, and this is not a server fault.
        console.warn(`[metrics] not collected: ${error instanceof Error ? error.message : String(error)}`);
        res.status(503).setHeader('Retry-After', '5').type('text/plain').send('Metrics not collected in time.\n');
      },
    );
  });

  if (config.UPSTREAM_URL === 'auto') {
    // Only the broker's own page hosts: any other Host would choose where users' tokens are sent. (A health
    // check or a metrics scrape by address is answered above.)
    app.use((req, res, next) => {
      if (upstreamForHost(req.get('host') ?? '', `${req.protocol}:`, config.ALLOWED_HOSTS ?? [])) return next();
      res.status(421).type('text/plain').send('This site is not served here.\n');
    });
  }

  if (config.DESKTOP_SITE === 'on') {
    app.use((req, res, next) => {
      const target = req.method === 'GET' ? desktopSiteUrl(req.get('user-agent'), req.get('host'), req.originalUrl, req.protocol) : null;
      if (target) res.redirect(302, target);
      else next();
    });
  }

  if (viteDevServer) {
    app.use(viteDevServer.middlewares);
  } else {
    const client = path.resolve(buildDirectory(config.BUILD_DIR), 'client');
    // Hashed assets never change under their name: cache them for a year. Each has a brotli and a gzip copy
    // made at build time (scripts/precompress-assets.ts): the smallest the browser accepts is sent as is.
    app.use(
      '/assets',
      expressStaticGzip(path.join(client, 'assets'), {
        enableBrotli: true,
        orderPreference: ['br', 'gz'],
        serveStatic: { immutable: true, maxAge: '1y' },
      }),
    );
    // The other public files (the manifest, the service worker, icons, flags) are served by the build's top-level
    // names, read once: a page's path is never looked for on disk (decision 0022).
    const publicNames = new Set(fs.readdirSync(client));
    const publicFiles = express.static(client, { maxAge: '1h', index: false });
    app.use((req, res, next) => (publicNames.has(req.path.split('/')[1]!) ? publicFiles(req, res, next) : next()));
  }

  /** What the app's build entry tells the server about its sessions: the app owns them. */
  interface AppEntry {
    streamSession?: (request: Request) => Promise<{ userId: number; token: string } | null>;
    keepCatalogueWarm?: (upstream: { baseUrl: string; observe?: typeof metrics.observeUpstreamCall }) => { stop: () => void };
    sessionCookieName?: string;
    sharedPages?: SharedPageRules;
  }
  const appEntry = async () => (typeof build === 'function' ? await build() : build).entry.module as AppEntry;

  /** Who is asking for the stream: the app's session lookup, on the request's cookie alone. */
  async function streamUser(host: string | undefined, url: string, cookie: string | undefined) {
    const { streamSession, sessionCookieName } = await appEntry();
    // A visitor (no session cookie) is known at once: no Request, no session read for most streams.
    if (!streamSession || (sessionCookieName && !carriesCookie(cookie, sessionCookieName))) return null;
    return streamSession(new Request(`http://${host ?? 'localhost'}${url}`, { headers: { cookie: cookie ?? '' } }));
  }

  /**
   * `GET /stream`, served before Express (decision 0018): a stream stays open for hours, and what Express and the
   * page middleware leave on a request (its own prototypes for req and res, parsed URLs, the page's CSP and
   * security headers, a dozen closures) stayed with each of thousands of open streams. Served here, not by a
   * Remix route: `res.on('close')` reliably ends each subscription. With UPSTREAM_URL=auto (the upstream
   * follows the page host, behind Express's host check and trusted-proxy rules) the stream goes through Express.
   */
  function serveStream(req: http.IncomingMessage, res: http.ServerResponse, upstream: string): void {
    if (shuttingDown) res.setHeader('Connection', 'close');
    res.setHeader('X-Content-Type-Options', 'nosniff');
    const relay = relayFor(upstream);
    const url = req.url ?? '/stream';
    const lastEventId = lastEventIdOf(req);
    streamUser(req.headers.host, url, req.headers.cookie)
      .then(async (who) => {
        // A reconnect that landed on another process than the one it was streaming from: that one replays.
        const replayed =
          who && lastEventId && replayElsewhere && !relay.issued(lastEventId) ? await replayElsewhere(who.userId, lastEventId) : null;
        relay.handleStream(req, res, who, undefined, replayed);
      })
      .catch((error: unknown) => {
        console.error('[stream]', error);
        if (res.headersSent) res.destroy();
        else res.writeHead(500, { 'Content-Type': 'text/plain; charset=utf-8', 'Cache-Control': 'no-store' }).end('Stream failed.\n');
      });
  }
  const isStream = (req: http.IncomingMessage) =>
    (req.method === 'GET' || req.method === 'HEAD') && (req.url === '/stream' || req.url?.startsWith('/stream?') === true);
  if (!fixedUpstream) app.get('/stream', (req, res) => serveStream(req, res, upstreamUrl(req)));

  app.use(refuseCrossSite);
  const { sharedPages, sessionCookieName } = await appEntry();
  const pages = remixPages({
    remix: createRequestHandler(build, dev ? 'development' : 'production'),
    dev,
    rules: sharedPages,
    sessionCookie: sessionCookieName,
    loadContext: (req) => ({
      upstream: { baseUrl: upstreamUrl(req), observe: metrics.observeUpstreamCall },
      clientIp: req.ip,
      onLogout: (userId: number) => relayFor(upstreamUrl(req)).logout(userId),
      // The relay's quotes for server rendering; absent until this upstream's relay exists.
      market: relays.get(upstreamUrl(req))?.warmMarket,
    }),
    count: metrics.countSharedPage,
  });
  app.all('*', pages.handler);

  const handle = (req: http.IncomingMessage, res: http.ServerResponse) => {
    if (fixedUpstream && isStream(req) && validHost(req.headers.host)) serveStream(req, res, fixedUpstream);
    else app(req, res);
  };
  const server = http.createServer(handle);
  await new Promise<void>((resolve) => server.listen(config.PORT, config.HOST, resolve));
  // The same app over HTTPS for a phone on this network (decision 0043); the certificate was made before this process.
  if (lanPort !== null) {
    lanServer = https.createServer(readLanCertificate(path.resolve(config.DATA_DIR)), handle);
    await new Promise<void>((resolve) => lanServer!.listen(lanPort, config.HOST, resolve));
    lanListening = (lanServer.address() as net.AddressInfo).port;
  }
  // Every process holds a recent catalogue before its first page: the fallback of a page or an order post
  // that lands here while the upstream is silent (with UPSTREAM_URL=auto, pages warm their own).
  const warming = fixedUpstream
    ? (await appEntry()).keepCatalogueWarm?.({ baseUrl: fixedUpstream, observe: metrics.observeUpstreamCall })
    : undefined;

  let stopped: Promise<void> | null = null;
  function shutdown(deadlineMs = 10_000): Promise<void> {
    return (stopped ??= new Promise<void>((resolve) => {
      shuttingDown = true;
      warming?.stop();
      // Stop accepting with net's close, not http's: http's also drops idle keep-alive connections at once,
      // racing a request the client may be sending on one. These close after their next answer instead
      // (Connection: close above), or at the keep-alive timeout.
      const closing = [server, ...(lanServer ? [lanServer] : [])].map(
        (s) => new Promise<void>((done) => net.Server.prototype.close.call(s, () => done())),
      );
      void Promise.all(closing).then(() => resolve());
      // Streams are told when to come back and ended; the browser reconnects to a process still running.
      for (const relay of relays.values()) relay.close();
      setTimeout(() => {
        server.closeAllConnections();
        lanServer?.closeAllConnections();
        resolve();
      }, deadlineMs).unref();
    }).then(() => viteDevServer?.close()));
  }

  function replayFor(userId: number, lastEventId: string): string | null {
    for (const relay of relays.values()) {
      const text = relay.replayFor(userId, lastEventId);
      if (text !== null) return text;
    }
    return null;
  }

  return { server, lanServer, registry: metrics.registry, replayFor, shutdown };
}
