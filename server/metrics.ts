/**
 * `/metrics` in Prometheus text (prom-client): request durations by route, stream clients, the relay's
 * sockets, upstream call durations by outcome, and node's own figures. Under cluster each worker keeps its
 * own registry and the primary sums them (prom-client's AggregatorRegistry; see ./cluster.ts).
 */
import type express from 'express';
import crypto from 'node:crypto';
import client from 'prom-client';
import type { RelayStats } from './relay/hub';

/** The routes of the Remix build as express sees them (`routes` of a ServerBuild). */
type RouteManifest = Readonly<Record<string, { path?: string; parentId?: string } | undefined>>;

export interface Metrics {
  registry: client.Registry;
  /** Times every request but the stream, labelled by `route(path)`. */
  middleware: express.RequestHandler;
  /** Handed to the app through the load context (app/upstream/client.server.ts). */
  observeUpstreamCall: (call: string, outcome: string, seconds: number) => void;
  /** Shared pages answered from the copy kept for their second, or rendered (./pages.ts). */
  countSharedPage: (result: 'hit' | 'miss') => void;
}

export function createMetrics(options: { relays: () => RelayStats[]; route: (path: string) => string }): Metrics {
  const registry = new client.Registry();
  const registers = [registry];
  client.collectDefaultMetrics({ register: registry, prefix: 'lotfx_' });
  const sum = (pick: (s: RelayStats) => number) => options.relays().reduce((n, s) => n + pick(s), 0);

  const requests = new client.Histogram({
    name: 'lotfx_http_request_duration_seconds',
    help: 'Web requests by route (Remix route pattern, or static/stream/other) until the response ends',
    labelNames: ['method', 'route', 'status'],
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers,
  });
  new client.Gauge({
    name: 'lotfx_stream_clients',
    help: 'Open browser streams (GET /stream)',
    registers,
    collect() {
      this.set(sum((s) => s.clients));
    },
  });
  new client.Gauge({
    name: 'lotfx_stream_clients_old_format',
    help: 'Open browser streams that get one quote event per quote (a tab loaded before the quotes event, decision 0026)',
    registers,
    collect() {
      this.set(sum((s) => s.oldFormatClients));
    },
  });
  new client.Gauge({
    name: 'lotfx_stream_clients_legacy',
    help: 'Open browser streams that read the shapes before stream version 3 (tabs loaded before it): the legacy mappers can go once this stays 0',
    registers,
    collect() {
      this.set(sum((s) => s.legacyClients));
    },
  });
  new client.Gauge({
    name: 'lotfx_relay_feed',
    help: 'Public relay sockets to the upstream by state (up, stale, down); summed over web processes',
    labelNames: ['state'],
    registers,
    collect() {
      for (const state of ['up', 'stale', 'down'] as const)
        this.set(
          { state },
          sum((s) => (s.upstream === state ? 1 : 0)),
        );
    },
  });
  new client.Gauge({
    name: 'lotfx_relay_private_sockets',
    help: "Signed-in users' upstream sockets held by the relay",
    registers,
    collect() {
      this.set(sum((s) => s.privateSockets));
    },
  });
  new client.Counter({
    name: 'lotfx_relay_connects_total',
    help: 'Connection attempts of the public relay socket: the first one, then one per reconnect',
    registers,
    collect() {
      this.reset();
      this.inc(sum((s) => s.connects));
    },
  });
  new client.Counter({
    name: 'lotfx_stream_evicted_total',
    help: 'Streams ended because their client could not keep up',
    registers,
    collect() {
      this.reset();
      this.inc(sum((s) => s.evicted));
    },
  });
  const upstreamCalls = new client.Histogram({
    name: 'lotfx_upstream_call_duration_seconds',
    help: 'Calls from the web app to the upstream API by call and outcome (ok, code: a business error, timeout, network, http, malformed)',
    labelNames: ['call', 'outcome'],
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers,
  });
  const sharedPages = new client.Counter({
    name: 'lotfx_shared_pages_total',
    help: 'Shared pages (server/pages.ts): answered from the copy kept for their second (hit), or rendered (miss)',
    labelNames: ['result'],
    registers,
  });

  return {
    registry,
    middleware(req, res, next) {
      if (req.path === '/stream') return next();
      const end = requests.startTimer();
      res.once('finish', () => end({ method: req.method, route: options.route(req.path), status: String(res.statusCode) }));
      next();
    },
    observeUpstreamCall: (call, outcome, seconds) => upstreamCalls.observe({ call, outcome }, seconds),
    countSharedPage: (result) => sharedPages.inc({ result }),
  };
}

/**
 * A bounded route label for a path: the Remix route pattern it matches (`/news/detail/:id`), `static` for
 * files, `other` for anything else. Never the raw URL: that would make a series per visitor.
 */
export function routeLabeller(routes: RouteManifest | null, staticPath: (path: string) => boolean): (path: string) => string {
  const patterns = Object.entries(routes ?? {}).map(([id]) => fullPattern(routes!, id));
  const fixed = new Set(['/healthz', '/metrics', '/stream']);
  return (raw) => {
    if (fixed.has(raw)) return raw;
    if (staticPath(raw)) return 'static';
    // Single fetch asks for a page's data at `<path>.data` (`/_root.data` for `/`).
    const path = raw === '/_root.data' ? '/' : raw.endsWith('.data') ? raw.slice(0, -'.data'.length) : raw;
    const segments = path.split('/').filter(Boolean);
    let best: { label: string; score: number } | null = null;
    for (const pattern of patterns) {
      const score = matchScore(pattern, segments);
      if (score !== null && (!best || score > best.score)) best = { label: '/' + pattern.join('/'), score };
    }
    return best?.label ?? 'other';
  };
}

function fullPattern(routes: RouteManifest, id: string): string[] {
  const out: string[] = [];
  for (let route = routes[id]; route; route = route.parentId ? routes[route.parentId] : undefined)
    out.unshift(...(route.path ?? '').split('/').filter(Boolean));
  return out;
}

/** Higher for more literal segments; null when the pattern does not match. */
function matchScore(pattern: string[], segments: string[]): number | null {
  let score = 0;
  for (let i = 0; i < pattern.length; i++) {
    const p = pattern[i]!;
    if (p === '*') return score;
    const s = segments[i];
    if (s === undefined) return null;
    if (p.startsWith(':')) score += 1;
    else if (p.toLowerCase() === s.toLowerCase()) score += 2;
    else return null;
  }
  return segments.length === pattern.length ? score + 1 : null;
}

/**
 * Who may read `/metrics`: the machine itself (the address express believes, so a phone behind a proxy on
 * this host is not "loopback"), or anyone with `Authorization: Bearer $METRICS_TOKEN` when that is set.
 */
export function metricsAllowed(req: express.Request, token: string | undefined): boolean {
  const ip = req.ip ?? '';
  if (ip === '::1' || ip.startsWith('127.') || ip.startsWith('::ffff:127.')) return true;
  if (!token) return false;
  const given = Buffer.from(req.get('authorization') ?? '');
  const wanted = Buffer.from(`Bearer ${token}`);
  return given.length === wanted.length && crypto.timingSafeEqual(given, wanted);
}
