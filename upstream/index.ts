/**
 * The reference upstream: spec §7 over HTTP and `/v1/ws`, on SQLite, with a market simulator and a trading
 * engine. `start()` runs it in-process (the web server's embedded default); `main.ts` runs it alone.
 */
import formbody from '@fastify/formbody';
import multipart from '@fastify/multipart';
import websocket from '@fastify/websocket';
import Fastify, { type FastifyInstance } from 'fastify';
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { IMAGE_UPLOAD_MAX_BYTES } from '../contract/calls/identity';
import { WS_PATH } from '../contract/ws';
import { ErrorCode } from '../contract/errors';
import { registerAdmin } from './http/admin';
import { registerAlertRoutes } from './http/alert-routes';
import { requestLanguage, translate } from './http/i18n';
import { smtpMailer } from './content/mailer';
import { registerContentRoutes } from './http/content-routes';
import { registerFundsRoutes } from './http/funds-routes';
import { registerPushRoutes } from './http/push-routes';
import { registerRoutes } from './http/routes';
import { registerSecurityRoutes } from './http/security-routes';
import { INSTRUMENTS, logoSvg, providerLogoSvg, SERVICE_PROVIDERS } from './market/catalogue';
import { RealtimeHub } from './realtime/hub';
import { Upstream, type UpstreamOptions } from './upstream';
import { readUpstreamConfig } from './config';

export interface StartOptions extends Partial<UpstreamOptions> {
  /** 0 picks a free port. */
  port?: number;
  host?: string;
  /** Where the database, the admin key and the address file live. */
  dataDir?: string;
  /** Addresses whose X-Forwarded-For is believed (the web servers). */
  trustProxy?: string[] | boolean;
}

export interface RunningUpstream {
  url: string;
  port: number;
  adminKey: string;
  upstream: Upstream;
  hub: RealtimeHub;
  app: FastifyInstance;
  close(): Promise<void>;
}

export const ADMIN_KEY_FILE = 'admin.key';
export const ADDRESS_FILE = 'upstream.url';

export async function start(options: StartOptions = {}): Promise<RunningUpstream> {
  const config = readUpstreamConfig();
  const dataDir = path.resolve(options.dataDir ?? config.DATA_DIR);
  fs.mkdirSync(dataDir, { recursive: true });
  const log = options.log ?? ((line: string) => console.log(`[upstream] ${line}`));
  const upstream = new Upstream({
    dbFile: options.dbFile ?? path.join(dataDir, 'upstream.sqlite'),
    seed: options.seed ?? config.UPSTREAM_SEED,
    simulate: options.simulate ?? true,
    tickIntervalMs: options.tickIntervalMs ?? 300,
    backfill: options.backfill ?? true,
    allowPriceInjection: options.allowPriceInjection ?? config.UPSTREAM_TEST_HOOKS === '1',
    validateResponses: options.validateResponses ?? false,
    clock: options.clock ?? Date.now,
    marketHours: options.marketHours ?? config.UPSTREAM_MARKET_HOURS,
    log,
    mail: options.mail ?? (config.SMTP_URL ? smtpMailer(config.SMTP_URL, config.MAIL_FROM, log) : undefined),
    pushServiceHosts: options.pushServiceHosts ?? config.PUSH_SERVICE_HOSTS,
    pushSubject: options.pushSubject ?? config.PUSH_SUBJECT,
    withdrawMethodHoldMs: options.withdrawMethodHoldMs ?? config.WITHDRAW_METHOD_HOLD * 1000,
  });
  const adminKey = readOrCreateKey(path.join(dataDir, ADMIN_KEY_FILE));

  // The web server calls from loopback and names the user's address in X-Forwarded-For, so rate limits
  // count people, not the web server.
  const app = Fastify({
    logger: false,
    bodyLimit: 1024 * 1024,
    trustProxy: options.trustProxy ?? ['127.0.0.1', '::1', '::ffff:127.0.0.1'],
  });
  await app.register(formbody);
  // One image per request, bounded while it streams in (never buffered past the limit).
  await app.register(multipart, { limits: { fileSize: IMAGE_UPLOAD_MAX_BYTES, files: 1, fields: 10, parts: 11, fieldSize: 1024 } });
  await app.register(websocket, { options: { maxPayload: 64 * 1024 } });
  // A body fastify cannot read (broken JSON, too large) is still answered in the envelope, never as HTTP 4xx.
  app.setErrorHandler((error: { statusCode?: number }, req, reply) => {
    if (req.url.startsWith('/admin/')) return reply.send(error);
    const lang = requestLanguage(req.headers.lang);
    const clientError = (error.statusCode ?? 500) < 500;
    if (!clientError) req.log.error({ err: error }, 'request failed');
    return reply.code(200).send({
      code: clientError ? ErrorCode.InvalidRequest : ErrorCode.ServerBusy,
      msg: translate(lang, clientError ? 'errors.InvalidRequest' : 'errors.ServerBusy'),
      data: null,
    });
  });
  const hub = new RealtimeHub(upstream);
  app.get(WS_PATH, { websocket: true }, (socket) => hub.attach(socket));
  registerRoutes(app, upstream);
  registerFundsRoutes(app, upstream);
  registerContentRoutes(app, upstream);
  registerAlertRoutes(app, upstream);
  registerPushRoutes(app, upstream);
  registerSecurityRoutes(app, upstream);
  registerAdmin(app, upstream, adminKey);
  const logos = new Map([
    ...INSTRUMENTS.map((s) => [`${s.code.toLowerCase()}.svg`, logoSvg(s)] as const),
    ...SERVICE_PROVIDERS.map((p) => [p.logo.slice('/static/logos/'.length), providerLogoSvg(p.mark, p.name)] as const),
  ]);
  app.get('/static/logos/:file', async (req, reply) => {
    const svg = logos.get((req.params as { file: string }).file);
    if (!svg) return reply.code(404).send();
    return reply.header('content-type', 'image/svg+xml').header('cache-control', 'public, max-age=86400').send(svg);
  });
  app.get('/healthz', async () => ({ ok: true, sockets: hub.size }));

  upstream.start();
  const host = options.host ?? '127.0.0.1';
  await app.listen({ port: options.port ?? 0, host });
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  const url = `http://${host}:${port}`;
  fs.writeFileSync(path.join(dataDir, ADDRESS_FILE), url + '\n');

  let closed = false;
  return {
    url,
    port,
    adminKey,
    upstream,
    hub,
    app,
    async close() {
      if (closed) return;
      closed = true;
      hub.close();
      await app.close();
      upstream.stop();
    },
  };
}

function readOrCreateKey(file: string): string {
  if (fs.existsSync(file)) return fs.readFileSync(file, 'utf8').trim();
  const key = crypto.randomBytes(24).toString('base64url');
  fs.writeFileSync(file, key + '\n', { mode: 0o600 });
  return key;
}
