/**
 * The web server: static files, security headers with a CSP nonce per request, the Remix handler, and
 * `/healthz`. Starts the bundled upstream in-process when UPSTREAM_URL is unset.
 */
import { createRequestHandler } from '@remix-run/express';
import type { ServerBuild } from '@remix-run/node';
import compression from 'compression';
import express from 'express';
import crypto from 'node:crypto';
import path from 'node:path';
import { start as startUpstream } from '../upstream/index';
import { readConfig, upstreamForHost } from './config';

const config = readConfig();
const dev = config.NODE_ENV === 'development';

let embedded: Awaited<ReturnType<typeof startUpstream>> | null = null;
if (!config.UPSTREAM_URL) {
  embedded = await startUpstream({ dataDir: config.DATA_DIR, port: 0 });
}
const upstreamUrl = (req: express.Request) =>
  embedded ? embedded.url : config.UPSTREAM_URL === 'auto' ? upstreamForHost(req.get('host') ?? 'localhost', `${req.protocol}:`) : config.UPSTREAM_URL!;

const viteDevServer = dev
  ? await import('vite').then((vite) => vite.createServer({ server: { middlewareMode: true } }))
  : undefined;

const app = express();
app.disable('x-powered-by');

app.use((req, res, next) => {
  const nonce = crypto.randomBytes(16).toString('base64');
  res.locals.cspNonce = nonce;
  res.setHeader(
    'Content-Security-Policy',
    [
      "default-src 'self'",
      `script-src 'nonce-${nonce}' 'strict-dynamic'${dev ? " 'unsafe-eval'" : ''}`,
      "style-src 'self' 'unsafe-inline'",
      "img-src 'self' data:",
      `connect-src 'self'${dev ? ' ws:' : ''}`,
      "font-src 'self'",
      "object-src 'none'",
      "base-uri 'none'",
      "form-action 'self'",
      "frame-ancestors 'none'",
    ].join('; '),
  );
  res.setHeader('X-Content-Type-Options', 'nosniff');
  res.setHeader('Referrer-Policy', 'same-origin');
  res.setHeader('X-Frame-Options', 'DENY');
  next();
});

app.get('/healthz', (_req, res) => {
  res.json({ ok: true, upstream: embedded ? 'embedded' : 'remote' });
});

app.use(compression());

if (viteDevServer) {
  app.use(viteDevServer.middlewares);
} else {
  const client = path.resolve(config.BUILD_DIR, 'client');
  // Hashed assets never change under their name: cache them for a year.
  app.use('/assets', express.static(path.join(client, 'assets'), { immutable: true, maxAge: '1y' }));
  app.use(express.static(client, { maxAge: '1h' }));
}

const build = viteDevServer
  ? () => viteDevServer.ssrLoadModule('virtual:remix/server-build') as Promise<ServerBuild>
  : ((await import(path.resolve(config.BUILD_DIR, 'server/index.js'))) as ServerBuild);

app.all(
  '*',
  createRequestHandler({
    build,
    mode: dev ? 'development' : 'production',
    getLoadContext: (req, res) => ({ upstream: { baseUrl: upstreamUrl(req) }, cspNonce: res.locals.cspNonce as string }),
  }),
);

const server = app.listen(config.PORT, config.HOST, () => {
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : config.PORT;
  console.log(`Web app ready at http://localhost:${port}${embedded ? ` (embedded upstream at ${embedded.url})` : ''}`);
});

function shutdown() {
  server.close();
  void embedded?.close().finally(() => process.exit(0));
  if (!embedded) process.exit(0);
}
process.once('SIGINT', shutdown);
process.once('SIGTERM', shutdown);
